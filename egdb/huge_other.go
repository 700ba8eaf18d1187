//go:build !linux

package egdb

import "os"

// adviseHuge and dropCache tune the page cache for 2 MiB pages on Linux
// (huge_linux.go); elsewhere they do nothing.
func adviseHuge([]byte) {}
func dropCache(string)  {}

// dropRange does nothing here.
func dropRange(*os.File, int64, int64) {}

// populateAsync does nothing here.
func populateAsync([]byte) (stop func()) { return func() {} }
