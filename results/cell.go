package results

import (
	"math"
	"time"
)

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
	// The run's resources, for the record of an open cell (Open).
	Threads   int
	TableSize int64
	EGDBSeeds int
	// Moves are the bounds proven on each first move, in pit order, when
	// the solve stopped while proving every move's value.
	Moves []MoveBounds
	// Chains are the bounds proven on opening chains of more than one
	// sowing (an extra-turn move and the turn's later sowings), exact but
	// for the one being solved, when the solve stopped at stage "openings".
	Chains []ChainBounds
	// Resumed says the run's table started from the checkpoint an
	// interrupted run of the cell left in the cache.
	Resumed bool
}

// Open is the record of an unfinished cell: its proven bounds and the run
// that proved them, which stopped for reason; cache says the run kept its
// proofs in a cache, so a rerun resumes.
func (c *Cell) Open(reason string, cache bool) Open {
	return Open{Rule: c.Rule, Pits: c.Pits, Seeds: c.Seeds, Lower: c.Lower, Upper: c.Upper, Stage: c.Stage,
		Reason: reason, Runs: 1, Nodes: c.Nodes, Seconds: math.Round(c.Elapsed.Seconds()*1000) / 1000,
		Threads: c.Threads, TableSize: c.TableSize, EGDBSeeds: c.EGDBSeeds, Cache: cache, Moves: c.Moves, Chains: c.Chains,
		Date: time.Now().UTC().Format("2006-01-02"), Provenance: Current()}
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
