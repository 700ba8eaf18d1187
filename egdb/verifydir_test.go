package egdb

import (
	"context"
	"os"
	"sync/atomic"
	"testing"
)

func TestVerifyDir(t *testing.T) {
	dir := t.TempDir()
	buildTo(t, dir, rules4, 9)
	var start, progress atomic.Int64
	c, err := VerifyDir(context.Background(), dir, rules4, VerifyOptions{
		Start: func(n int64) { start.Add(n) }, Progress: func(n int64) { progress.Add(n) }})
	if err != nil || !c.OK() || len(c.Files) != 10 || len(c.Slices) != 10 {
		t.Fatalf("%+v, %v", c, err)
	}
	if n := CumulativeSize(4, 9).Int64(); c.Checked != n || start.Load() != n || progress.Load() != n {
		t.Errorf("checked %d, Start %d, Progress %d, want %d", c.Checked, start.Load(), progress.Load(), n)
	}
	if Covered(dir, rules4) != 9 || Covered(dir, rules4e) != -1 {
		t.Errorf("Covered %d and %d, want 9 and -1", Covered(dir, rules4), Covered(dir, rules4e))
	}
	// A damaged slice 7 is a bad file; slices 0..6 are still checked.
	path := SlicePath(dir, rules4, 7)
	b, _ := os.ReadFile(path)
	b[len(b)-1] ^= 1
	os.Chmod(path, 0o644)
	os.WriteFile(path, b, 0o644)
	c, err = VerifyDir(context.Background(), dir, rules4, VerifyOptions{})
	if err != nil || c.OK() || c.BadFiles != 1 || c.Files[7].Error == "" || len(c.Slices) != 7 {
		t.Fatalf("damaged: %+v, %v", c, err)
	}
	// No files: nothing is OK.
	if c, err := VerifyDir(context.Background(), dir, rules4e, VerifyOptions{}); err != nil || c.OK() {
		t.Errorf("no database: %+v, %v", c, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := VerifyDir(ctx, dir, rules4, VerifyOptions{}); err == nil {
		t.Error("a cancelled check succeeded")
	}
}
