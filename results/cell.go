package results

import "time"

// Cell is the outcome of solving one start position: a complete Record, or,
// when the solve was stopped, the bounds proven on the value so far.
type Cell struct {
	Rule   string
	Pits   int
	Seeds  int
	Record *Record // nil unless Solved
	Solved bool
	Lower  int // proven bounds on the value (South's final store minus North's)
	Upper  int
	// Stage says what was being computed when the solve stopped: "value",
	// "openings" (the value is exact, some opening chains are not) or
	// "pv".
	Stage   string
	Nodes   int64
	Elapsed time.Duration
}

// Bounds writes an unfinished cell's bounds: ">= +4", "<= -2", "+4..+8",
// or the exact value when only the openings or the line are missing.
func (c *Cell) Bounds() string {
	total := 2 * c.Pits * c.Seeds
	switch {
	case c.Solved || c.Lower == c.Upper:
		return "= " + Signed(c.Lower)
	case c.Lower <= -total && c.Upper >= total:
		return "?"
	case c.Upper >= total:
		return ">= " + Signed(c.Lower)
	case c.Lower <= -total:
		return "<= " + Signed(c.Upper)
	}
	return Signed(c.Lower) + ".." + Signed(c.Upper)
}
