package egdb

import "sync/atomic"

// The bytes of slice mappings queued for populating in the background
// (populateAsync) and those done, over the process: a file is done when
// every page of it is mapped, or when its populating stopped (the handle
// closed, or a kernel without MADV_POPULATE_READ).
var loadQueued, loadDone atomic.Int64

// Loading reports how far the process is in reading the files of the
// databases it has opened into memory in the background: done of total
// bytes. done == total when nothing is being read. A search that touches a
// page not read yet waits for it, so while done < total (after a reboot,
// or when the page cache has dropped a large database) a search can run
// many times slower than usual; the solve's progress line says so.
func Loading() (done, total int64) {
	// done first: every byte is queued before it is done, so done is at
	// most the total read after it.
	done = loadDone.Load()
	return done, loadQueued.Load()
}
