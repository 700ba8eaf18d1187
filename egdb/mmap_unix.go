//go:build unix

package egdb

import (
	"os"
	"syscall"
)

// mapFile maps the first size bytes of f read-only, in huge pages where
// the kernel offers them (adviseHuge).
func mapFile(f *os.File, size int64) ([]byte, func() error, error) {
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	adviseHuge(data)
	return data, func() error { return syscall.Munmap(data) }, nil
}
