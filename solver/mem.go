package solver

import "github.com/kalah-solver/kalah/internal/meminfo"

// totalMemory is the machine's memory (MemTotal, or the control group's
// limit when less: meminfo.Total); 4 GiB when unknown.
func totalMemory() int64 {
	if n, ok := meminfo.Total(); ok {
		return n
	}
	return 4 << 30
}
