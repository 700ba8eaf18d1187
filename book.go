package kalah

import (
	"context"
	"time"

	"github.com/kalah-solver/kalah/engine"
)

// An opening book is the cache filled with the root records of
// every position within a few plies of the start, so that the explorer,
// 'kalah play' and 'kalah solve' answer them at once. It needs no file of
// its own: the cache is the book.

// BookPositions lists the distinct unfinished positions reachable from the
// start of the session's game in at most plies sowings (an extra turn is a
// ply of its own), deepest first: solving them in that order, the
// shallower positions find their children's proofs in the table and the
// cache.
func (k *Session) BookPositions(plies int) []engine.Position {
	seen := map[engine.Position]bool{}
	level := []engine.Position{k.Start()}
	var byDepth [][]engine.Position
	for d := 0; d <= plies && len(level) > 0; d++ {
		var keep, next []engine.Position
		for _, p := range level {
			if seen[p] || p.Board.Over() {
				continue
			}
			seen[p] = true
			keep = append(keep, p)
			for _, i := range p.Board.MoveList() {
				c, _ := k.rules.PlayPosition(p, i)
				next = append(next, c)
			}
		}
		byDepth = append(byDepth, keep)
		level = next
	}
	var out []engine.Position
	for d := len(byDepth) - 1; d >= 0; d-- {
		out = append(out, byDepth[d]...)
	}
	return out
}

// BookProgress is the state of a book build after one more position.
type BookProgress struct {
	Done, Total int
	FromCache   int // answered by a root record already in the cache
	Position    engine.Position
	Elapsed     time.Duration
}

// BuildBook solves every position of BookPositions(plies), each with Solve
// (whose root record then goes into the cache), and reports after each.
// Positions the cache already answers cost nothing, so an interrupted
// build resumes where it stopped. It needs a cache (an error otherwise).
func (k *Session) BuildBook(ctx context.Context, plies int, progress func(BookProgress)) (BookProgress, error) {
	var st BookProgress
	if k.cache == nil {
		return st, errNoCache
	}
	ps := k.BookPositions(plies)
	st.Total = len(ps)
	t0 := time.Now()
	for _, p := range ps {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		res, err := k.Solve(ctx, p)
		if err != nil {
			return st, err
		}
		st.Done++
		if res.FromCache {
			st.FromCache++
		}
		st.Position, st.Elapsed = p, time.Since(t0)
		if progress != nil {
			progress(st)
		}
	}
	return st, nil
}
