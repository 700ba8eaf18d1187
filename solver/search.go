// Package solver computes exact perfect-play values of Kalah positions: a
// fail-soft negamax over the packed board with enhanced transposition
// cut-offs, endgame-database probes and seed-count bounds, driven by MTD(f)
// null-window tests, on one or more threads sharing one table.
package solver

import (
	"math/bits"
	"sync/atomic"

	"golang.org/x/sys/cpu"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/tt"
)

// Database answers positions with few seeds exactly: an endgame database.
// Probe returns the number of the board's seeds the side to move banks
// under perfect play; ok is false when the board is not covered.
type Database interface {
	MaxSeeds() int
	Probe(b engine.Board) (gain int, ok bool)
}

// Prefetcher is a Database that can start loading what Probe(b) will read
// and return at once (egdb.DB does); the search then asks it for each
// child it sows within the database, before it probes any.
type Prefetcher interface {
	Prefetch(b engine.Board)
}

// Cache is a persistent second level under the table, holding proven
// entries only: the cache (persist.Cache, on BadgerDB), or a campaign's
// shared table. The search asks it only where the
// table misses at a board with at least MinSeeds seeds, and hands it
// entries whose subtree cost at least 2^MinWork nodes. Put must not block:
// the cache queues writes for its own writer goroutine.
type Cache interface {
	Get(k engine.Key) (tt.Entry, bool)
	Put(k engine.Key, e tt.Entry)
	MinSeeds() int
	MinWork() int
}

// Values. A board value is relative to the stores: the mover's final store
// difference minus the current one, i.e. what the mover gains from the
// seeds still on the board minus what the opponent gains. It lies in
// [-s, s] for s seeds on the board and has the parity of s.

const inf = 1000

// thread owns one search stack: its counters are its own, and it shares
// only the table, the database and the stop flag with other threads. The
// padding at both ends keeps its fields off the cache lines of whatever is
// allocated beside it, another thread's among them: the search writes
// st and rootSide at every node; threads sharing cache lines run slower
// (record design-thread-padding, docs/benchmarks.md).
type thread struct {
	_ cpu.CacheLinePad

	rules engine.Variant
	tab   *tt.Table
	db    Database
	dbPre Prefetcher // db, when it prefetches; else nil
	dbMax int
	// tabMin: boards with fewer seeds are neither looked up in the table
	// nor stored (tableMinSeeds).
	tabMin int
	id     int

	cache      Cache // nil for none
	cacheSeeds int   // ask the cache only at boards with this many seeds (never without one)
	cacheWork  int   // give the cache entries whose work is at least this

	stop    *atomic.Bool  // set when this test is answered elsewhere
	cancel  *atomic.Bool  // set when the whole solve is cancelled
	aborted bool          // this thread saw stop; its results are void
	shared  *atomic.Int64 // nodes published for progress reports

	st        Stats
	total     int64 // nodes over every test so far
	published int64

	hist [engine.MaxPits][engine.MaxSeeds + 1]int32 // cut-offs by pit and seeds in it

	// busy is shared by all threads when there are several (nil for one):
	// how many threads are searching each position right now, by hash.
	// Only children of at least markMin seeds are marked, set from the
	// board each search starts from (searchBoard).
	busy    *busyTable
	markMin int
	// rootSide: the node being searched has the mover of the board the
	// search started from (searchBoard), whose moves a failing test must
	// all refute; there even the first move is put off when busy, and
	// elsewhere a depth-limited table move only breaks ties.
	rootSide bool

	_ cpu.CacheLinePad
}

// candidate is a move waiting to be searched, with what the peek learned:
// the child seen from its mover, and the child's table slot and entry so
// that the child need not look itself up again. The position a search
// starts from is a candidate of no move (only child, slot, entry, hit).
type candidate struct {
	child   engine.Board
	slot    tt.Slot
	entry   tt.Entry
	hit     bool
	limited bool // the peeked bound came from a depth-limited entry
	gain    int8 // seeds the move banked for the mover
	pit     int8
	res     engine.Result
	score   int64 // place in the order of step 5, set by scoreMoves
}

// expansion is a node's children: sown, with their table slots computed
// and their buckets prefetched (the peeks fill in the rest). After the
// peeks, open lists the k moves left to search, as indices into list (so
// that ordering them moves bytes, not candidates).
type expansion struct {
	n, k int
	list [engine.MaxPits]candidate
	open [engine.MaxPits]int8
}

// tally is what a node has established so far: the best value found and
// its move (-1 for none), and whether any bound behind it depends on the
// depth limit.
type tally struct {
	value, move int
	limited     bool
}

// node is what step 6 needs of the node being searched: its board, its
// children after the peeks, its window, the children's depth, and next,
// the expansion done ahead of move nextPit (-1 for none).
type node struct {
	b           engine.Board
	ex          *expansion
	alpha, beta int
	depth       int
	next        *expansion
	nextPit     int
}

// searchBoard searches b from scratch, as the drivers do: the endgame
// database answers a small board, and otherwise b is looked up in the
// table and searched. The contract is search's.
func (t *thread) searchBoard(b engine.Board, alpha, beta, depth int) (v int, proven bool) {
	s := b.Seeds()
	t.markMin = markMin(s, t.tabMin)
	t.rootSide = true
	if s <= t.dbMax {
		if g, ok := t.db.Probe(b); ok {
			t.st.DBHits++
			return 2*g - s, true
		}
	}
	n := candidate{child: b}
	if s >= t.tabMin {
		n.slot = t.tab.SlotOf(b.Key(), s)
		t.st.TTProbes++
		n.entry, n.hit = t.tab.Probe(n.slot)
		if n.hit {
			t.st.TTHits++
		}
	}
	return t.search(&n, alpha, beta, depth, nil)
}

// search is the node: fail-soft negamax over n.child, whose table slot and
// entry the caller has already looked up. For the window (alpha, beta),
// alpha < beta, it returns a bound v on the value of the board (relative to
// the stores, engine/value.go):
//
//	v <= alpha        the true value is at most v  (fail low)
//	v >= beta         the true value is at least v (fail high)
//	alpha < v < beta  v is the true value
//
// and proven, true when v does not depend on the depth limit. With depth
// = tt.DepthSolved the search is exact: v is always proven and every bound
// it returns or stores holds forever. With a smaller depth, leaves at the
// horizon score 0 (no further gain) and v is a heuristic, unless proven:
// then no horizon leaf and no depth-limited entry was used below, and v
// holds like a full-depth bound (Irving's result depth, reduced to a flag).
// A thread that sees the stop flag unwinds with (0, false) and sets
// t.aborted: its results are void.
//
// ahead, if not nil, is n.child's expansion (step 4), done by the parent
// while it waited for its own children's buckets.
//
// The node is part 2 of the walk-through in docs/algorithms.md (The
// search); part 1 is internal/reference's Solver.Value, the same values
// by plain recursion.
func (t *thread) search(n *candidate, alpha, beta, depth int, ahead *expansion) (v int, proven bool) {
	// Step 1. Poll: count the node, and every 4096 nodes publish the count
	// and look at the stop flags.
	if t.poll() {
		return 0, false
	}

	// Step 2. Seed bounds (the paper's futility pruning, exact in Kalah):
	// the mover can gain at most the s seeds left and lose at most s, so a
	// window outside [-s, s] is decided without a move. A depth-limited
	// search (only ever used to find a first guess and fill the table with
	// good moves) scores its horizon as "no further gain".
	b, s := n.child, n.child.Seeds()
	if alpha >= s {
		t.st.CutSeeds++
		return s, true
	}
	if beta <= -s {
		t.st.CutSeeds++
		return -s, true
	}
	if depth == 0 {
		return 0, false
	}
	childDepth := depth - 1
	if depth == tt.DepthSolved {
		childDepth = depth
	}

	// Step 3. Probe: the node's own entry is the one its parent's peek
	// found or, on a table miss at a big board, the cache's. A
	// bound of it that decides the window ends the node; otherwise its move
	// is tried first.
	e, hit := n.entry, n.hit
	if !hit && s >= t.cacheSeeds {
		e, hit = t.fromCache(n)
	}
	if v, ok := decides(e, hit, alpha, beta, depth); ok {
		t.st.CutTT++
		return v, e.Solved()
	}
	nodes0 := t.st.Nodes

	// Step 4. Expand and peek: sow every move (unless the parent did, see
	// ahead) and score the moves for step 5; expand ahead the one likely
	// to go first, which only starts its children's loads early
	// (expand.go); then bound every move from the game's end, the database
	// or its child's table entry (peek.go). A move that proves >= beta
	// ends the search (on to step 7).
	var own, next expansion
	ex := ahead
	if ex == nil {
		ex = &own
		t.expand(b, ex, alpha, beta)
	}
	first := t.scoreMoves(b, ex, e, hit)
	nextPit := t.expandAhead(ex, first, &next, alpha, beta)
	best, cut := t.peekAll(b, ex, alpha, beta, childDepth)
	if !cut {
		// Step 5. Order the moves the peeks left open (order.go).
		order(ex)

		// Step 6. Search them in order, raising alpha as values come in.
		x := node{b: b, ex: ex, alpha: alpha, beta: beta, depth: childDepth, next: &next, nextPit: nextPit}
		best = t.searchMoves(&x, best)
		if t.aborted {
			return 0, false
		}
	}

	// Step 7. Save the bound in the table (and, if costly, in the cache).
	t.save(n, best, alpha, beta, depth, t.st.Nodes-nodes0)
	return best.value, !best.limited
}

// poll counts a node (step 1); every 4096 nodes it publishes the count for
// progress reports and reads the stop flags, which are atomic and shared.
// It reports whether this thread must stop.
func (t *thread) poll() bool {
	t.st.Nodes++
	if t.st.Nodes&4095 == 0 {
		t.publish()
		if t.stop.Load() || t.cancel.Load() {
			t.aborted = true
		}
	}
	return t.aborted
}

// fromCache looks n up in the cache after a table miss (step
// 3) and copies a find into the table.
func (t *thread) fromCache(n *candidate) (tt.Entry, bool) {
	e, ok := t.cache.Get(n.child.Key())
	if ok {
		t.st.CacheHits++
		t.tab.Put(n.slot, e) // a board that skips the table has no slot: a no-op
	}
	return e, ok
}

// decides reports whether an entry found for a search of the given depth
// decides the window by itself, and with which bound: a lower bound >= beta
// or an upper bound <= alpha, from an entry at least as deep.
func decides(e tt.Entry, hit bool, alpha, beta, depth int) (v int, ok bool) {
	if hit && e.Depth() >= depth {
		if v = e.Lower(); v >= beta {
			return v, true
		}
		if v = e.Upper(); v <= alpha {
			return v, true
		}
	}
	return 0, false
}

// searchMoves searches x's open moves in order (step 6) and returns best
// with their values added: each move is searched with alpha raised to the
// best value so far, and the loop ends at the first move that reaches
// beta, or when the thread is stopped (t.aborted). On one thread this is
// the whole of step 6; with several, searchMovesShared puts off the moves
// other threads are searching (busy.go).
func (t *thread) searchMoves(x *node, best tally) tally {
	if t.busy != nil {
		return t.searchMovesShared(x, best)
	}
	for j := 0; j < x.ex.k; j++ {
		if t.searchMove(x, &x.ex.list[x.ex.open[j]], j == 0, &best) {
			break
		}
	}
	return best
}

// searchMove searches one move of x, cd, and adds its value to best. It
// reports whether the node is done: the move reached beta (a cut-off,
// credited to the history), or the thread was stopped. first is set for
// the first move searched, which x may have expanded ahead.
func (t *thread) searchMove(x *node, cd *candidate, first bool, best *tally) (done bool) {
	var ahead *expansion
	if first && int(cd.pit) == x.nextPit {
		ahead = x.next
	}
	// The window goes down and the value comes back through the sign rule
	// (engine/value.go); rootSide flips with the turn.
	gain := int(cd.gain)
	calpha, cbeta := engine.ChildWindow(cd.res, gain, max(x.alpha, best.value), x.beta)
	turn := !cd.res.Extra()
	if turn {
		t.rootSide = !t.rootSide
	}
	cv, proven := t.search(cd, calpha, cbeta, x.depth, ahead)
	if turn {
		t.rootSide = !t.rootSide
	}
	if t.aborted {
		return true
	}
	v := engine.MoveValue(cd.res, gain, cv)
	best.limited = best.limited || !proven
	if v > best.value {
		best.value, best.move = v, int(cd.pit)
		if v >= x.beta {
			t.st.CutSearch++
			t.recordCut(x.b, int(cd.pit))
			return true
		}
	}
	return false
}

// save writes the node's result to the table (step 7): a lower bound on a
// cut-off, an upper bound on a fail low, exact in between, merged with the
// bound the entry already held (an MTD(f) test that fails the other way
// keeps the earlier one). It is stored as solved when nothing behind it
// depends on the depth limit, with log2 of its cost in nodes as its work;
// a solved entry that cost at least 2^cacheWork nodes also goes to the
// cache.
func (t *thread) save(n *candidate, best tally, alpha, beta, depth int, nodes int64) {
	if n.child.Seeds() < t.tabMin {
		return
	}
	lower, upper := best.value, best.value
	switch {
	case best.value >= beta:
		upper = tt.NoUpper
	case best.value <= alpha:
		lower = tt.NoLower
	}
	stored := depth
	if !best.limited {
		stored = tt.DepthSolved
	}
	work := bits.Len64(uint64(nodes))
	ent := t.tab.Put(n.slot, tt.MakeEntry(lower, upper, max(best.move, 0), stored, work))
	if t.cache != nil && ent.Solved() && work >= t.cacheWork {
		t.cache.Put(n.child.Key(), ent)
	}
}
