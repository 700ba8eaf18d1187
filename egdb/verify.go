package egdb

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/kalah-solver/kalah/engine"
	"golang.org/x/sync/errgroup"
)

// Verification is one-ply consistency: every entry must equal the best
// move's worth recomputed from the stored entries of its children (see
// MoveGain). Since the moves inside a slice form no cycle, a slice whose
// entries are all consistent with correct lower slices is the unique
// solution of the recurrence, so a full check proves the database correct
// by induction on the seed count.

// VerifyOptions tune Verify.
type VerifyOptions struct {
	// Fraction of the positions to check, chosen at random; 0 or >= 1
	// checks every position.
	Fraction float64
	// Seed of the random choice.
	Seed uint64
	// Threads is the number of threads; 0 means GOMAXPROCS.
	Threads int
	// Progress, when set, is called concurrently with the number of
	// positions each finished chunk covered (checked or skipped).
	Progress func(positions int64)
	// Start, when set, is called by VerifyDir once, before the first
	// Progress, with the number of positions the Progress calls will add
	// up to. Verify does not call it.
	Start func(positions int64)
}

// Mismatch is an entry that disagrees with its children.
type Mismatch struct {
	Rank       int64        `json:"rank"`
	Board      engine.Board `json:"-"`
	Position   string       `json:"position"` // Board, South to move
	Stored     int          `json:"stored"`
	Recomputed int          `json:"recomputed"`
}

// VerifyResult reports the check of one slice.
type VerifyResult struct {
	Seeds      int        `json:"seeds"`
	Positions  int64      `json:"positions"`
	Checked    int64      `json:"checked"`
	Mismatches int64      `json:"mismatches"`
	Examples   []Mismatch `json:"examples,omitempty"` // the first few found
}

// maxExamples bounds VerifyResult.Examples.
const maxExamples = 10

// Recompute returns the best move's worth for the position (own, opp) of
// slice s from the stored children, or -1 when a child is outside the
// database.
func (db *DB) Recompute(own, opp uint64) int {
	b := engine.Board{Own: own, Opp: opp}
	best := -1
	for mv := b.Moves(); mv != 0; mv &= mv - 1 {
		g, ok := db.MoveGain(b, bits.TrailingZeros8(mv))
		if !ok {
			return -1
		}
		best = max(best, g)
	}
	return best
}

// Verify checks slice s (all of it, or a random fraction).
func (db *DB) Verify(ctx context.Context, s int, opts VerifyOptions) (VerifyResult, error) {
	if s < 0 || s > db.MaxSeeds() {
		return VerifyResult{}, fmt.Errorf("slice %d is not in the database (0..%d)", s, db.MaxSeeds())
	}
	x, data := db.x, &db.slices[s]
	n := x.Size(s)
	res := VerifyResult{Seeds: s, Positions: n}
	threads := opts.Threads
	if threads < 1 {
		threads = runtime.GOMAXPROCS(0)
	}
	full := opts.Fraction <= 0 || opts.Fraction >= 1
	var (
		next              atomic.Int64
		checked, mismatch atomic.Int64
		mu                sync.Mutex
	)
	g, ctx := errgroup.WithContext(ctx)
	for range threads {
		g.Go(func() error {
			for {
				lo := next.Add(chunk) - chunk
				if lo >= n {
					return nil
				}
				if err := ctx.Err(); err != nil {
					return err
				}
				hi := min(lo+chunk, n)
				check := func(r int64, own, opp uint64) {
					checked.Add(1)
					want := db.Recompute(own, opp)
					if got := data.at(r); got != want {
						mismatch.Add(1)
						mu.Lock()
						if len(res.Examples) < maxExamples {
							b := engine.Board{Own: own, Opp: opp}
							res.Examples = append(res.Examples, Mismatch{Rank: r, Board: b, Stored: got, Recomputed: want,
								Position: engine.Position{Pits: x.m, Board: b}.String()})
						}
						mu.Unlock()
					}
				}
				if full {
					c := x.Cursor(s, lo, hi-lo)
					for c.Next() {
						check(c.Rank, c.Own, c.Opp)
					}
				} else {
					rng := rand.New(rand.NewPCG(opts.Seed, uint64(lo)))
					for r := lo; r < hi; r++ {
						if rng.Float64() < opts.Fraction {
							own, opp := x.Unrank(s, r)
							check(r, own, opp)
						}
					}
				}
				if opts.Progress != nil {
					opts.Progress(hi - lo)
				}
			}
		})
	}
	err := g.Wait()
	res.Checked, res.Mismatches = checked.Load(), mismatch.Load()
	return res, err
}
