package egdb

import (
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// adviseHuge asks the kernel to back a slice file's mapping with 2 MiB
// pages (transparent huge pages for the page cache). A probe lands on a
// random line of a file of up to gigabytes, so with 4 KiB pages nearly
// every probe walks the page tables; with 2 MiB pages the walk is short
// and its tables stay in the cache. The advice takes effect for the parts
// of the file that are read into the page cache after it: pages already
// cached in small folios stay as they are (dropCache below is how a
// freshly written slice avoids that). Measured in docs/algorithms.md
// ("The database in huge pages"). Failure only costs speed.
func adviseHuge(data []byte) {
	if len(data) >= 2<<20 {
		_ = unix.Madvise(data, unix.MADV_HUGEPAGE)
	}
}

// populateChunk is how much of a mapping populateAsync maps a call: 64
// MiB, a multiple of the 2 MiB pages and a short read from disk, so that
// stopping it never waits long.
const populateChunk = 64 << 20

// populating lets one mapping at a time be populated, so that the files
// not cached yet are read from disk in order rather than all at once.
var populating = make(chan struct{}, 1)

// populateAsync maps every page of a slice file's mapping in the
// background (MADV_POPULATE_READ, Linux 5.14), a chunk at a time: the
// pages the page cache holds at once, the rest read from disk in file
// order. Without it every first touch of a page by the search is a fault
// (and, for a file not cached yet, a random read from disk); the payload
// check used to do this as a side effect, and a file that Open has checked
// before is not read by it (checked.go). In the background, so that an
// Open of files that left the page cache (20.7 GB at 34 seeds) returns at
// once and a search that needs few of their pages does not wait for all
// of them. The returned function stops it and waits for the chunk under
// way; it must run before the mapping is unmapped. Failure (an older
// kernel) only costs speed.
func populateAsync(data []byte) (stop func()) {
	quit, done := make(chan struct{}), make(chan struct{})
	loadQueued.Add(int64(len(data)))
	go func() {
		off := 0
		defer func() {
			loadDone.Add(int64(len(data) - off)) // what is left will not be read here
			close(done)
		}()
		select {
		case populating <- struct{}{}:
		case <-quit:
			return
		}
		defer func() { <-populating }()
		for off < len(data) {
			select {
			case <-quit:
				return
			default:
			}
			end := min(off+populateChunk, len(data))
			if unix.Madvise(data[off:end], unix.MADV_POPULATE_READ) != nil {
				return
			}
			loadDone.Add(int64(end - off))
			off = end
		}
	}()
	return sync.OnceFunc(func() {
		close(quit)
		<-done
	})
}

// dropCache asks the kernel to forget the page-cache pages of the file at
// path, which writeSlice has just written and synced: pages cached by the
// write are small, so the first mapping would be one of 4 KiB pages; once
// dropped, the first mapping reads the file back from disk into 2 MiB
// pages (adviseHuge), which then stay cached for every later process.
// Best effort: it changes no data and its failure only costs speed.
func dropCache(path string) {
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() >= 2<<20 {
		_ = unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED)
	}
}

// dropRange asks the kernel to forget the page-cache pages of bytes
// [off, off+n) of f, written and synced: the byte file of a slice built
// in parts is not read again until the slice is packed, and its pages
// would crowd out the lower slices' that the next parts read. Best effort.
func dropRange(f *os.File, off, n int64) {
	_ = unix.Fadvise(int(f.Fd()), off, n, unix.FADV_DONTNEED)
}
