package cmdutil

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseBytes reads a memory size such as --table-size takes: a number with an
// optional unit B, KiB, MiB, GiB or TiB. Every unit is a power of 1024 (K,
// M, G, T and KB, MB, GB, TB are read the same way, since a table's size is
// a power of two anyway), the case does not matter, and the size must be
// 1 MiB..16 TiB. The empty string is 0, meaning the command's default.
func ParseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, nil
	}
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
		i++
	}
	num, unit := t[:i], strings.ToLower(strings.TrimSpace(t[i:]))
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || num == "" {
		return 0, fmt.Errorf("%q is not a size: want a number with an optional unit, e.g. 512MiB or 2GiB", s)
	}
	shift := map[string]uint{"": 0, "b": 0, "k": 10, "kb": 10, "kib": 10, "m": 20, "mb": 20, "mib": 20,
		"g": 30, "gb": 30, "gib": 30, "t": 40, "tb": 40, "tib": 40}
	sh, ok := shift[unit]
	if !ok {
		return 0, fmt.Errorf("%q: unknown unit %q; use B, KiB, MiB, GiB or TiB", s, t[i:])
	}
	b := v * float64(uint64(1)<<sh)
	if b < 1<<20 || b > 1<<44 {
		return 0, fmt.Errorf("%q is out of range: want 1MiB..16TiB", s)
	}
	return int64(b), nil
}

// FormatBytes writes a size in the largest binary unit that keeps it whole
// or one decimal: "4 GiB", "512 MiB", "1.5 GiB".
func FormatBytes(b int64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	v, u := float64(b), 0
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	if v == float64(int64(v)) {
		return fmt.Sprintf("%d %s", int64(v), units[u])
	}
	return fmt.Sprintf("%.1f %s", v, units[u])
}
