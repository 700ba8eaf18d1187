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

// fileID returns the device and inode of a file.
func fileID(fi os.FileInfo) (dev, ino uint64, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return uint64(st.Dev), uint64(st.Ino), true
}
