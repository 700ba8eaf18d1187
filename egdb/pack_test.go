package egdb

import (
	"context"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"
	"github.com/kalah-solver/kalah/engine"
)

// damageEntry changes the value of rank r of t in place (a test of what
// catches damaged entries): the byte's low bit, or the nibble's, which
// moves a packed value into or out of the exception list or by one.
func damageEntry(t *table, r int64) {
	if !t.packed {
		t.raw[r] ^= 1
		return
	}
	line, j := r/perLine, r%perLine
	t.raw[line*lineSize+1+j/2] ^= 1 << (4 * (j & 1))
}

// TestPackRoundTrip packs arrays of every shape (empty, shorter than a
// line, not a whole number of lines, across directory stretches; narrow
// and wide values) and reads every entry back with at and decode.
func TestPackRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, 125, 126, 127, 1000, 1<<dirShift - 1, 1 << dirShift, 3<<dirShift + 77} {
		for _, spread := range []int{1, 8, 15, 16, 40, 256} {
			data := make([]byte, n)
			base := rng.IntN(200)
			for i := range data {
				v := base + rng.IntN(spread)
				if rng.IntN(500) == 0 {
					v = rng.IntN(256) // outliers
				}
				data[i] = byte(min(v, 255))
			}
			tb := pack(data)
			if err := tb.checkPacked(255); err != nil {
				t.Fatalf("n %d spread %d: %v", n, spread, err)
			}
			if nl, nd := packedLayout(int64(n)); int64(len(tb.raw)) != nl*lineSize || int64(len(tb.dir)) != 8*nd {
				t.Fatalf("n %d: %d line bytes, %d directory bytes", n, len(tb.raw), len(tb.dir))
			}
			for r, want := range data {
				if got := tb.at(int64(r)); got != int(want) {
					t.Fatalf("n %d spread %d rank %d: at %d, packed %d", n, spread, r, got, want)
				}
			}
			if got := tb.bytes(); string(got) != string(data) {
				t.Fatalf("n %d spread %d: decoded copy differs", n, spread)
			}
			// A spread of at most 15 values needs no exception but the outliers.
			if spread <= 15 && tb.exceptions() > int64(n/100+2) {
				t.Errorf("n %d spread %d: %d exceptions", n, spread, tb.exceptions())
			}
		}
	}
}

// TestEncodingsAgree builds small databases (m = 3..6, both rules) in both
// encodings, through files, and compares every position's value.
func TestEncodingsAgree(t *testing.T) {
	limit := map[int]int{3: 14, 4: 12, 5: 11, 6: 11}
	if testing.Short() {
		limit = map[int]int{3: 12, 4: 10, 5: 9, 6: 9}
	}
	for m := 3; m <= 6; m++ {
		for _, c := range engine.AllRules {
			rules := engine.Variant{Pits: m, Rule: c}
			t.Run(rules.String(), func(t *testing.T) {
				dbs := make([]*DB, 2)
				for i, enc := range encodings {
					dir := t.TempDir()
					db, err := BuildDir(context.Background(), dir, rules, limit[m], Options{Encoding: enc})
					if err != nil {
						t.Fatal(err)
					}
					db.Close()
					if dbs[i], err = Open(dir, rules); err != nil {
						t.Fatal(err)
					}
					defer dbs[i].Close()
				}
				for s := 0; s <= limit[m]; s++ {
					if dbs[0].Encoding(s) != EncodingGainByte || dbs[1].Encoding(s) != EncodingPacked {
						t.Fatalf("slice %d: encodings %d, %d", s, dbs[0].Encoding(s), dbs[1].Encoding(s))
					}
					cur := dbs[0].Index().Cursor(s, 0, dbs[0].Index().Size(s))
					for cur.Next() {
						b := engine.Board{Own: cur.Own, Opp: cur.Opp}
						g0, ok0 := dbs[0].Probe(b)
						g1, ok1 := dbs[1].Probe(b)
						if !ok0 || !ok1 || g0 != g1 {
							t.Fatalf("slice %d rank %d: byte %d (%v), packed %d (%v)", s, cur.Rank, g0, ok0, g1, ok1)
						}
					}
				}
			})
		}
	}
}

// TestPackedFileChecks: a packed file whose checksums are right but whose
// exception list is out of order, or whose exception count is wrong, is
// refused with an error naming the file.
func TestPackedFileChecks(t *testing.T) {
	// A file of slice 20 of two pits whose values are random, so that it
	// has many exceptions (the file checks do not look at the values).
	dir := t.TempDir()
	rules := engine.Variant{Pits: 2}
	n := SliceSize(2, 20).Int64()
	data := make([]byte, n)
	rng := rand.New(rand.NewPCG(7, 8))
	for i := range data {
		data[i] = byte(rng.IntN(21))
	}
	tb := pack(data)
	path := SlicePath(dir, rules, 20)
	if err := writeSlice(path, rules, 20, tb); err != nil {
		t.Fatal(err)
	}
	if err := CheckFile(dir, rules, 20); err != nil {
		t.Fatal(err)
	}
	orig, _ := os.ReadFile(path)
	h, err := decodeHeader(orig[:HeaderSize])
	if err != nil || h.Encoding != EncodingPacked || h.Version != 2 || h.Exceptions != tb.exceptions() || h.Exceptions < 2 {
		t.Fatalf("header %+v, %v", h, err)
	}
	nl, _ := packedLayout(h.Entries)
	exc := HeaderSize + lineSize*nl
	// rewrite applies f to a copy of the file, fixes both checksums, and
	// returns the error of checking it.
	rewrite := func(f func(b []byte)) error {
		b := append([]byte(nil), orig...)
		f(b)
		binary.LittleEndian.PutUint64(b[24:], xxhash.Sum64(b[HeaderSize:]))
		v := int(binary.LittleEndian.Uint16(b[8:]))
		binary.LittleEndian.PutUint64(b[32:], headerSum(b, v))
		os.WriteFile(path, b, 0o644)
		err := CheckFile(dir, rules, 20)
		if err == nil {
			return errors.New("accepted")
		}
		if !strings.Contains(err.Error(), path) {
			t.Errorf("error does not name the file: %v", err)
		}
		return err
	}
	err = rewrite(func(b []byte) { // swap the first two exceptions
		e0 := append([]byte(nil), b[exc:exc+excSize]...)
		copy(b[exc:exc+excSize], b[exc+excSize:exc+2*excSize])
		copy(b[exc+excSize:exc+2*excSize], e0)
	})
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "out of order") {
		t.Errorf("exceptions out of order: %v", err)
	}
	err = rewrite(func(b []byte) { b[exc+2] = 21 }) // a value beyond the 20 seeds
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "beyond the 20 seeds") {
		t.Errorf("exception value 21: %v", err)
	}
	err = rewrite(func(b []byte) { binary.LittleEndian.PutUint64(b[40:], uint64(h.Exceptions-1)) })
	if !errors.Is(err, ErrCorrupt) {
		t.Errorf("wrong exception count: %v", err)
	}
	err = rewrite(func(b []byte) { // the last directory entry off by one
		d := len(b) - 8
		binary.LittleEndian.PutUint64(b[d:], binary.LittleEndian.Uint64(b[d:])+1)
	})
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "directory") {
		t.Errorf("bad directory: %v", err)
	}
	err = rewrite(func(b []byte) { // the first exception dropped from the directory
		d := len(b) - 16
		binary.LittleEndian.PutUint64(b[d:], 1)
	})
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "directory") {
		t.Errorf("an exception left out: %v", err)
	}
	err = rewrite(func(b []byte) { // an exception's rank moved to an unmarked one
		r := binary.LittleEndian.Uint16(b[exc:])
		for tb.nibble(uint64(r)) == escape {
			r--
		}
		binary.LittleEndian.PutUint16(b[exc:], r)
	})
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "not marked") {
		t.Errorf("an exception moved: %v", err)
	}
	err = rewrite(func(b []byte) { binary.LittleEndian.PutUint16(b[8:], 1) }) // version 1 with the packed encoding
	if !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), "encoding 2 in a version 1") {
		t.Errorf("packed encoding in a version 1 file: %v", err)
	}
	err = rewrite(func(b []byte) { binary.LittleEndian.PutUint16(b[8:], 3) })
	if !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), "version 3") {
		t.Errorf("version 3: %v", err)
	}
	if err := rewrite(func([]byte) {}); err.Error() != "accepted" {
		t.Errorf("the untouched file: %v", err)
	}
}
