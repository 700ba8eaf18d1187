package cmdutil

import "fmt"

// Revision is a build's VCS revision as a record gives it, or says that
// the build has none (go run without VCS stamping, a source archive).
func Revision(r string) string {
	if r == "" {
		return "(no VCS revision)"
	}
	return r
}

// FormatSeconds is a wall-clock time to the millisecond, "12.345 s", or
// "under 1 ms" when the clock saw less.
func FormatSeconds(s float64) string {
	if s < 0.001 {
		return "under 1 ms"
	}
	return fmt.Sprintf("%.3f s", s)
}

// FormatRate is a node rate, "8.3 M nodes/s", or "rate not measured" when
// the time is too short for the rate to mean anything (under a
// millisecond).
func FormatRate(nodes int64, s float64) string {
	if s < 0.001 {
		return "rate not measured"
	}
	return fmt.Sprintf("%.1f M nodes/s", float64(nodes)/s/1e6)
}
