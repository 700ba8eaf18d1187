package benchcmd

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// parseBytes reads a size such as 64MiB, 1.5GiB or 1048576 (bytes).
func parseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
		i++
	}
	v, err := strconv.ParseFloat(t[:i], 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a size: want a number with an optional unit, e.g. 64MiB or 1GiB", s)
	}
	shift, ok := map[string]uint{"": 0, "b": 0, "k": 10, "kb": 10, "kib": 10, "m": 20, "mb": 20, "mib": 20,
		"g": 30, "gb": 30, "gib": 30, "t": 40, "tb": 40, "tib": 40}[strings.ToLower(strings.TrimSpace(t[i:]))]
	if !ok {
		return 0, fmt.Errorf("%q: unknown unit %q; use B, KiB, MiB, GiB or TiB", s, t[i:])
	}
	b := v * float64(uint64(1)<<shift)
	if b < 1<<20 || b > 1<<44 {
		return 0, fmt.Errorf("%q is out of range: want 1MiB..16TiB", s)
	}
	return int64(b), nil
}

// formatBytes writes a size in the largest binary unit that keeps it short.
func formatBytes(b int64) string {
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

// shortDuration writes d without zero units: "10m", "1m30s", "90ms".
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
