package egdb

import (
	"bytes"
	"context"
	"errors"
	"os"
	"testing"
)

// TestConvert converts a byte-encoded database to packed and back: every
// entry is kept, a second run changes nothing, and the round trip gives
// the original files byte for byte.
func TestConvert(t *testing.T) {
	dir := t.TempDir()
	buildToEnc(t, dir, rules4, 10, EncodingGainByte)
	orig := map[int][]byte{}
	for s := 0; s <= 10; s++ {
		orig[s], _ = os.ReadFile(SlicePath(dir, rules4, s))
	}
	convert := func(enc int) (reps []ConvertReport) {
		t.Helper()
		if err := Convert(context.Background(), dir, rules4, enc, func(r ConvertReport) { reps = append(reps, r) }); err != nil {
			t.Fatal(err)
		}
		if len(reps) != 11 {
			t.Fatalf("%d reports", len(reps))
		}
		return reps
	}
	for _, r := range convert(EncodingPacked) {
		if !r.Converted || r.From != "byte" || r.To != "packed" {
			t.Errorf("to packed: %+v", r)
		}
		if st, _ := os.Stat(SlicePath(dir, rules4, r.Seeds)); st.Size() != r.FileBytes {
			t.Errorf("slice %d: %d bytes, report says %d", r.Seeds, st.Size(), r.FileBytes)
		}
		if r.Seeds == 10 && r.BytesSaved <= 0 {
			t.Errorf("slice 10 did not shrink: %+v", r)
		}
	}
	db, err := Open(dir, rules4)
	if err != nil {
		t.Fatal(err)
	}
	for s := 0; s <= 10; s++ {
		if db.Encoding(s) != EncodingPacked || !bytes.Equal(db.Slice(s), orig[s][HeaderSize:]) {
			t.Fatalf("slice %d differs after packing", s)
		}
	}
	db.Close()
	for _, r := range convert(EncodingPacked) {
		if r.Converted {
			t.Errorf("converted again: %+v", r)
		}
	}
	convert(EncodingGainByte)
	for s := 0; s <= 10; s++ {
		if b, _ := os.ReadFile(SlicePath(dir, rules4, s)); !bytes.Equal(b, orig[s]) {
			t.Fatalf("slice %d: the round trip changed the file", s)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Convert(ctx, dir, rules4, EncodingPacked, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if err := Convert(context.Background(), t.TempDir(), rules4, EncodingPacked, nil); err == nil {
		t.Error("converted a database that is not there")
	}
}
