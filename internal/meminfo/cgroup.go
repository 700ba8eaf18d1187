package meminfo

import (
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// The files read for a memory limit of the process's control group
// (a container's `--memory`, a systemd unit's MemoryMax); tests point
// them elsewhere.
var (
	procCgroup = "/proc/self/cgroup"
	cgroupRoot = "/sys/fs/cgroup"
)

// unlimited is the smallest limit taken as none: cgroup v1 reports "no
// limit" as a page-rounded 2^63-1.
const unlimited = 1 << 62

// cgroupAvailable is what the process's control group leaves for a new
// allocation: for the group and each group above it that has a memory
// limit, the limit less the memory charged to it, with its page cache
// counted as free (as MemAvailable counts it); the least of them. ok is
// false when no group sets a limit or none can be read. Both cgroup v2
// (memory.max, memory.current, memory.stat "file") and the v1 memory
// controller (memory.limit_in_bytes, memory.usage_in_bytes, memory.stat
// "total_cache") are read.
func cgroupAvailable() (bytes int64, ok bool) {
	_, bytes, ok = cgroupMemory()
	return bytes, ok
}

// cgroupLimit is the least memory limit of the process's control group
// and the groups above it; ok is false when none sets one.
func cgroupLimit() (bytes int64, ok bool) {
	bytes, _, ok = cgroupMemory()
	return bytes, ok
}

// cgroupMemory returns the least limit and the least free memory (see
// cgroupAvailable) over the groups that set a limit.
func cgroupMemory() (limit, free int64, ok bool) {
	scanLines(procCgroup, func(line string) bool {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			return false
		}
		var g group
		switch {
		case parts[0] == "0" && parts[1] == "":
			g = walk(cgroupRoot, parts[2], "memory.max", "memory.current", "file")
		case hasController(parts[1], "memory"):
			g = walk(filepath.Join(cgroupRoot, "memory"), parts[2], "memory.limit_in_bytes", "memory.usage_in_bytes", "total_cache")
		}
		if g.ok {
			if !ok {
				limit, free, ok = g.limit, g.free, true
			}
			limit, free = min(limit, g.limit), min(free, g.free)
		}
		return false
	})
	return limit, free, ok
}

// group is what walk found: the least limit and free memory, ok when
// some group set a limit that could be read with its charge.
type group struct {
	limit, free int64
	ok          bool
}

func hasController(list, name string) bool {
	for _, c := range strings.Split(list, ",") {
		if c == name {
			return true
		}
	}
	return false
}

// walk checks the group at rel under mount and every group above it (in
// a container the group's own directory may be the mount itself: then
// only the mount is read).
func walk(mount, rel, limitFile, usageFile, cacheKey string) (g group) {
	rel = path.Clean("/" + rel)
	if _, err := os.Stat(filepath.Join(mount, rel)); err != nil {
		rel = "/"
	}
	for {
		dir := filepath.Join(mount, rel)
		if limit, lok := readInt(filepath.Join(dir, limitFile)); lok && limit < unlimited {
			if usage, uok := readInt(filepath.Join(dir, usageFile)); uok {
				free := max(limit-usage+statField(filepath.Join(dir, "memory.stat"), cacheKey), 0)
				if !g.ok {
					g = group{limit, free, true}
				}
				g.limit, g.free = min(g.limit, limit), min(g.free, free)
			}
		}
		if rel == "/" {
			return g
		}
		rel = path.Dir(rel)
	}
}

// readInt reads a file holding one integer ("max" reads as no number).
func readInt(p string) (int64, bool) {
	b, err := os.ReadFile(p)
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	return n, err == nil && n >= 0
}

// statField is the value of key in a memory.stat file, 0 when absent.
func statField(p, key string) (n int64) {
	scanLines(p, func(line string) bool {
		k, v, found := strings.Cut(line, " ")
		if !found || k != key {
			return false
		}
		if x, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil && x > 0 {
			n = x
		}
		return true
	})
	return n
}
