package egdb

import (
	"os"
	"runtime"
	"testing"
	"time"
)

// TestLoading: opening files taken as checked queues their mappings for
// reading in the background, and Loading counts them until every byte is
// read.
func TestLoading(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the mappings are read in the background on Linux only")
	}
	dir := t.TempDir()
	buildToEnc(t, dir, rules4, 8, EncodingPacked)
	old := time.Now().Add(-time.Hour)
	var bytes int64
	for s := 0; s <= 8; s++ {
		path := SlicePath(dir, rules4, s)
		os.Chtimes(path, old, old)
		if st, err := os.Stat(path); err == nil && st.Size() > HeaderSize {
			bytes += st.Size()
		}
	}
	db, err := Open(dir, rules4) // checks every file and remembers them
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, before := Loading()
	db, err = Open(dir, rules4)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, total := Loading(); total-before < bytes {
		t.Fatalf("Open queued %d bytes for reading, want at least the files' %d", total-before, bytes)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		done, total := Loading()
		if done > total {
			t.Fatalf("Loading: done %d > total %d", done, total)
		}
		if done == total {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Loading: %d of %d bytes after 30 s", done, total)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
