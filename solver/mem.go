package solver

import "github.com/kalah-solver/kalah/internal/meminfo"

// totalMemory is the machine's memory (MemTotal); 4 GiB when unknown.
func totalMemory() int64 {
	if n, ok := meminfo.Total(); ok {
		return n
	}
	return 4 << 30
}
