//go:build unix

package persist

import (
	"io/fs"
	"syscall"
)

// diskBytes is the space a file takes on disk: BadgerDB preallocates its
// log files sparsely, so their length overstates it.
func diskBytes(fi fs.FileInfo) int64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int64(st.Blocks) * 512
	}
	return fi.Size()
}

// freeBytes is the space an unprivileged process may still write on the
// file system of dir; ok is false when it cannot be told.
func freeBytes(dir string) (free int64, ok bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, false
	}
	return int64(st.Bavail) * int64(st.Bsize), true
}
