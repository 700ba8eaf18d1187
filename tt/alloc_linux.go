package tt

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// allocSlots maps the table's memory directly and asks the kernel for
// transparent huge pages: the table is probed at random, and 2 MiB pages
// spare most of the TLB misses that 4 KiB pages would cost. It falls back to
// the Go heap when the mapping fails.
// The mapping is returned so that Free can unmap it; nil means heap memory.
func allocSlots(n int) ([]uint64, []byte) {
	size := n * 8
	if size < 4<<20 {
		return make([]uint64, n), nil
	}
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]uint64, n), nil
	}
	_ = unix.Madvise(mem, unix.MADV_HUGEPAGE)
	return unsafe.Slice((*uint64)(unsafe.Pointer(&mem[0])), n), mem
}

func freeSlots(mapping []byte) {
	if mapping != nil {
		_ = syscall.Munmap(mapping)
	}
}
