//go:build !unix

package persist

import "io/fs"

// diskBytes is the file's length where block counts are not available.
func diskBytes(fi fs.FileInfo) int64 { return fi.Size() }

// freeBytes cannot tell the free space here: ok is false.
func freeBytes(string) (int64, bool) { return 0, false }
