//go:build !linux

package egdb

// adviseHuge and dropCache tune the page cache for 2 MiB pages on Linux
// (huge_linux.go); elsewhere they do nothing.
func adviseHuge([]byte) {}
func dropCache(string)  {}

// populate does nothing here.
func populate([]byte) {}
