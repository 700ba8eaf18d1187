package solver

import (
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/tt"
)

// Move order (step 5). A cut-off found by the first move searched spares
// the search of every other, so the moves likeliest to reach beta go
// first: the table's move, extra turns, the seeds a move banks, the
// opponent's replies, and a history of the cut-offs found so far
// (records design-move-order and design-opponent-moves,
// docs/benchmarks.md).

// scoreMoves sets the place of each of ex's moves in the order of step 5
// (the table move, then extra turns nearest the store first, then by the
// seeds the move banks, then by the opponent's moves after it, fewest
// first, ties broken by history; the table move of the node's entry e, if
// hit, gets tableRank on top) and returns the index of the move that step
// 5 puts first if the peeks settle nothing; -1 when every move ends the
// game (moves that do are not scored: the peeks settle them). It runs
// before the peeks so that the first move can be expanded ahead while
// they wait (expandAhead).
func (t *thread) scoreMoves(b engine.Board, ex *expansion, e tt.Entry, hit bool) int {
	ttMove, ttRank := tableMove(e, hit), t.tableRank(e, hit)
	sj, best := -1, int64(-1<<62)
	for j := range ex.list[:ex.n] {
		cd := &ex.list[j]
		if cd.res.Over() {
			continue
		}
		score := int64(int(cd.gain)+256)<<28 + int64(t.hist[cd.pit][b.Pit(int(cd.pit))])
		if cd.res.Extra() {
			score += 1<<48 + int64(cd.pit)<<40
		} else {
			// Among moves banking alike, the one leaving the
			// opponent the fewest moves: a cut-off it brings is
			// proven over fewer replies (record design-opponent-moves).
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

// tableRank is what the table's move gets on top of its score: enough to
// go first, except where the entry is depth-limited and the node is not
// of the test's root mover (the side that refutes in a failing test):
// there it only breaks ties above history, the move best for the
// horizon's score not being the one cheapest to prove
// (record design-deepening-move).
func (t *thread) tableRank(e tt.Entry, hit bool) int64 {
	if hit && !e.Solved() && !t.rootSide {
		return 1 << 23 // above history only
	}
	return 1 << 50 // first
}

// tableMove is the entry's best move, -1 without an entry.
func tableMove(e tt.Entry, hit bool) int {
	if !hit {
		return -1
	}
	return e.Move()
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
