package egdb

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// TestCheckedFiles: Open remembers the files it checked in full and
// skips the payload check of a file that is unchanged since (the damage
// below, which keeps the file's inode, size and time, stands for a disk
// flipping bits: only 'kalah egdb verify' finds it), checks again a file
// written since, and remembers no file too new to be told apart.
func TestCheckedFiles(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no inode numbers: every file is checked at every Open")
	}
	for _, enc := range encodings {
		dir := t.TempDir()
		buildToEnc(t, dir, rules4, 8, enc)
		record := filepath.Join(RuleDir(dir, rules4), checkedName)
		open := func() error {
			db, err := Open(dir, rules4)
			if err == nil {
				db.Close() // the last handle: the next Open maps the files anew
			}
			return err
		}
		// Just built: too new to be remembered.
		if err := open(); err != nil {
			t.Fatal(err)
		}
		if n := len(readChecked(dir, rules4)); n != 0 {
			t.Fatalf("encoding %d: %d files remembered right after the build", enc, n)
		}
		old := time.Now().Add(-time.Hour)
		for s := 0; s <= 8; s++ {
			os.Chtimes(SlicePath(dir, rules4, s), old, old)
		}
		if err := open(); err != nil {
			t.Fatal(err)
		}
		want := 0 // the files with a payload to check
		for s := 0; s <= 8; s++ {
			if fi, _ := os.Stat(SlicePath(dir, rules4, s)); fi.Size() > HeaderSize {
				want++
			}
		}
		if known := readChecked(dir, rules4); len(known) != want || want < 7 {
			t.Fatalf("encoding %d: %d files remembered, want %d (%s): %v", enc, len(known), want, record, known)
		}
		// A payload byte changed in place, the time put back.
		path := SlicePath(dir, rules4, 8)
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		b := make([]byte, 1)
		f.ReadAt(b, HeaderSize+10)
		b[0] ^= 0x55
		f.WriteAt(b, HeaderSize+10)
		f.Close()
		os.Chtimes(path, old, old)
		if err := open(); err != nil {
			t.Fatalf("encoding %d: an unchanged-looking file was checked again: %v", enc, err)
		}
		if err := CheckFile(dir, rules4, 8); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("encoding %d: CheckFile (kalah egdb verify) on the damaged file: %v, want ErrCorrupt", enc, err)
		}
		// Any later write changes the time: checked again, refused.
		now := time.Now()
		os.Chtimes(path, now, now)
		if err := open(); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("encoding %d: a damaged file written since its check: %v, want ErrCorrupt", enc, err)
		}
		// A foreign or damaged record is ignored: every file is checked.
		os.WriteFile(record, []byte("{not json"), 0o644)
		os.Chtimes(path, old, old)
		if err := open(); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("encoding %d: with a damaged record: %v, want ErrCorrupt", enc, err)
		}
	}
}

// TestTrustedOpenClose: a file Open trusts is mapped in the background
// (populateAsync); closing the handle at once, while that may still run,
// and opening again is safe, and the answers are the ones the files hold.
func TestTrustedOpenClose(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no inode numbers: every file is checked at every Open")
	}
	dir := t.TempDir()
	buildToEnc(t, dir, rules4, 8, EncodingPacked)
	old := time.Now().Add(-time.Hour)
	for s := 0; s <= 8; s++ {
		os.Chtimes(SlicePath(dir, rules4, s), old, old)
	}
	var ref [9][]byte // the slices as the first, checking, Open read them
	for i := range 20 {
		db, err := Open(dir, rules4)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			for s := range ref {
				ref[s] = db.Slice(s)
			}
		} else if len(readChecked(dir, rules4)) == 0 {
			t.Fatal("no file remembered: the background mapping was not exercised")
		}
		if i%2 == 1 {
			for s := 0; s <= 8; s++ {
				if got, want := db.Slice(s), ref[s]; string(got) != string(want) {
					t.Fatalf("slice %d differs after a trusted open", s)
				}
			}
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
