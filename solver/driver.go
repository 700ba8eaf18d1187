package solver

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/tt"
)

// This file holds the drivers: the MTD(f) loop that pins a value down with
// null-window tests, and the test itself, run by one thread or raced by
// several over the shared table (lazy SMP).

// RoundUp and RoundDown move v to the parity p (values of a board with s
// seeds have the parity of s).
func RoundUp(v, p int) int {
	if (v-p)&1 != 0 {
		return v + 1
	}
	return v
}

// RoundDown is RoundUp towards minus infinity.
func RoundDown(v, p int) int {
	if (v-p)&1 != 0 {
		return v - 1
	}
	return v
}

// test decides whether the value of b (relative, from its mover) is at
// least gamma: it returns a fail-soft bound v with v >= gamma meaning
// "value >= v" and v < gamma meaning "value <= v". ok is false when the
// solve was cancelled before the test finished. It runs on every thread.
func (s *Solver) test(b engine.Board, gamma, depth int) (v int, ok bool) {
	ws := s.threads
	if len(ws) == 1 {
		w := ws[0]
		var stop atomic.Bool
		w.reset(&stop)
		v, _ = w.searchBoard(b, gamma-1, gamma, depth)
		s.account(ws)
		return v, !w.aborted
	}
	// Lazy SMP: every thread searches the same test over the shared
	// table, each with its own move order near the root; the first to
	// finish answers (all answers are proven bounds, so any one will do)
	// and the others are stopped.
	var stop atomic.Bool
	var once sync.Once
	var wg sync.WaitGroup
	done := false
	for _, w := range ws {
		w.reset(&stop)
		wg.Add(1)
		go func(w *thread) {
			defer wg.Done()
			r, _ := w.searchBoard(b, gamma-1, gamma, depth)
			if !w.aborted {
				once.Do(func() {
					v, done = r, true
					stop.Store(true)
				})
			}
		}(w)
	}
	wg.Wait()
	s.account(ws)
	return v, done
}

// account adds the counters of the threads' last test to the solver's
// (one more pass), under the lock that concurrent tests share.
func (s *Solver) account(ws []*thread) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats.Tests++
	for _, w := range ws {
		s.addThread(w)
	}
}

// addThread adds w's counters of its last search to the solver's and
// publishes its nodes. Called with s.mu held.
func (s *Solver) addThread(w *thread) {
	w.publish()
	s.stats.Add(w.st)
	w.total += w.st.Nodes
}

// statsNow reads the solver's counters under the lock.
func (s *Solver) statsNow() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

// publish adds the nodes not yet published to the shared progress count.
func (t *thread) publish() {
	t.shared.Add(t.st.Nodes - t.published)
	t.published = t.st.Nodes
}

// reset prepares a thread for a new test.
func (t *thread) reset(stop *atomic.Bool) {
	t.stop = stop
	t.aborted = false
	t.st = Stats{}
	t.published = 0
}

// mtdf pins down the exact value of b by null-window tests, starting from
// guess: each test at gamma either raises the lower bound or lowers the
// upper bound, and the next test is centred on the bound just found.
// report is called after each test with the bounds so far. It returns the
// bounds proven when the solve is cancelled (lo < hi then).
//
// With depth < tt.DepthSolved the tests are depth-limited and the value is
// only a heuristic (used as the next first guess, never as an answer);
// then values have no parity and the steps are of one.
func (s *Solver) mtdf(ctx context.Context, b engine.Board, guess, depth int, report func(lo, hi int)) (lo, hi int, ok bool) {
	return s.mtdfWith(ctx, s.test, b, guess, depth, report)
}

// testFunc is a null-window test: Solver.test, or a Team's (everyMoveShared).
type testFunc func(b engine.Board, gamma, depth int) (int, bool)

// mtdfWith is mtdf with its tests run by test.
func (s *Solver) mtdfWith(ctx context.Context, test testFunc, b engine.Board, guess, depth int, report func(lo, hi int)) (lo, hi int, ok bool) {
	return s.mtdfWithin(ctx, test, b, guess, depth, -b.Seeds(), b.Seeds(), report)
}

// mtdfWithin is mtdfWith on a value already proven to lie in [lo0, hi0]
// (a full-depth search's bounds, relative to b's stores): the tests
// outside it are not run again.
func (s *Solver) mtdfWithin(ctx context.Context, test testFunc, b engine.Board, guess, depth, lo0, hi0 int, report func(lo, hi int)) (lo, hi int, ok bool) {
	seeds := b.Seeds()
	lo, hi = -seeds, seeds
	if depth == tt.DepthSolved && lo0 <= hi0 {
		lo, hi = max(lo, RoundUp(lo0, seeds)), min(hi, RoundDown(hi0, seeds))
		if lo > hi { // bounds of another parity than the board's values
			lo, hi = -seeds, seeds
		}
	}
	step, par := 2, seeds
	if depth != tt.DepthSolved {
		step = 1
	}
	up := func(v int) int {
		if step == 1 {
			return v
		}
		return RoundUp(v, par)
	}
	down := func(v int) int {
		if step == 1 {
			return v
		}
		return RoundDown(v, par)
	}
	g := guess
	for lo < hi {
		if ctx.Err() != nil {
			return lo, hi, false
		}
		gamma := up(g)
		if gamma <= lo {
			gamma = lo + step
		}
		if gamma > hi {
			gamma = hi
		}
		v, done := test(b, gamma, depth)
		if !done {
			return lo, hi, false
		}
		if v >= gamma {
			lo = max(lo, up(v))
		} else {
			hi = min(hi, down(v))
		}
		g = v
		if report != nil {
			report(lo, hi)
		}
	}
	return lo, hi, true
}

// deepen runs depth-limited MTD(f) at depths 3, 6, ... up to maxDepth (the
// paper's schedule) to find a first guess for the full-depth search and to
// leave good moves in the table; it returns the last heuristic value.
func (s *Solver) deepen(ctx context.Context, b engine.Board, guess, maxDepth int) int {
	for d := 3; d <= maxDepth && d < tt.DepthSolved; d += 3 {
		lo, _, ok := s.mtdf(ctx, b, guess, d, nil)
		if !ok {
			break
		}
		guess = lo
	}
	return guess
}
