// Package meminfo reads the machine's memory figures from /proc/meminfo
// (Linux): how much there is, and how much a new allocation can have
// without swapping (MemAvailable: free memory plus the page cache and
// other memory the kernel can reclaim), within the limit of the
// process's control group when it has one.
package meminfo

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// meminfoPath is the file read; tests point it elsewhere.
var meminfoPath = "/proc/meminfo"

// Total is MemTotal in bytes; ok is false when it cannot be read (not
// Linux, or an unexpected file).
func Total() (bytes int64, ok bool) { return field("MemTotal:") }

// Available is MemAvailable in bytes, or less when the process's control
// group has a memory limit that leaves less (cgroupAvailable); ok is
// false when MemAvailable cannot be read.
func Available() (bytes int64, ok bool) {
	bytes, ok = field("MemAvailable:")
	if !ok {
		return 0, false
	}
	if c, cok := cgroupAvailable(); cok && c < bytes {
		bytes = c
	}
	return bytes, true
}

// field returns the value of the line starting with name, in bytes.
func field(name string) (int64, bool) {
	f, err := os.Open(meminfoPath)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), name)
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
		if err != nil || kb < 0 {
			return 0, false
		}
		return kb << 10, true
	}
	return 0, false
}
