package kalah

import (
	"encoding/json"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/results"
)

// Cached returns the answer the cache holds for p, a position of a game
// with rules r: the root record of an earlier Solve, as Solve would
// answer it, with no search. ok is false when the cache holds none, the
// record does not hold up, the session has no cache, or
// Config.Recompute is set. r need not be the session's game: the cache
// keeps the records of every rule and pit count, so one open session
// answers them all.
//
// Unlike the session's other methods, Cached may be called from any
// goroutine while the session searches (the cache is safe for concurrent
// use); it must not overlap Close.
func (k *Session) Cached(r engine.Variant, p engine.Position) (res *Result, ok bool) {
	if k.cache == nil || k.cfg.Recompute || r.Validate() != nil || p.Pits != r.Pits {
		return nil, false
	}
	rec := k.cacheRecord(r, p)
	if rec == nil {
		return nil, false
	}
	res, err := resultOf(r, p, rec)
	if err != nil {
		return nil, false
	}
	// A start position is the start of one game, Kalah(m, seeds/2m).
	rec.Seeds = 0
	if n := p.Board.Total() / (2 * p.Pits); n > 0 {
		if start, err := r.StartPosition(n); err == nil && start == p {
			rec.Seeds = n
		}
	}
	return res, true
}

// cacheRecord returns the cache's root record of p under rules r, or nil
// when it holds none or the record does not hold up (logged).
func (k *Session) cacheRecord(r engine.Variant, p engine.Position) *results.Record {
	if k.cache == nil {
		return nil
	}
	b, found := k.cache.GetRootOf(r, p)
	if !found {
		return nil
	}
	var rec results.Record
	if err := json.Unmarshal(b, &rec); err != nil {
		k.logf("ignoring the cache's record of %v: %v", p, err)
		return nil
	}
	rec.SyncDeprecated()
	if err := rec.CheckPosition(r, p); err != nil {
		k.logf("ignoring the cache's record of %v: %v", p, err)
		return nil
	}
	return &rec
}
