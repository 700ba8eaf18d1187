package results

import (
	"fmt"

	"github.com/kalah-solver/kalah/egdb"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/solver"
)

// TTBytesFor is the default table size for solving the start of
// Kalah(m,n) and positions of its games: a table far larger than what a
// small game visits only costs time (the kernel zeroes every page a random
// probe touches), so it grows with the seeds in play, 2mn, up to
// solver.DefaultTTBytes.
func TTBytesFor(m, n int) int64 {
	var b int64
	switch t := 2 * m * n; {
	case t <= 16:
		b = 16 << 20
	case t <= 24:
		b = 64 << 20
	case t <= 32:
		b = 256 << 20
	case t <= 40:
		b = 1 << 30
	default:
		return solver.DefaultTTBytes()
	}
	return min(b, solver.DefaultTTBytes())
}

// OpenEGDB opens the endgame database of r in dir, or in the default
// directory when dir is "". It returns nil, and no error, when the default
// directory holds no database for r; an explicit dir without one, or a bad
// file, is an error.
func OpenEGDB(dir string, r engine.Rules) (*egdb.DB, error) {
	explicit := dir != ""
	if !explicit {
		d, err := egdb.DefaultDir()
		if err != nil {
			return nil, nil
		}
		dir = d
	}
	if ss, err := egdb.Slices(dir, r); err != nil || len(ss) == 0 || ss[0] != 0 {
		if explicit {
			return nil, fmt.Errorf("no endgame database for %v in %s (build one with 'kalah egdb build', or go without with --no-egdb)", r, dir)
		}
		return nil, nil
	}
	db, err := egdb.Open(dir, r)
	if err != nil {
		return nil, fmt.Errorf("endgame database: %w (go without it with --no-egdb)", err)
	}
	return db, nil
}
