package persist

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dgraph-io/badger/v4"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/tt"
)

// A cache written by another format (format 1 kept one bound per entry) is
// refused with a message naming both formats, and nothing in it is
// touched.
func TestCacheOtherFormat(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	r := engine.Variant{Pits: 6, Rule: engine.EmptyCapture}
	s, err := Open(dir, r, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := badger.Open(badger.DefaultOptions(dir).WithLogger(nil))
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(txn *badger.Txn) error { return txn.Set(headerKey, []byte{1}) }); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	_, err = Open(dir, r, Options{})
	if !errors.Is(err, ErrNotCache) || !strings.Contains(err.Error(), "format [1]") || !strings.Contains(err.Error(), "format 2") {
		t.Fatalf("opening a format-1 cache: %v", err)
	}
	// The header is as it was: the refusal wrote nothing.
	db, err = badger.Open(badger.DefaultOptions(dir).WithLogger(nil))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.View(func(txn *badger.Txn) error {
		item, err := txn.Get(headerKey)
		if err != nil {
			return err
		}
		v, err := item.ValueCopy(nil)
		if err == nil && (len(v) != 1 || v[0] != 1) {
			t.Errorf("header is now %v", v)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The entry record round-trips every kind of interval, and refuses records
// no cache writes.
func TestEntryRecord(t *testing.T) {
	for _, e := range []tt.Entry{
		tt.MakeEntry(-3, 5, 2, tt.DepthSolved, 7),
		tt.MakeEntry(4, tt.NoUpper, 0, tt.DepthSolved, 31),
		tt.MakeEntry(tt.NoLower, -72, 5, tt.DepthSolved, 0),
		tt.MakeEntry(0, 0, 1, tt.DepthSolved, 12),
	} {
		b := encodeEntry(e)
		d, ok := decodeEntry(b[:], 6)
		if !ok || d.Lower() != e.Lower() || d.Upper() != e.Upper() || d.Move() != e.Move() || d.Work() != e.Work() || !d.Solved() {
			t.Errorf("%d..%d does not round-trip: %d..%d %v", e.Lower(), e.Upper(), d.Lower(), d.Upper(), ok)
		}
	}
	bad := [][]byte{
		{0xfc, 0x18, 0x03, 0xe8, 0, 0}, // no bound on either side
		{0, 5, 0, 3, 0, 0},             // lower above upper
		{0, 1, 0, 3, 6, 0},             // move 6 on six pits
		{0, 1, 0, 3, 0, 32},            // work over 31
		{0, 1, 0, 3, 0},                // format 1's length
		{0x01, 0x2c, 0x03, 0xe8, 0, 0}, // lower 300
	}
	for _, b := range bad {
		if _, ok := decodeEntry(b, 6); ok {
			t.Errorf("record %v accepted", b)
		}
	}
}

// TestOldHeaderKey: a cache whose header is under the older key
// "kalah-store" opens, and its header moves to "kalah-cache".
func TestOldHeaderKey(t *testing.T) {
	r := engine.Variant{Pits: 4, Rule: engine.NoEmptyCapture}
	dir := t.TempDir()
	s, err := Open(dir, r, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, err := badger.Open(badger.DefaultOptions(dir).WithLogger(nil))
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(txn *badger.Txn) error {
		if err := txn.Delete(headerKey); err != nil {
			return err
		}
		return txn.Set(oldHeaderKey, []byte{cacheFormat})
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	s, err = Open(dir, r, Options{})
	if err != nil {
		t.Fatalf("a cache with the older header key: %v", err)
	}
	s.Close()
	db, err = badger.Open(badger.DefaultOptions(dir).WithLogger(nil))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.View(func(txn *badger.Txn) error {
		if _, err := txn.Get(headerKey); err != nil {
			t.Errorf("header under kalah-cache: %v", err)
		}
		if _, err := txn.Get(oldHeaderKey); !errors.Is(err, badger.ErrKeyNotFound) {
			t.Errorf("header under kalah-store still there: %v", err)
		}
		return nil
	})
}
