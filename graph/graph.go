// Package graph walks the complete game graph of a small Kalah(m,n): every
// position reachable from the start, counted as the paper counts them (Irving, Donkers &
// Uiterwijk 2000, Tables 3 to 5): a position is the pits of both sides,
// both stores and the side to move, so that positions differing only in
// the stores or the side to move are different nodes. Finished games (a
// side's pits empty, the board swept) are nodes too, once per final
// position; the statistics say which figures include them.
//
// The graph has no cycles: every sowing either puts a seed in a store
// (the stores only grow) or keeps all its seeds on the mover's own side,
// moving them toward the store. So every value can be computed bottom-up,
// here by a depth-first walk that memoizes each position's value in the
// same hash table that counts the positions. The value of a position is
// the final store difference for its side to move under perfect play,
// computed from the rules alone (no solver, no endgame database): an
// independent check of both.
//
// Walk returns the figures as a Stats; package results keeps them, with
// their provenance, in its archive and report.
package graph

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"time"

	"github.com/kalah-solver/kalah/engine"
)

// Stats are the figures of one game graph.
type Stats struct {
	Rule  string `json:"rule"`
	Pits  int    `json:"pits"`
	Seeds int    `json:"seeds"`

	Positions int64 `json:"positions"` // every reachable position, finished games included (Table 3)
	Terminal  int64 `json:"terminal"`  // of which finished games
	// Moves is the number of edges: legal moves summed over the
	// unfinished positions; BranchMean and BranchSD are the mean and the
	// (population) standard deviation of the number of legal moves over the
	// unfinished positions (Table 4).
	Moves      int64   `json:"moves"`
	BranchMean float64 `json:"branch_mean"`
	BranchSD   float64 `json:"branch_sd"`
	// Won, Lost and Drawn count the unfinished positions by their value
	// for the side to move (Table 5); WonAll, LostAll and DrawnAll count
	// all positions, finished games included (a finished game counted for
	// the player who made the last move, as its position records).
	Won      int64 `json:"won"`
	Lost     int64 `json:"lost"`
	Drawn    int64 `json:"drawn"`
	WonAll   int64 `json:"won_all"`
	LostAll  int64 `json:"lost_all"`
	DrawnAll int64 `json:"drawn_all"`
	// StartValue is the value of the start position for South: a check
	// against the solver's.
	StartValue int     `json:"start_value"`
	Seconds    float64 `json:"seconds"` // the walk's wall time
}

// Name is "Kalah(m,n) rule".
func (g *Stats) Name() string { return fmt.Sprintf("Kalah(%d,%d) %s", g.Pits, g.Seeds, g.Rule) }

// ErrTooBig is returned (wrapped) when a graph has more positions than
// allowed.
var ErrTooBig = errors.New("game graph too big")

// Options bound and report a walk.
type Options struct {
	// MaxPositions stops the walk with ErrTooBig when the graph holds
	// more positions (0: no bound). The table needs about 40 bytes per
	// position at most.
	MaxPositions int64
	// Progress, if not nil, is called every ProgressEvery new positions
	// with the positions found so far.
	Progress      func(positions int64)
	ProgressEvery int64
}

// MaxPits is the largest pit count Walk handles (the key packs the second
// side's pits, the mover's store and the side to move in one word).
const MaxPits = 6

// Walk builds the game graph of the start of Kalah(m, seeds) under rules
// (m = rules.Pits) and returns its figures. It stops with ctx.
func Walk(ctx context.Context, rules engine.Variant, seeds int, opts Options) (*Stats, error) {
	if rules.Pits > MaxPits {
		return nil, fmt.Errorf("game graphs are limited to %d pits, got %d", MaxPits, rules.Pits)
	}
	start, err := rules.StartPosition(seeds)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	w := &walk{rules: rules, opts: opts, ctx: ctx, tab: newPosTable(1 << 12)}
	if w.opts.ProgressEvery <= 0 {
		w.opts.ProgressEvery = 1 << 20
	}
	v := w.value(start)
	if w.err != nil {
		return nil, w.err
	}
	g := &Stats{Rule: rules.Rule.String(), Pits: rules.Pits, Seeds: seeds, StartValue: int(v)}
	var sum, sumSq float64
	w.tab.each(func(k posKey, val int8) {
		g.Positions++
		over := k.over()
		switch {
		case val > 0:
			g.WonAll++
		case val < 0:
			g.LostAll++
		default:
			g.DrawnAll++
		}
		if over {
			g.Terminal++
			return
		}
		n := float64(k.board().NumMoves())
		sum += n
		sumSq += n * n
		switch {
		case val > 0:
			g.Won++
		case val < 0:
			g.Lost++
		default:
			g.Drawn++
		}
	})
	inner := float64(g.Positions - g.Terminal)
	g.Moves = int64(sum)
	if inner > 0 {
		g.BranchMean = sum / inner
		g.BranchSD = math.Sqrt(max(0, sumSq/inner-g.BranchMean*g.BranchMean))
	}
	g.Seconds = math.Round(time.Since(t0).Seconds()*1000) / 1000
	return g, nil
}

// walk is the state of one Walk.
type walk struct {
	rules engine.Variant
	opts  Options
	ctx   context.Context
	tab   *posTable
	err   error
	next  int64 // positions count at the next progress report
}

// value returns the final store difference for p's side to move under
// perfect play, memoized in the table.
func (w *walk) value(p engine.Position) int8 {
	k := keyOf(p)
	if v, ok := w.tab.get(k); ok {
		return v
	}
	if w.err != nil {
		return 0
	}
	b := p.Board
	var best int8
	if b.Over() {
		best = int8(b.StoreDiff())
	} else {
		best = math.MinInt8
		for mv := b.Moves(); mv != 0; mv &= mv - 1 {
			c, res := w.rules.PlayPosition(p, bits.TrailingZeros8(mv))
			v := w.value(c)
			if !res.Extra() && !res.Over() {
				v = -v
			}
			best = max(best, v)
		}
	}
	if w.err != nil {
		return 0
	}
	w.tab.put(k, best)
	n := int64(w.tab.n)
	if w.opts.MaxPositions > 0 && n > w.opts.MaxPositions {
		w.err = fmt.Errorf("%w: Kalah(%d,%d) %s has more than %d positions (the --max-positions bound); raise it (the table takes 32 to 64 bytes a position) or pick a smaller game",
			ErrTooBig, w.rules.Pits, p.Board.Total()/(2*w.rules.Pits), w.rules.Rule, w.opts.MaxPositions)
	}
	if n >= w.next {
		w.next = n + w.opts.ProgressEvery
		if w.opts.Progress != nil {
			w.opts.Progress(n)
		}
		if err := w.ctx.Err(); err != nil && w.err == nil {
			w.err = err
		}
	}
	return best
}
