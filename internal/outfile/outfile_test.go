package outfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// entries lists the names in dir.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestWriteCommits(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	err := Write(path, func(w io.Writer) error {
		_, err := io.WriteString(w, "a,b\n1,2\n")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "a,b\n1,2\n" {
		t.Errorf("content %q", b)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != Mode {
		t.Errorf("mode %v, want %v", st.Mode().Perm(), Mode)
	}
	if names := entries(t, dir); len(names) != 1 {
		t.Errorf("directory holds %v", names)
	}
}

// A writer that fails half-way leaves no file, and never clobbers the old
// one.
func TestFailingWriterLeavesNoFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	boom := errors.New("boom")
	half := func(w io.Writer) error {
		io.WriteString(w, "half a row")
		return boom
	}
	if err := Write(path, half); !errors.Is(err, boom) {
		t.Fatalf("err %v, want the writer's", err)
	}
	if names := entries(t, dir); len(names) != 0 {
		t.Fatalf("a failed write left %v", names)
	}
	os.WriteFile(path, []byte("good\n"), 0o600)
	if err := Write(path, half); !errors.Is(err, boom) {
		t.Fatalf("err %v, want the writer's", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "good\n" {
		t.Errorf("the old file now holds %q", b)
	}
	if names := entries(t, dir); len(names) != 1 {
		t.Errorf("directory holds %v", names)
	}
	// A successful write replaces it and keeps its permission.
	if err := Write(path, func(w io.Writer) error { _, err := io.WriteString(w, "new\n"); return err }); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the old file's 0600", st.Mode().Perm())
	}
}

func TestAbortAndCommitOnce(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x")
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("x"))
	f.Abort()
	f.Abort()
	if names := entries(t, dir); len(names) != 0 {
		t.Fatalf("Abort left %v", names)
	}
	if _, err := f.Write([]byte("y")); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("write after Abort: %v", err)
	}
	if err := f.Commit(); err == nil {
		t.Error("Commit after Abort succeeded")
	}
	f, _ = Create(path)
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	f.Abort() // after Commit: nothing
	if _, err := os.Stat(path); err != nil {
		t.Errorf("Abort after Commit removed the file: %v", err)
	}
}

// Errors name the target, not the temporary file.
func TestErrorsNameThePath(t *testing.T) {
	dir := t.TempDir()
	for _, path := range []string{filepath.Join(dir, "no", "such", "dir", "out.csv"), dir, ""} {
		_, err := Create(path)
		if err == nil {
			t.Errorf("Create(%q) succeeded", path)
			continue
		}
		if path != "" && !strings.Contains(err.Error(), path) {
			t.Errorf("Create(%q): %v does not name the path", path, err)
		}
	}
}

// A device is written in place: /dev/null stays a device, and a full disk
// (/dev/full) is an error naming it.
func TestDevice(t *testing.T) {
	if err := Write(os.DevNull, func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err }); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(os.DevNull); err != nil || st.Mode().IsRegular() {
		t.Fatalf("%s: %v, %v", os.DevNull, st.Mode(), err)
	}
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	err := Write("/dev/full", func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err })
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "/dev/full") {
		t.Errorf("writing /dev/full: %v", err)
	}
}

// WriteAt overwrites what was written, before the commit; not after.
func TestWriteAt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.bin")
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Abort()
	if _, err := io.WriteString(f, "....body"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("head"), 0); err != nil {
		t.Fatal(err)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "headbody" {
		t.Errorf("content %q, want headbody", b)
	}
	if _, err := f.WriteAt([]byte("x"), 0); !errors.Is(err, os.ErrClosed) {
		t.Errorf("WriteAt after Commit: %v", err)
	}
}
