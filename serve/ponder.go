package serve

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/results"
	"github.com/kalah-solver/kalah/solver"
)

// Looking ahead. A person reads an answer for seconds before the next
// click, and the next click asks for one of a few positions: the one after
// each legal move. So once the server has answered a position and the
// slot is free, it solves those positions itself, one at a time, each for
// at most Options.PonderLimit: a solve that finishes leaves its answer in
// the cache (and its proofs in the table), so the request for it, when it
// comes, is answered from the cache. A request that comes in meanwhile
// stops the look-ahead at once: its solve is interrupted (what it proved
// stays in the table) and the request takes the slot; its own answer then
// starts a new look-ahead, from its position. The look-ahead never holds
// the slot while a request waits, and never delays one by more than the
// solver's polling (every 4096 nodes).

// DefaultPonderLimit is the longest a looked-ahead position is solved for
// when Options.PonderLimit is 0.
const DefaultPonderLimit = 30 * time.Second

// lookAhead starts the look-ahead after the answer rec for p: the
// positions after each of p's moves, the move first (the computer's
// choice in play mode) first when it is not "", then the moves in the
// order of rec's values, the best first. Any look-ahead still running
// from an earlier answer stops.
func (s *Server) lookAhead(key gameKey, rules engine.Variant, p engine.Position, rec *results.Record, first string) {
	if s.opts.NoPonder || p.Board.Over() {
		return
	}
	next := aheadOf(rules, p, rec, first)
	s.mu.Lock()
	s.pgen++
	gen := s.pgen
	s.mu.Unlock()
	if len(next) > 0 {
		go s.ponder(gen, key, next)
	}
}

// aheadOf lists the positions after p's moves in the order lookAhead
// solves them, leaving out moves that end the game (nothing to solve).
func aheadOf(rules engine.Variant, p engine.Position, rec *results.Record, first string) []engine.Position {
	moves := slices.Clone(rec.Moves)
	slices.SortStableFunc(moves, func(a, b results.MoveValue) int {
		switch {
		case (a.Move == first) != (b.Move == first):
			if a.Move == first {
				return -1
			}
			return 1
		case a.Value != b.Value:
			return b.Value - a.Value
		}
		return a.Pit - b.Pit
	})
	var next []engine.Position
	for _, m := range moves {
		i := m.Pit - 1
		if i < 0 || i >= p.Pits || p.Board.Pit(i) == 0 {
			continue
		}
		q, res := rules.PlayPosition(p, i)
		if !res.Over() {
			next = append(next, q)
		}
	}
	return next
}

// ponder solves next in order in the session of key, as look-ahead number
// gen, until it is done, a request comes, or a newer answer starts its own
// look-ahead.
func (s *Server) ponder(gen int64, key gameKey, next []engine.Position) {
	solved := 0
	defer func() {
		if s.opts.ponderEnded != nil {
			s.opts.ponderEnded(solved)
		}
	}()
	for _, q := range next {
		ctx, cancel := context.WithTimeout(context.Background(), s.ponderLimit())
		if !s.takeForPonder(gen, cancel) {
			cancel()
			return
		}
		if s.opts.ponderStarted != nil {
			s.opts.ponderStarted(q)
		}
		done, err := s.ponderOne(ctx, key, q)
		s.release()
		stopped := ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded)
		cancel()
		if done {
			solved++
		}
		if err != nil && !errors.Is(err, solver.ErrInterrupted) {
			s.logf("looking ahead at %s %s: %v", q, q.ToMove, err)
			return
		}
		if stopped {
			return
		}
	}
}

// ponderOne solves q in the session of key and reports whether it found
// q's every move's value; the caller holds the slot.
func (s *Server) ponderOne(ctx context.Context, key gameKey, q engine.Position) (bool, error) {
	k, err := s.session(key)
	if err != nil {
		return false, err
	}
	t0 := time.Now()
	res, err := k.Solve(ctx, q)
	if res == nil {
		return false, err
	}
	if !res.FromCache {
		s.logf("looked ahead at %v %s %s: %.3f s, solved %v", key.rule, q, q.ToMove, time.Since(t0).Seconds(), res.Solved)
	}
	return res.Solved && err == nil, err
}

// takeForPonder takes the solve slot for look-ahead gen, with cancel to
// stop it: only when the slot is free, nobody waits, the server is open
// and gen is the latest look-ahead.
func (s *Server) takeForPonder(gen int64, cancel context.CancelFunc) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.busy || len(s.line) > 0 || s.closed || gen != s.pgen {
		return false
	}
	s.busy, s.pcancel = true, cancel
	return true
}

// ponderLimit is Options.PonderLimit or its default.
func (s *Server) ponderLimit() time.Duration {
	if s.opts.PonderLimit > 0 {
		return s.opts.PonderLimit
	}
	return DefaultPonderLimit
}
