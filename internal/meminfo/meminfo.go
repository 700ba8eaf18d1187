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

// Total is MemTotal in bytes, or the memory limit of the process's
// control group (or of a group above it) when that is less; ok is false
// when MemTotal cannot be read (not Linux, or an unexpected file).
func Total() (bytes int64, ok bool) { return within("MemTotal:", cgroupLimit) }

// Available is MemAvailable in bytes, or less when the process's control
// group has a memory limit that leaves less (cgroupAvailable); ok is
// false when MemAvailable cannot be read.
func Available() (bytes int64, ok bool) { return within("MemAvailable:", cgroupAvailable) }

// within is the /proc/meminfo field name, or what the control groups say
// (cg) when that is less.
func within(name string, cg func() (int64, bool)) (bytes int64, ok bool) {
	bytes, ok = field(name)
	if !ok {
		return 0, false
	}
	if c, cok := cg(); cok && c < bytes {
		bytes = c
	}
	return bytes, true
}

// field returns the value of the line starting with name, in bytes.
func field(name string) (bytes int64, ok bool) {
	scanLines(meminfoPath, func(line string) bool {
		rest, found := strings.CutPrefix(line, name)
		if !found {
			return false
		}
		kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
		bytes, ok = kb<<10, err == nil && kb >= 0
		return true
	})
	return bytes, ok
}

// scanLines calls each with the lines of the file at p until it returns
// true; a file that cannot be opened has no lines.
func scanLines(p string, each func(line string) (stop bool)) {
	f, err := os.Open(p)
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if each(sc.Text()) {
			return
		}
	}
}
