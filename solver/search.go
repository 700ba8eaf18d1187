// Package solver computes exact perfect-play values of Kalah positions: a
// fail-soft negamax over the packed board with enhanced transposition
// cut-offs, endgame-database probes and seed-count bounds, driven by MTD(f)
// null-window tests, on one or more threads sharing one table.
package solver

import (
	"encoding/json"
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
// (docs/algorithms.md, Threads).
type thread struct {
	_ cpu.CacheLinePad

	rules engine.Rules
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
	CacheHits int64 `json:"cache_hits"` // entries found in the cache
}

// statsJSON is Stats as JSON: its fields, and the deprecated key of
// CacheHits beside it.
type statsJSON struct {
	statsFields
	// StoreHits is CacheHits under its old key, written and read.
	// Deprecated: use cache_hits; the key "store_hits" is removed in v0.3.0.
	StoreHits *int64 `json:"store_hits,omitempty"`
}

// statsFields is Stats without its methods.
type statsFields Stats

// MarshalJSON writes the counters, cache_hits also under its old key,
// store_hits (until v0.3.0).
func (s Stats) MarshalJSON() ([]byte, error) {
	hits := s.CacheHits
	return json.Marshal(statsJSON{statsFields(s), &hits})
}

// UnmarshalJSON reads the counters, cache_hits also under its old key,
// store_hits (until v0.3.0).
func (s *Stats) UnmarshalJSON(b []byte) error {
	var j statsJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*s = Stats(j.statsFields)
	if j.StoreHits != nil && s.CacheHits == 0 {
		s.CacheHits = *j.StoreHits
	}
	return nil
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

	// Step 4. Expand and peek: sow every move (unless the parent did),
	// expand ahead the child most likely to be searched first, then bound
	// every move from its child's table entry, the database or the game's
	// end. A move that proves >= beta ends the search (on to step 7).
	var own, next expansion
	ex := ahead
	if ex == nil {
		ex = &own
		t.expand(b, ex, alpha, beta)
	}
	// A move a depth-limited test stored at a node of the side that is not
	// the test's root mover (the side that refutes in a failing test) is
	// only a tie-break: the move best for the horizon's score is not the
	// one cheapest to prove (docs/algorithms.md, Peeks and move order).
	ttRank := int64(1 << 50) // first
	if hit && !e.Solved() && !t.rootSide {
		ttRank = 1 << 23 // above history only
	}
	nextPit := t.expandAhead(b, ex, tableMove(e, hit), ttRank, &next, alpha, beta)
	best, cut := t.peekAll(b, ex, alpha, beta, childDepth)
	if !cut {
		// Step 5. Order the moves the peeks left open.
		order(ex)

		// Step 6. Search them in order, raising alpha as values come in.
		var ok bool
		if best, ok = t.searchMoves(n, ex, best, alpha, beta, childDepth, &next, nextPit); !ok {
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

// tableMove is the entry's best move, -1 without an entry.
func tableMove(e tt.Entry, hit bool) int {
	if !hit {
		return -1
	}
	return e.Move()
}

// expand sows every move of b into x, computes each child's slot and
// prefetches its bucket at once (step 4), so that the memory latency of one
// child's bucket overlaps the sowing and ranking of the next ones. A child
// the database holds has its database line prefetched instead, unless the
// seeds left settle its move for b's window (alpha, beta): peek never
// reads those (the best so far only raises alpha), and a line fetched for
// nothing costs as much memory traffic as one that is read
// (docs/algorithms.md, Memory and the database).
func (t *thread) expand(b engine.Board, x *expansion, alpha, beta int) {
	n := 0
	for mv := b.Moves(); mv != 0; mv &= mv - 1 {
		i := bits.TrailingZeros8(mv)
		c, res := t.rules.Sow(b, i)
		cd := &x.list[n]
		*cd = candidate{gain: int8(c.OwnStore - b.OwnStore), pit: int8(i), res: res}
		if res&(engine.ResExtra|engine.ResOver) == 0 {
			c = c.Flip()
		}
		cd.child = c
		if !res.Over() {
			switch cs := c.Seeds(); {
			case cs >= t.tabMin:
				cd.slot = t.tab.SlotOf(c.Key(), cs)
				t.tab.Prefetch(cd.slot)
			case cs <= t.dbMax && t.dbPre != nil:
				if _, _, settled := seedSettled(res, int(cd.gain), cs, alpha, beta); !settled {
					t.dbPre.Prefetch(c)
				}
			}
		}
		n++
	}
	x.n = n
}

// expandAhead scores b's moves and, while their children's buckets come
// in, expands into next the child that step 5 will put first unless the
// peeks settle it (the table move, else the first in the static order), so
// that its children's buckets are on their way too when it is searched.
// It returns that child's pit, -1 if none was expanded. When the peeks
// settle the child or cut the node the work is wasted, yet it saves time
// overall (docs/algorithms.md, Memory and the database). It never changes
// the search: the node counts are the same either way.
func (t *thread) expandAhead(b engine.Board, ex *expansion, ttMove int, ttRank int64, next *expansion, alpha, beta int) int {
	j := t.scoreMoves(b, ex.list[:ex.n], ttMove, ttRank)
	if j < 0 || ex.list[j].child.Seeds() <= t.dbMax {
		return -1
	}
	// The child's window is the widest it can be searched with (the best
	// so far only narrows it), so no line it may read goes unfetched.
	cd := &ex.list[j]
	calpha, cbeta := engine.ChildWindow(cd.res, int(cd.gain), alpha, beta)
	t.expand(cd.child, next, calpha, cbeta)
	return int(cd.pit)
}

// scoreMoves sets each move's place in the order of step 5 (the table
// move, then extra turns nearest the store first, then by the seeds the
// move banks, then by the opponent's moves after it, fewest first, ties
// broken by history; the table move gets ttRank on top: enough to go
// first, or only to break ties above history) and returns the index of
// the move that step 5 puts first if the peeks settle nothing; -1 when every move
// ends the game (moves that do are not scored: the peeks settle them).
func (t *thread) scoreMoves(b engine.Board, list []candidate, ttMove int, ttRank int64) int {
	sj, best := -1, int64(-1<<62)
	for j := range list {
		cd := &list[j]
		if cd.res.Over() {
			continue
		}
		score := int64(int(cd.gain)+256)<<28 + int64(t.hist[cd.pit][b.Pit(int(cd.pit))])
		if cd.res.Extra() {
			score += 1<<48 + int64(cd.pit)<<40
		} else {
			// Among moves banking alike, the one leaving the
			// opponent the fewest moves: a cut-off it brings is
			// proven over fewer replies (docs/algorithms.md).
			score += int64(engine.MaxPits-cd.child.NumMoves()) << 24
		}
		if int(cd.pit) == ttMove {
			score += ttRank
		}
		cd.score = score
		if score > best {
			best, sj = score, j
		}
	}
	return sj
}

// peekAll looks at every child before recursing (step 4; Irving's crunch,
// the enhanced transposition cut-off): game ends, database hits and table
// bounds give each move an interval [lo, hi]. A move proving >= beta cuts
// the node: peekAll returns it as the tally, with cut set. An exact move
// needs no search, and a move that cannot beat alpha is dropped, its upper
// bound kept for the fail-soft value: both go into the tally. The moves
// left open go to ex.open, in their order.
func (t *thread) peekAll(b engine.Board, ex *expansion, alpha, beta, depth int) (best tally, cut bool) {
	t.st.Peeks += int64(ex.n)
	best = tally{value: -inf, move: -1}
	k := 0
	for j := 0; j < ex.n; j++ {
		cd := &ex.list[j]
		lo, hi := t.peek(b, cd, depth, max(alpha, best.value), beta)
		if lo >= beta {
			t.st.CutPeek++
			return tally{value: lo, move: int(cd.pit), limited: cd.limited}, true
		}
		if lo == hi || hi <= max(alpha, best.value) {
			best.limited = best.limited || cd.limited
			if hi > best.value {
				best.value, best.move = hi, int(cd.pit)
			}
			continue
		}
		ex.open[k] = int8(j)
		k++
	}
	ex.k = k
	return best, false
}

// peek bounds the value of one move of b from its child alone: the game's
// end, the seeds left, the database and the table, without searching. It
// returns the move's value interval [lo, hi] for b's mover and keeps the
// child's entry in cd for the child's own search. alpha and beta are the
// node's window, alpha raised to the best bound so far: a child in the
// database that its seed count alone settles for them is not read.
func (t *thread) peek(b engine.Board, cd *candidate, depth, alpha, beta int) (lo, hi int) {
	gain := int(cd.gain)
	c := cd.child
	if cd.res.Over() {
		v := gain - int(c.OppStore-b.OppStore)
		return v, v
	}
	cs := c.Seeds()
	clo, chi := -cs, cs
	if cs <= t.dbMax {
		// The database is read only when the seeds left can still
		// matter: a move that the seed bound alone puts at or above
		// beta, or at or below alpha (the best so far), is settled
		// without the read, which costs a cache miss.
		if lo, hi, settled := seedSettled(cd.res, gain, cs, alpha, beta); settled {
			return lo, hi
		}
		if g, ok := t.db.Probe(c); ok {
			t.st.DBHits++
			clo = 2*g - cs
			chi = clo
		}
	} else if cs >= t.tabMin {
		t.st.TTProbes++
		if e, ok := t.tab.Probe(cd.slot); ok {
			t.st.TTHits++
			cd.entry, cd.hit = e, true
			if e.Depth() >= depth {
				clo = max(clo, e.Lower())
				chi = min(chi, e.Upper())
				cd.limited = !e.Solved()
			}
		}
	}
	return engine.MoveBounds(cd.res, gain, clo, chi)
}

// seedSettled bounds a move whose child holds cs seeds by those seeds
// alone and reports whether that settles the move for the window (alpha,
// beta): then peek reads no database line for it, and expand prefetches
// none (one check for both, so that they agree).
func seedSettled(res engine.Result, gain, cs, alpha, beta int) (lo, hi int, settled bool) {
	lo, hi = engine.MoveBounds(res, gain, -cs, cs)
	return lo, hi, lo >= beta || hi <= alpha
}

// order sorts the open moves by score, highest first (step 5): the table
// move, extra turns (nearest the store first), then by the seeds the move
// banks (so captures by their size), then by the opponent's moves after
// it (fewest first), ties broken by history. Insertion
// sort, stable: at most eight moves. (Ordering by the peeked interval, or
// captures before every other move, cost nodes: docs/algorithms.md.)
func order(ex *expansion) {
	for i := 1; i < ex.k; i++ {
		j := ex.open[i]
		score := ex.list[j].score
		x := i
		for ; x > 0 && ex.list[ex.open[x-1]].score < score; x-- {
			ex.open[x] = ex.open[x-1]
		}
		ex.open[x] = j
	}
}

// searchMoves searches n's open moves in order (step 6), each with alpha
// raised to the best value so far, and adds their values to best; it stops at
// the first move that reaches beta. next is the expansion of move nextPit,
// done ahead. ok is false when the thread was stopped.
//
// With several threads (simplified ABDADA): after the first move, a child
// another thread is searching right now is put off until the others are
// done, so that threads spread over the tree; then the put-off ones are
// searched (by then usually answered by the table). At the nodes of the
// side the test started with (rootSide) the first move is put off too:
// those are the nodes a failing test must search every move of, and the
// failing tests are most of the work (docs/algorithms.md, Threads).
func (t *thread) searchMoves(n *candidate, ex *expansion, best tally, alpha, beta, depth int, next *expansion, nextPit int) (_ tally, ok bool) {
	var deferred [engine.MaxPits]int8
	k, nd := ex.k, 0
	for j := 0; j < k+nd; j++ {
		var cd *candidate
		if j < k {
			cd = &ex.list[ex.open[j]]
			if (j > 0 || t.rootSide) && t.marks(cd) && t.busy.isBusy(cd.slot) {
				deferred[nd] = ex.open[j]
				nd++
				continue
			}
		} else {
			cd = &ex.list[deferred[j-k]]
		}
		var ahead *expansion
		if j == 0 && int(cd.pit) == nextPit {
			ahead = next
		}
		// The window goes down and the value comes back through the sign
		// rule (engine/value.go). With several threads the child is marked
		// busy while it is searched.
		gain := int(cd.gain)
		marked := t.marks(cd)
		if marked {
			t.busy.enter(cd.slot)
		}
		calpha, cbeta := engine.ChildWindow(cd.res, gain, max(alpha, best.value), beta)
		turn := !cd.res.Extra() // the move passes the turn
		if turn {
			t.rootSide = !t.rootSide
		}
		cv, proven := t.search(cd, calpha, cbeta, depth, ahead)
		if turn {
			t.rootSide = !t.rootSide
		}
		if marked {
			t.busy.leave(cd.slot)
		}
		if t.aborted {
			return best, false
		}
		v := engine.MoveValue(cd.res, gain, cv)
		best.limited = best.limited || !proven
		if v > best.value {
			best.value, best.move = v, int(cd.pit)
			if v >= beta {
				t.st.CutSearch++
				t.recordCut(n.child, int(cd.pit))
				break
			}
		}
	}
	return best, true
}

// marks reports whether a child searched by this thread is marked busy
// for the other threads: only with several of them, and only a child big
// enough to be worth it (markMin) that has a table slot to mark.
func (t *thread) marks(cd *candidate) bool {
	return t.busy != nil && cd.child.Seeds() >= t.markMin
}

// recordCut credits pit of b with a beta cut-off in the history (by pit
// and the seeds in it, weighted by the seeds on the board), halving every
// counter when one grows large.
func (t *thread) recordCut(b engine.Board, pit int) {
	if h := &t.hist[pit][b.Pit(pit)]; *h < 1<<23 {
		*h += int32(b.Seeds())
	} else {
		t.ageHistory()
	}
}

// ageHistory halves every history counter, so that the counters follow the
// part of the tree being searched and never saturate.
func (t *thread) ageHistory() {
	for i := range t.hist {
		for j := range t.hist[i] {
			t.hist[i][j] >>= 1
		}
	}
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
