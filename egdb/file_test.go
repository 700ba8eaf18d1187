package egdb

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/kalah-solver/kalah/engine"
)

var (
	rules4  = engine.Variant{Pits: 4, Rule: engine.NoEmptyCapture}
	rules4e = engine.Variant{Pits: 4, Rule: engine.EmptyCapture}
)

// buildTo builds rules up to maxSeeds in dir (packed) and returns the
// reports.
func buildTo(t *testing.T, dir string, rules engine.Variant, maxSeeds int) []SliceReport {
	t.Helper()
	return buildToEnc(t, dir, rules, maxSeeds, EncodingPacked)
}

// buildToEnc is buildTo in the encoding enc.
func buildToEnc(t *testing.T, dir string, rules engine.Variant, maxSeeds, enc int) []SliceReport {
	t.Helper()
	var reps []SliceReport
	db, err := BuildDir(context.Background(), dir, rules, maxSeeds, Options{Encoding: enc, SliceDone: func(r SliceReport) { reps = append(reps, r) }})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return reps
}

func TestSaveOpenRoundTrip(t *testing.T) {
	dir := t.TempDir()
	mem, err := Build(context.Background(), rules4, 9, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := mem.Save(dir); err != nil {
		t.Fatal(err)
	}
	db, err := Open(dir, rules4)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if db.MaxSeeds() != 9 {
		t.Fatalf("MaxSeeds %d, want 9", db.MaxSeeds())
	}
	for s := 0; s <= 9; s++ {
		if !bytes.Equal(db.Slice(s), mem.Slice(s)) {
			t.Fatalf("slice %d differs after Save/Open", s)
		}
	}
	if _, err := Open(dir, rules4e); err == nil || !strings.Contains(err.Error(), "no endgame database") {
		t.Fatalf("opening a rule with no files: %v", err)
	}
}

func TestResumable(t *testing.T) {
	dir := t.TempDir()
	reps := buildTo(t, dir, rules4, 5)
	for _, r := range reps {
		if !r.Built {
			t.Fatalf("first build loaded slice %d", r.Seeds)
		}
	}
	before, _ := os.Stat(SlicePath(dir, rules4, 5))
	reps = buildTo(t, dir, rules4, 8)
	for _, r := range reps {
		if r.Built != (r.Seeds >= 6) {
			t.Fatalf("second build: slice %d built=%v", r.Seeds, r.Built)
		}
	}
	after, _ := os.Stat(SlicePath(dir, rules4, 5))
	if !after.ModTime().Equal(before.ModTime()) {
		t.Fatal("slice 5 was rewritten")
	}
	if m := Missing(dir, rules4, 9); len(m) != 1 || m[0] != 9 {
		t.Fatalf("Missing = %v, want [9]", m)
	}
}

func TestInterruptedBuildLeavesNoFile(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var seen atomic.Int64
	_, err := BuildDir(ctx, dir, engine.Variant{Pits: 6}, 10, Options{Threads: 2, Progress: func(n int64) {
		// Full chunks start at slice 8; stop inside slice 8 or 9.
		if n == chunk && seen.Add(1) == 3 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	files, _ := filepath.Glob(filepath.Join(RuleDir(dir, engine.Variant{Pits: 6}), "*"))
	for _, f := range files {
		if strings.HasSuffix(f, ".tmp") {
			t.Errorf("temporary file left: %s", f)
		}
	}
	if len(Missing(dir, engine.Variant{Pits: 6}, 10)) == 0 {
		t.Fatal("an interrupted build left every slice")
	}
	// The files written are complete: they open.
	if db, err := Open(dir, engine.Variant{Pits: 6}); err != nil {
		t.Fatal(err)
	} else {
		db.Close()
	}
}

// damage builds a database in each encoding, applies f to the file of
// slice 8, and returns the errors of opening it.
func damage(t *testing.T, f func(dir, path string)) []error {
	t.Helper()
	var errs []error
	for _, enc := range encodings {
		errs = append(errs, damageEnc(t, enc, f))
	}
	return errs
}

func damageEnc(t *testing.T, enc int, f func(dir, path string)) error {
	t.Helper()
	dir := t.TempDir()
	buildToEnc(t, dir, rules4, 8, enc)
	path := SlicePath(dir, rules4, 8)
	os.Chmod(path, 0o644)
	f(dir, path)
	db, err := Open(dir, rules4)
	if err == nil {
		db.Close()
		t.Fatal("a damaged database opened")
	}
	t.Log(err)
	if !strings.Contains(err.Error(), path) {
		t.Errorf("error does not name the file: %v", err)
	}
	// Building over it refuses too, and leaves it alone.
	if _, err2 := BuildDir(context.Background(), dir, rules4, 8, Options{}); err2 == nil {
		t.Error("BuildDir accepted a damaged file")
	}
	return err
}

func TestCorruptByteRefused(t *testing.T) {
	for _, err := range damage(t, func(_, path string) {
		b, _ := os.ReadFile(path)
		b[HeaderSize+len(b)/2]++
		os.WriteFile(path, b, 0o644)
	}) {
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "checksum") {
			t.Fatalf("corrupt payload: %v", err)
		}
	}
}

func TestTruncatedFileRefused(t *testing.T) {
	for _, cut := range []int64{1, 1000, HeaderSize + 10} {
		for _, err := range damage(t, func(_, path string) {
			st, _ := os.Stat(path)
			os.Truncate(path, min(cut, st.Size()-1))
		}) {
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "truncated") {
				t.Fatalf("truncated to %d: %v", cut, err)
			}
		}
	}
}

func TestWrongHeaderRefused(t *testing.T) {
	// Another slice's file under this slice's name.
	for _, err := range damage(t, func(dir, path string) {
		b, _ := os.ReadFile(SlicePath(dir, rules4, 7))
		os.WriteFile(path, b, 0o644)
	}) {
		if !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), "slice 7") {
			t.Fatalf("wrong slice: %v", err)
		}
	}
	// Another rule's file.
	for _, err := range damage(t, func(dir, path string) {
		other := t.TempDir()
		buildTo(t, other, rules4e, 8)
		b, _ := os.ReadFile(SlicePath(other, rules4e, 8))
		os.WriteFile(path, b, 0o644)
	}) {
		if !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), "empty-capture") {
			t.Fatalf("wrong rule: %v", err)
		}
	}
	// A damaged header byte.
	for _, err := range damage(t, func(_, path string) {
		b, _ := os.ReadFile(path)
		b[11] = 5 // pits
		os.WriteFile(path, b, 0o644)
	}) {
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "header checksum") {
			t.Fatalf("damaged header: %v", err)
		}
	}
	// Not a database at all.
	for _, err := range damage(t, func(_, path string) {
		os.WriteFile(path, bytes.Repeat([]byte("x"), 100), 0o644)
	}) {
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "magic") {
			t.Fatalf("not a database: %v", err)
		}
	}
}

// TestOpenShares: handles opened on the same files share one set of
// mappings, each stays usable after the others close, and files written
// anew are loaded anew (and checked: a damaged one is refused).
func TestOpenShares(t *testing.T) {
	dir := t.TempDir()
	buildTo(t, dir, rules4, 7)
	a, err := Open(dir, rules4)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Open(dir, rules4)
	if err != nil {
		t.Fatal(err)
	}
	if a.shared == nil || a.shared != b.shared || a.shared.refs != 2 {
		t.Fatalf("two handles on one database: shared %p and %p", a.shared, b.shared)
	}
	want := append([]byte(nil), a.Slice(7)...)
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Slice(7), want) {
		t.Fatal("slice 7 changed when another handle closed")
	}
	// Slice 7 written anew, damaged: a new Open loads it and refuses it,
	// while b keeps its mapping.
	path := SlicePath(dir, rules4, 7)
	data, _ := os.ReadFile(path)
	data[len(data)-1]++
	if err := os.WriteFile(path+".new", data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".new", path); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir, rules4); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("a damaged file written after the first Open: %v, want ErrCorrupt", err)
	}
	if !bytes.Equal(b.Slice(7), want) {
		t.Fatal("slice 7 of the open handle changed")
	}
	key := b.shared.key
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	mappedMu.Lock()
	_, left := mappings[key]
	mappedMu.Unlock()
	if left {
		t.Fatal("the mappings are still shared after every handle closed")
	}
}
