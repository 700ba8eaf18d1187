// Package solver computes exact perfect-play values of Kalah positions: a
// fail-soft negamax over the packed board with enhanced transposition
// cut-offs, endgame-database probes and seed-count bounds, driven by MTD(f)
// null-window tests, on one or more workers sharing one table.
package solver

import (
	"math/bits"
	"sync/atomic"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/tt"
)

// Oracle answers positions with few seeds exactly: an endgame database.
// Probe returns the number of the board's seeds the side to move banks
// under perfect play; ok is false when the board is not covered.
type Oracle interface {
	MaxSeeds() int
	Probe(b engine.Board) (gain int, ok bool)
}

// Store is a persistent second level under the table, holding proven
// entries only (persist.Cache implements it with BadgerDB). The search asks it
// only where the table misses at a board with at least MinSeeds seeds, and
// hands it entries whose subtree cost at least 2^MinWork nodes. Put must
// not block: the store queues writes for its own writer goroutine.
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

// worker owns one search stack: its counters are its own, and it shares
// only the table, the oracle and the stop flag with other workers.
type worker struct {
	rules engine.Rules
	tab   *tt.Table
	db    Oracle
	dbMax int
	id    int

	cache      Cache // nil for none
	cacheSeeds int   // ask the store only at boards with this many seeds
	cacheWork  int   // give the store entries whose work is at least this

	stop    *atomic.Bool  // set when this test is answered elsewhere
	cancel  *atomic.Bool  // set when the whole solve is cancelled
	aborted bool          // this worker saw stop; its results are void
	shared  *atomic.Int64 // nodes published for progress reports

	st        Stats
	total     int64 // nodes over every test so far
	published int64

	// horizon is set by every node on return: whether its result depends
	// on the depth limit (a horizon leaf or a depth-limited entry somewhere
	// below). A depth-limited search whose result does not is a proof, and
	// is stored as one (Irving's result depth, reduced to a flag).
	horizon bool

	hist [engine.MaxPits][engine.MaxSeeds + 1]int32 // cut-offs by pit and seeds in it

	// busy is shared by all workers when there are several (nil for one):
	// how many workers are searching each position right now, by hash.
	busy *busyTable
}

// Stats counts what a search did.
type Stats struct {
	Nodes     int64 `json:"nodes"`      // calls of the search
	Peeks     int64 `json:"peeks"`      // children examined before recursing
	TTProbes  int64 `json:"tt_probes"`  // table look-ups, peeks included
	TTHits    int64 `json:"tt_hits"`    // look-ups that found the position
	DBHits    int64 `json:"egdb_hits"`  // endgame-database answers, peeks included
	CutSeeds  int64 `json:"cut_seeds"`  // nodes cut by the seed-count bound
	CutTT     int64 `json:"cut_tt"`     // nodes cut by their own table entry
	CutPeek   int64 `json:"cut_peek"`   // nodes cut by a child's bound (ETC, game end, database)
	CutSearch int64 `json:"cut_search"` // beta cut-offs after recursing
	Passes    int64 `json:"passes"`     // null-window tests run by the drivers
	CacheHits int64 `json:"store_hits"` // entries found in the persistent store
}

// Add accumulates o into s.
func (s *Stats) Add(o Stats) {
	s.Nodes += o.Nodes
	s.Peeks += o.Peeks
	s.TTProbes += o.TTProbes
	s.TTHits += o.TTHits
	s.DBHits += o.DBHits
	s.CutSeeds += o.CutSeeds
	s.CutTT += o.CutTT
	s.CutPeek += o.CutPeek
	s.CutSearch += o.CutSearch
	s.Passes += o.Passes
	s.CacheHits += o.CacheHits
}

// candidate is a move waiting to be searched, with what the peek learned:
// the child seen from its mover, and the child's table slot and entry so
// that the child need not look itself up again.
type candidate struct {
	child engine.Board
	slot  tt.Slot
	entry tt.Entry
	hit   bool
	dep   bool // the peeked bound came from a depth-limited entry
	gain  int8 // seeds the move banked for the mover
	pit   int8
	res   engine.Result
	score int64
}

// search returns a fail-soft bound on the value of b for the window
// (alpha, beta), alpha < beta:
//
//	v <= alpha        the true value is at most v  (fail low)
//	v >= beta         the true value is at least v (fail high)
//	alpha < v < beta  v is the true value
//
// With depth = tt.DepthSolved values are full-depth: every bound it
// returns or stores holds forever. With a smaller depth, leaves at the
// horizon score 0 (no further gain) and the result is a heuristic, unless
// w.horizon is false on return: then no horizon leaf or depth-limited
// entry was used and the result is a proven bound like any other.
// After a sowing that earns an extra turn the same player moves again, so
// the child is searched with the same sign and the window shifted by the
// seeds banked; after a normal move the window is negated.
func (w *worker) search(b engine.Board, alpha, beta, depth int) int {
	s := b.Seeds()
	// The endgame database answers small boards exactly.
	if s <= w.dbMax {
		if g, ok := w.db.Probe(b); ok {
			w.st.DBHits++
			w.horizon = false
			return 2*g - s
		}
	}
	slot := w.tab.SlotOf(b.Key(), s)
	w.st.TTProbes++
	e, hit := w.tab.Probe(slot)
	if hit {
		w.st.TTHits++
	}
	return w.node(b, s, alpha, beta, depth, slot, e, hit, nil)
}

// fromCache looks b up in the persistent store after a table miss, and
// copies a find into the table.
func (w *worker) fromCache(b engine.Board, slot tt.Slot) (tt.Entry, bool) {
	e, ok := w.cache.Get(b.Key())
	if ok {
		w.st.CacheHits++
		w.tab.Put(slot, e)
	}
	return e, ok
}

// node searches b, whose table slot and entry (if hit) the caller has
// already looked up; the contract is search's. pre, if not nil, is b's
// expansion (step 3), done ahead by the caller.
func (w *worker) node(b engine.Board, s, alpha, beta, depth int, slot tt.Slot, e tt.Entry, hit bool, pre *expansion) int {
	w.st.Nodes++
	if w.st.Nodes&4095 == 0 {
		w.shared.Add(w.st.Nodes - w.published)
		w.published = w.st.Nodes
		if w.stop.Load() || w.cancel.Load() {
			w.aborted = true
		}
	}
	if w.aborted {
		return 0
	}

	// Step 1. Bounds from the seeds (the paper's futility pruning, exact in
	// Kalah): the mover can gain at most the s seeds left and lose at most
	// s. A window outside [-s, s] is decided without a move.
	w.horizon = false
	if alpha >= s {
		w.st.CutSeeds++
		return s
	}
	if beta <= -s {
		w.st.CutSeeds++
		return -s
	}

	// A depth-limited search (only ever used to find a first guess and
	// fill the table with good moves) scores its horizon as "no further
	// gain": the current store difference.
	if depth == 0 {
		w.horizon = true
		return 0
	}
	childDepth := depth - 1
	if depth == tt.DepthSolved {
		childDepth = depth
	}

	// Step 2. Own table entry (or, on a miss at a big board, the
	// persistent store's): a proven bound that decides the window ends the
	// node; otherwise its move is tried first.
	if !hit && w.cache != nil && s >= w.cacheSeeds {
		e, hit = w.fromCache(b, slot)
	}
	ttMove := -1
	if hit {
		if e.Depth() >= depth {
			if lo := e.Lower(); lo >= beta {
				w.st.CutTT++
				w.horizon = !e.Solved()
				return lo
			}
			if hi := e.Upper(); hi <= alpha {
				w.st.CutTT++
				w.horizon = !e.Solved()
				return hi
			}
		}
		ttMove = e.Move()
	}
	nodes0 := w.st.Nodes

	// Step 3. Expand: sow every move, find each child's table slot and
	// prefetch its bucket at once, so that the memory latency of one
	// child's bucket overlaps the sowing and ranking of the next ones
	// (unless the caller expanded b ahead, below).
	var own expansion
	ex := pre
	if ex == nil {
		ex = &own
		w.expand(b, ex)
	}
	list, n := &ex.list, ex.n

	// Speculation: while the children's buckets come in, expand the child
	// most likely to be searched first (the table move, else the first in
	// the static order of step 5), so that its children's buckets are on
	// their way too when it is searched. A child that the peeks of step 4
	// settle, or a node they cut, wastes the work; on Kalah(6,4) it still
	// saves 12 % of the time (docs/algorithms.md). The node count is the
	// same either way.
	var ahead expansion
	aheadPit := -1
	if sj := w.scoreMoves(b, list[:n], ttMove); sj >= 0 && list[sj].child.Seeds() > w.dbMax {
		aheadPit = int(list[sj].pit)
		w.expand(list[sj].child, &ahead)
	}
	w.st.Peeks += int64(n)

	// Step 4. Peek at every child before recursing (Irving's crunch, the
	// enhanced transposition cut-off): game ends, database hits and table
	// bounds give each move an interval [lo, hi]. A move proving >= beta
	// ends the node; an exact move needs no search; a move that cannot
	// beat alpha is dropped, its upper bound kept for the fail-soft value.
	origAlpha := alpha
	best, bestMove := -inf, -1
	dep := false // some bound used below depends on the horizon
	k := 0
	for j := 0; j < n; j++ {
		cd := list[j]
		gain := int(cd.gain)
		var lo, hi int
		if cd.res.Over() {
			lo = gain - int(cd.child.OppStore-b.OppStore)
			hi = lo
		} else {
			lo, hi = w.peek(&cd, gain, childDepth)
		}
		if lo >= beta {
			w.st.CutPeek++
			d := depth
			if !cd.dep {
				d = tt.DepthSolved
			}
			w.tab.Put(slot, tt.MakeEntry(lo, tt.NoUpper, int(cd.pit), d, 0))
			w.horizon = cd.dep
			return lo
		}
		if lo == hi || hi <= alpha {
			dep = dep || cd.dep
			if hi > best {
				best, bestMove = hi, int(cd.pit)
				if hi > alpha {
					alpha = hi
				}
			}
			continue
		}
		// Step 5. Order: table move, extra turns (nearest the store
		// first), then by the seeds the move banks (so captures by their
		// size), ties broken by history. Insertion sort into the front of
		// the same array. (Ordering by the peeked interval, or captures
		// before every other move, cost nodes: docs/algorithms.md.)
		// The scores are set by scoreMoves, before the peeks.
		score := cd.score
		x := k
		for ; x > 0 && list[x-1].score < score; x-- {
			list[x] = list[x-1]
		}
		list[x] = cd
		k++
	}

	// Step 6. Search the rest in order, raising alpha as values come in.
	// With several workers (simplified ABDADA): after the first move, a
	// child another worker is searching right now is put off until the
	// others are done, so that workers spread over the tree; then the put-
	// off ones are searched (by then usually answered by the table).
	var deferred [engine.MaxPits]int8
	nd := 0
	for j := 0; j < k+nd; j++ {
		var cd *candidate
		if j < k {
			cd = &list[j]
			if j > 0 && w.busy != nil && cd.child.Seeds() >= busyMinSeeds && w.busy.isBusy(cd.slot) {
				deferred[nd] = int8(j)
				nd++
				continue
			}
		} else {
			cd = &list[deferred[j-k]]
		}
		gain := int(cd.gain)
		cs := cd.child.Seeds()
		marked := w.busy != nil && cs >= busyMinSeeds
		if marked {
			w.busy.enter(cd.slot)
		}
		var px *expansion
		if j == 0 && int(cd.pit) == aheadPit {
			px = &ahead
		}
		var v int
		if cd.res.Extra() {
			v = gain + w.node(cd.child, cs, alpha-gain, beta-gain, childDepth, cd.slot, cd.entry, cd.hit, px)
		} else {
			v = gain - w.node(cd.child, cs, gain-beta, gain-alpha, childDepth, cd.slot, cd.entry, cd.hit, px)
		}
		if marked {
			w.busy.leave(cd.slot)
		}
		if w.aborted {
			return 0
		}
		dep = dep || w.horizon
		if v > best {
			best, bestMove = v, int(cd.pit)
			if v > alpha {
				alpha = v
				if v >= beta {
					w.st.CutSearch++
					if h := &w.hist[cd.pit][b.Pit(int(cd.pit))]; *h < 1<<23 {
						*h += int32(s)
					} else {
						w.ageHistory()
					}
					break
				}
			}
		}
	}

	// Step 7. Store the bound: lower on a cut-off, upper on a fail low,
	// exact in between, merged with the bound the entry already held (an
	// MTD(f) test that fails the other way keeps the earlier one).
	lower, upper := best, best
	switch {
	case best >= beta:
		upper = tt.NoUpper
	case best <= origAlpha:
		lower = tt.NoLower
	}
	work := bits.Len64(uint64(w.st.Nodes - nodes0))
	stored := depth
	if !dep {
		stored = tt.DepthSolved
	}
	ent := w.tab.Put(slot, tt.MakeEntry(lower, upper, max(bestMove, 0), stored, work))
	if w.cache != nil && ent.Solved() && work >= w.cacheWork {
		w.cache.Put(b.Key(), ent)
	}
	w.horizon = dep
	return best
}

// expansion is a node's children: sown, with their table slots computed
// and their buckets prefetched (the peeks fill in the rest).
type expansion struct {
	n    int
	list [engine.MaxPits]candidate
}

// expand sows every move of b into x, computes each child's slot and
// prefetches its bucket.
func (w *worker) expand(b engine.Board, x *expansion) {
	n := 0
	for mv := b.Moves(); mv != 0; mv &= mv - 1 {
		i := bits.TrailingZeros8(mv)
		c, res := w.rules.Sow(b, i)
		cd := &x.list[n]
		*cd = candidate{gain: int8(c.OwnStore - b.OwnStore), pit: int8(i), res: res}
		if res&(engine.ResExtra|engine.ResOver) == 0 {
			c = c.Flip()
		}
		cd.child = c
		if !res.Over() {
			if cs := c.Seeds(); cs > w.dbMax {
				cd.slot = w.tab.SlotOf(c.Key(), cs)
				w.tab.Prefetch(cd.slot)
			}
		}
		n++
	}
	x.n = n
}

// scoreMoves sets each move's place in the order of step 5 (the table
// move, then extra turns nearest the store first, then by the seeds the
// move banks, ties broken by history) and returns the index of the move
// that step 5 puts first if the peeks settle nothing; -1 when every move
// ends the game (moves that do are not scored: the peeks settle them).
func (w *worker) scoreMoves(b engine.Board, list []candidate, ttMove int) int {
	sj, best := -1, int64(-1<<62)
	for j := range list {
		cd := &list[j]
		if cd.res.Over() {
			continue
		}
		score := int64(int(cd.gain)+256)<<24 + int64(w.hist[cd.pit][b.Pit(int(cd.pit))])
		switch {
		case int(cd.pit) == ttMove:
			score += 1 << 50
		case cd.res.Extra():
			score += 1<<48 + int64(cd.pit)<<40
		}
		cd.score = score
		if score > best {
			best, sj = score, j
		}
	}
	return sj
}

// peek bounds the value of a move that banked gain seeds, from its child
// alone: the seeds left, the database and the table, without searching. It
// returns the move's value interval [lo, hi] for the parent's mover and
// keeps the child's entry in cd for the child's own node.
func (w *worker) peek(cd *candidate, gain, depth int) (lo, hi int) {
	c := cd.child
	cs := c.Seeds()
	clo, chi := -cs, cs
	if cs <= w.dbMax {
		if g, ok := w.db.Probe(c); ok {
			w.st.DBHits++
			clo = 2*g - cs
			chi = clo
		}
	} else {
		w.st.TTProbes++
		if e, ok := w.tab.Probe(cd.slot); ok {
			w.st.TTHits++
			cd.entry, cd.hit = e, true
			if e.Depth() >= depth {
				clo = max(clo, e.Lower())
				chi = min(chi, e.Upper())
				cd.dep = !e.Solved()
			}
		}
	}
	if cd.res.Extra() {
		return gain + clo, gain + chi
	}
	return gain - chi, gain - clo
}

// ageHistory halves every history counter, so that the counters follow the
// part of the tree being searched and never saturate.
func (w *worker) ageHistory() {
	for i := range w.hist {
		for j := range w.hist[i] {
			w.hist[i][j] >>= 1
		}
	}
}
