//go:build !unix

package egdb

import (
	"io"
	"os"
)

// mapFile reads the first size bytes of f where memory mapping is not
// available.
func mapFile(f *os.File, size int64) ([]byte, func() error, error) {
	data := make([]byte, size)
	if _, err := f.ReadAt(data, 0); err != nil && err != io.EOF {
		return nil, nil, err
	}
	return data, func() error { return nil }, nil
}

// fileID: no inode numbers here, so no file is taken as checked.
func fileID(os.FileInfo) (dev, ino uint64, ok bool) { return 0, 0, false }
