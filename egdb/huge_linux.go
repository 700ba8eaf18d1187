package egdb

import (
	"os"

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

// populate maps every page of a slice file's mapping at once
// (MADV_POPULATE_READ, Linux 5.14): reading the pages the page cache
// holds and the rest from disk, in file order. Without it every first
// touch of a page by the search is a fault (and, for a file not cached
// yet, a random read from disk); the payload check used to do this as a
// side effect, and a file that Open has checked before is not read by it
// (checked.go). Failure (an older kernel) only costs speed.
func populate(data []byte) {
	_ = unix.Madvise(data, unix.MADV_POPULATE_READ)
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
