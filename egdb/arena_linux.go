package egdb

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// arena holds the entries of the part of a slice under construction
// (parts.go), indexed by rank like the whole slice: an anonymous mapping
// of the slice's size reserved without access (PROT_NONE: no memory, and
// nothing charged against the commit limit), whose page ranges covering a
// part are made readable and writable for the part and given back to the
// kernel after it (MADV_DONTNEED). The process's memory is thus the part
// under way, and a rank outside it faults instead of reading stale data.
// The part's pages are advised for huge pages (MADV_HUGEPAGE), as a random
// access per move lands anywhere in the part.
type arena struct {
	mem   []byte
	words []uint32
	page  int64
}

// newArena reserves an arena for n entries.
func newArena(n int64) (*arena, error) {
	page := int64(os.Getpagesize())
	size := (n + page - 1) / page * page
	if size == 0 {
		size = page
	}
	mem, err := unix.Mmap(-1, 0, int(size), unix.PROT_NONE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE)
	if err != nil {
		return nil, err
	}
	return &arena{mem: mem, words: unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(mem))), size/4), page: page}, nil
}

// window is the pages of the arena that hold the ranks sp.
func (a *arena) window(sp span) []byte {
	return a.mem[sp.lo/a.page*a.page : min((sp.hi+a.page-1)/a.page*a.page, int64(len(a.mem)))]
}

// open makes the pages of spans usable; their content is undefined until
// filled.
func (a *arena) open(spans []span) error {
	for _, sp := range spans {
		w := a.window(sp)
		if err := unix.Mprotect(w, unix.PROT_READ|unix.PROT_WRITE); err != nil {
			return err
		}
		if len(w) >= 2<<20 {
			_ = unix.Madvise(w, unix.MADV_HUGEPAGE) // failure only costs speed
		}
	}
	return nil
}

// release gives the pages of spans back to the kernel and closes them
// to access.
func (a *arena) release(spans []span) error {
	for _, sp := range spans {
		w := a.window(sp)
		if err := unix.Madvise(w, unix.MADV_DONTNEED); err != nil {
			return err
		}
		if err := unix.Mprotect(w, unix.PROT_NONE); err != nil {
			return err
		}
	}
	return nil
}

// bytes is the arena's entries, one byte a rank.
func (a *arena) bytes() []byte { return a.mem }

// close unmaps the arena.
func (a *arena) close() error { return unix.Munmap(a.mem) }
