package persist

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
)

// checkTables looks at the footer of every BadgerDB table file in dir
// before BadgerDB opens them. BadgerDB checks a table's index against its
// checksum, but it first reads the footer's lengths without bounds checks,
// in goroutines of its own, so a garbled footer would crash the process
// instead of failing the open. The footer is, from the end of the file: the
// checksum's length (4 bytes, big-endian), the checksum, the index's length
// (4 bytes), the index.
func checkTables(dir string) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.sst"))
	if err != nil {
		return err
	}
	for _, name := range files {
		if err := checkTable(name); err != nil {
			return fmt.Errorf("cache %s is %w: damaged table %s: %v (move the directory away or delete it; it is only a cache)", dir, ErrNotCache, filepath.Base(name), err)
		}
	}
	return nil
}

func checkTable(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	size := fi.Size()
	var b [4]byte
	readAt := func(off int64) (int64, error) {
		if off < 0 || off+4 > size {
			return 0, fmt.Errorf("footer points outside the file (%d bytes)", size)
		}
		if _, err := f.ReadAt(b[:], off); err != nil {
			return 0, err
		}
		return int64(binary.BigEndian.Uint32(b[:])), nil
	}
	sumLen, err := readAt(size - 4)
	if err != nil {
		return err
	}
	idxLen, err := readAt(size - 8 - sumLen)
	if err != nil {
		return err
	}
	if idxLen == 0 || idxLen > size-8-sumLen {
		return fmt.Errorf("index of %d bytes in a file of %d", idxLen, size)
	}
	return nil
}
