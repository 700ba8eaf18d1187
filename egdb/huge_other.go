//go:build unix && !linux

package egdb

// adviseHuge is Linux's huge-page advice (huge_linux.go); elsewhere the
// mapping keeps the system's pages.
func adviseHuge([]byte) {}
