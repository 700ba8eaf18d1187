package datadir

import (
	"path/filepath"
	"testing"
)

func TestDir(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", "/data")
	if d, err := Dir("egdb", "--egdb"); err != nil || d != filepath.Join("/data", "kalah", "egdb") {
		t.Errorf("XDG_DATA_HOME=/data: %q, %v", d, err)
	}
	t.Setenv("XDG_DATA_HOME", "relative") // not absolute: ignored
	t.Setenv("HOME", "/home/u")
	if d, err := Dir("cache", "--cache"); err != nil || d != filepath.Join("/home/u", ".local", "share", "kalah", "cache") {
		t.Errorf("relative XDG_DATA_HOME: %q, %v", d, err)
	}
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("HOME", "")
	if _, err := Dir("cache", "--cache"); err == nil {
		t.Error("no home directory: no error")
	}
}
