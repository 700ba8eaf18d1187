package solver

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/tt"
)

// Team runs the null-window tests of several callers at the same time on
// one solver's threads and table: the units of a campaign's local workers
// (package campaign), which come and go on their own. Each test owns one
// thread; a thread with no test of its own helps a running test, the one
// with the fewest threads (lazy SMP: the same test over the shared table,
// the first answer wins, every answer being a proven bound), and is taken
// back as soon as a new test needs a thread. So two tests on two threads
// run one a thread, and a test left alone, as the last unit of a
// campaign's tail, runs on all of them.
//
// While a Team is in use, the solver must not run anything else.
type Team struct {
	s       *Solver
	mu      sync.Mutex
	cond    *sync.Cond
	free    []*thread
	tests   []*teamTest // running, oldest first
	helpers map[*thread]*teamHelper
	counts  TeamCounts
}

// TeamCounts says how a team's threads were shared.
type TeamCounts struct {
	Tests     int64 // tests run
	Joins     int64 // a thread joining a test as a helper
	TakenBack int64 // a helper taken back for a new test
	HelperWon int64 // tests answered by a helper rather than their owner
}

// Counts returns the team's counts so far.
func (tm *Team) Counts() TeamCounts {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return tm.counts
}

// teamTest is one caller's test.
type teamTest struct {
	b       engine.Board
	gamma   int
	depth   int            // tt.DepthSolved, or a depth-limited test's
	threads int            // owner and helpers now on it
	flags   []*atomic.Bool // of every thread on it: set to stop them
	done    bool           // answered
	stopped bool           // answered, cancelled or ended: no helper joins it
	v       int
	st      Stats // what every thread on it searched
	helping sync.WaitGroup
}

// teamHelper is a thread helping a test.
type teamHelper struct {
	t      *teamTest
	flag   *atomic.Bool
	taken  bool          // taken back for a test of its own
	exited chan struct{} // closed when it has stopped
}

// Team returns a team over the solver's threads.
func (s *Solver) Team() *Team {
	s.cancel.Store(false) // a team's tests are cancelled one by one, by their contexts
	return newTeam(s)
}

// newTeam is Team without clearing the solver's cancel flag: inside a
// solve (everyMoveShared) the solve's watcher owns it.
func newTeam(s *Solver) *Team {
	t := &Team{s: s, free: append([]*thread(nil), s.threads...), helpers: map[*thread]*teamHelper{}}
	t.cond = sync.NewCond(&t.mu)
	return t
}

// NullWindow is Solver.NullWindow for one of the team's callers: it
// decides whether the value of b is at least gamma at full depth and
// returns a fail-soft bound, with what the threads on it searched. It
// waits when every thread owns a test. When ctx ends first it returns an
// error wrapping ErrInterrupted.
func (tm *Team) NullWindow(ctx context.Context, b engine.Board, gamma int) (v int, st Stats, err error) {
	return tm.test(ctx, b, gamma, tt.DepthSolved)
}

// test is NullWindow at any depth (depth-limited tests are those of every
// move's first guesses, everyMoveShared).
func (tm *Team) test(ctx context.Context, b engine.Board, gamma, depth int) (v int, st Stats, err error) {
	if b.Over() {
		return 0, Stats{}, nil
	}
	w := tm.take()
	t := &teamTest{b: b, gamma: gamma, depth: depth, threads: 1}
	own := new(atomic.Bool)
	tm.mu.Lock()
	t.flags = append(t.flags, own)
	tm.tests = append(tm.tests, t)
	tm.counts.Tests++
	tm.spread()
	tm.mu.Unlock()

	stopWatch := context.AfterFunc(ctx, func() {
		tm.mu.Lock()
		t.stopAll()
		tm.mu.Unlock()
	})
	w.reset(own)
	r, _ := w.searchBoard(b, gamma-1, gamma, depth)
	stopWatch()
	tm.s.accountTeam(w, true)

	tm.mu.Lock()
	t.answer(w, r)
	t.st.Add(w.st)
	tm.remove(t)
	tm.mu.Unlock()
	t.helping.Wait() // every helper stops (and is accounted) before the answer

	tm.mu.Lock()
	tm.free = append(tm.free, w)
	tm.spread()
	st, done, v := t.st, t.done, t.v
	tm.mu.Unlock()
	tm.cond.Broadcast()
	if !done {
		return 0, st, fmt.Errorf("%w: test of %d on a board of %d seeds", ErrInterrupted, gamma, b.Seeds())
	}
	return v, st, nil
}

// take returns a thread for a new test: a free one, else a helper taken
// back from the test with the most threads, else (every thread owning a
// test) the first one to be freed.
func (tm *Team) take() *thread {
	tm.mu.Lock()
	for {
		if n := len(tm.free); n > 0 {
			w := tm.free[n-1]
			tm.free = tm.free[:n-1]
			tm.mu.Unlock()
			return w
		}
		var hw *thread
		var h *teamHelper
		for w, c := range tm.helpers {
			if !c.taken && (h == nil || c.t.threads > h.t.threads) {
				hw, h = w, c
			}
		}
		if h != nil {
			h.taken = true
			h.flag.Store(true)
			tm.counts.TakenBack++
			tm.mu.Unlock()
			<-h.exited
			return hw
		}
		tm.cond.Wait()
	}
}

// spread sends every free thread to help the running test with the
// fewest threads (the oldest among equals). Called with tm.mu held.
func (tm *Team) spread() {
	for len(tm.free) > 0 {
		var t *teamTest
		for _, o := range tm.tests {
			if !o.stopped && (t == nil || o.threads < t.threads) {
				t = o
			}
		}
		if t == nil {
			return
		}
		n := len(tm.free)
		w := tm.free[n-1]
		tm.free = tm.free[:n-1]
		h := &teamHelper{t: t, flag: new(atomic.Bool), exited: make(chan struct{})}
		t.threads++
		t.flags = append(t.flags, h.flag)
		tm.counts.Joins++
		tm.helpers[w] = h
		t.helping.Add(1)
		w.reset(h.flag)
		go tm.help(w, h)
	}
}

// help runs one helper's search of its test until the test is answered,
// cancelled or the helper is taken back.
func (tm *Team) help(w *thread, h *teamHelper) {
	t := h.t
	r, _ := w.searchBoard(t.b, t.gamma-1, t.gamma, t.depth)
	tm.s.accountTeam(w, false) // while w is still this helper's
	tm.mu.Lock()
	if t.answer(w, r) {
		tm.counts.HelperWon++
	}
	t.st.Add(w.st)
	t.threads--
	delete(tm.helpers, w)
	if !h.taken {
		tm.free = append(tm.free, w)
		tm.spread()
	}
	tm.mu.Unlock()
	close(h.exited)
	t.helping.Done()
	tm.cond.Broadcast()
}

// answer records r as the test's answer when w finished its search (the
// first to finish answers) and stops the others; it reports whether it
// did. Called with tm.mu held.
func (t *teamTest) answer(w *thread, r int) bool {
	if w.aborted || t.done {
		return false
	}
	t.done, t.v = true, r
	t.stopAll()
	return true
}

func (t *teamTest) stopAll() {
	t.stopped = true
	for _, f := range t.flags {
		f.Store(true)
	}
}

// remove takes t off the running tests, so that no helper joins it any
// more. Called with tm.mu held.
func (tm *Team) remove(t *teamTest) {
	t.stopAll()
	for i, o := range tm.tests {
		if o == t {
			tm.tests = append(tm.tests[:i], tm.tests[i+1:]...)
			return
		}
	}
}

// accountTeam adds a thread's counters of its last search to the
// solver's; a test counts one pass, from its owner.
func (s *Solver) accountTeam(w *thread, owner bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if owner {
		s.stats.Tests++
	}
	s.addThread(w)
}
