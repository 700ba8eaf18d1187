// Package egdbtest holds the endgame-database helpers that tests of
// several packages share.
package egdbtest

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/kalah-solver/kalah/egdb"
	"github.com/kalah-solver/kalah/engine"
)

// Build builds the slices 0..maxSeeds of r in dir, keeping those already
// there, each written under a temporary name and renamed when complete,
// as 'kalah egdb build' does; it closes the database.
func Build(t testing.TB, dir string, r engine.Variant, maxSeeds int) {
	t.Helper()
	db, err := egdb.BuildDir(context.Background(), dir, r, maxSeeds, egdb.Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// Mappings counts the process's memory mappings of the file path, -1
// where /proc/self/maps cannot be read.
func Mappings(path string) int {
	b, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return -1
	}
	n := 0
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasSuffix(l, " "+path) {
			n++
		}
	}
	return n
}
