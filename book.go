package kalah

import (
	"context"
	"sync"
	"time"

	"github.com/kalah-solver/kalah/book"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/results"
	"github.com/kalah-solver/kalah/solver"
)

// An opening book is the root records of every position within a few
// plies of the start, so that the explorer, 'kalah play' and 'kalah solve'
// answer them at once. 'kalah book build' solves them into the cache;
// 'kalah book export' writes them from the cache to a book file, and the
// files committed under book/data are built into the binary (package
// book): the session answers from them what its cache does not hold.

// BookPositions lists the distinct unfinished positions reachable from the
// start of the session's game in at most plies sowings (an extra turn is a
// ply of its own), deepest first: solving them in that order, the
// shallower positions find their children's proofs in the table and the
// cache.
func (k *Session) BookPositions(plies int) []engine.Position {
	return book.Positions(k.rules, k.Start(), plies)
}

// BookRecords returns the cache's root records of every position within
// plies of the start, start first and ply by ply (book.Levels), as
// 'kalah book export' writes them; missing lists the positions the cache
// holds no sound record of. It needs a cache (an error otherwise).
func (k *Session) BookRecords(plies int) (recs []*results.Record, missing []engine.Position, err error) {
	if k.cache == nil {
		return nil, nil, errNoCache
	}
	for _, lv := range book.Levels(k.rules, k.Start(), plies) {
		for _, p := range lv {
			if rec := k.fromCache(p); rec != nil {
				recs = append(recs, rec)
			} else {
				missing = append(missing, p)
			}
		}
	}
	return recs, missing, nil
}

// answered returns the root record that answers p with no search: the
// cache's, else the built-in book's (fromBook), else nil.
func (k *Session) answered(p engine.Position) (rec *results.Record, fromBook bool) {
	if rec := k.fromCache(p); rec != nil {
		return rec, false
	}
	if rec := k.fromBook(k.rules, p); rec != nil {
		return rec, true
	}
	return nil, false
}

var bookErrOnce sync.Once

// fromBook returns the built-in book's record of p under rules r, or nil
// (none, or Config.NoBook).
func (k *Session) fromBook(r engine.Variant, p engine.Position) *results.Record {
	if k.cfg.NoBook {
		return nil
	}
	rec, err := bookRecord(r, p)
	if err != nil {
		bookErrOnce.Do(func() { k.logf("the built-in opening book: %v", err) })
	}
	return rec
}

// bookRecord returns the built-in book's record of p under rules r (a
// copy), nil when it holds none; the error says the book cannot be read.
func bookRecord(r engine.Variant, p engine.Position) (*results.Record, error) {
	b, err := book.Embedded()
	if err != nil {
		return nil, err
	}
	rec, _, err := b.Find(r, p)
	return rec, err
}

// BookAnswer returns the answer the opening book built into the binary
// holds for p, a position of a game with rules r (any game the book
// covers, not only the session's), as Solve would answer it: FromCache
// and FromBook set, no search. ok is false when the book holds none, or
// with Config.NoBook or Config.Recompute. Like Cached, it may be called
// from any goroutine while the session searches.
func (k *Session) BookAnswer(r engine.Variant, p engine.Position) (res *Result, ok bool) {
	if k.cfg.Recompute || k.cfg.NoBook {
		return nil, false
	}
	return BookAnswer(r, p)
}

// BookAnswer is the built-in opening book's answer for p under rules r,
// as Session.BookAnswer gives it, for a front end that has no session
// open yet (the explorer while it opens one). ok is false when the book
// holds none or cannot be read.
func BookAnswer(r engine.Variant, p engine.Position) (res *Result, ok bool) {
	if r.Validate() != nil || p.Pits != r.Pits {
		return nil, false
	}
	rec, _ := bookRecord(r, p)
	if rec == nil {
		return nil, false
	}
	res, err := resultOf(r, p, rec)
	if err != nil {
		return nil, false
	}
	res.FromBook = true
	return res, true
}

// resultOf is the answer a root record gives for p under rules r, as
// Solve would give it with no search: FromCache set. The error says the
// record's principal variation does not replay.
func resultOf(r engine.Variant, p engine.Position, rec *results.Record) (*Result, error) {
	pv, err := r.ParsePaper(p, rec.PV)
	if err != nil {
		return nil, err
	}
	res := &Result{Position: p, Variant: r, Value: rec.Value, Lower: rec.Value, Upper: rec.Value, Solved: true,
		FromCache: true, PV: pv, Record: rec}
	for _, m := range rec.Moves {
		res.Moves = append(res.Moves, solver.MoveValue{Pit: m.Pit, Move: m.Move, Value: m.Value, Extra: m.ExtraTurn, Solved: true, Lower: m.Value, Upper: m.Value})
		if m.Value == rec.Value {
			res.Best = append(res.Best, m.Pit-1)
		}
	}
	return res, nil
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
// build resumes where it stopped; the built-in book is not consulted, so
// that the cache holds every position. It needs a cache (an error
// otherwise).
func (k *Session) BuildBook(ctx context.Context, plies int, progress func(BookProgress)) (BookProgress, error) {
	var st BookProgress
	if k.cache == nil {
		return st, errNoCache
	}
	defer func(noBook bool) { k.cfg.NoBook = noBook }(k.cfg.NoBook)
	k.cfg.NoBook = true
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
