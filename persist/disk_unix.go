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
