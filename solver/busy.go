package solver

import (
	"sync/atomic"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/tt"
)

// busyMinSeeds: only children with at least this many seeds are marked
// busy; below it subtrees are too small to be worth spreading.
const busyMinSeeds = 12

// markMin is the fewest seeds a child needs to be marked busy in a search
// from a root of rootSeeds seeds: busyMinSeeds, the table's threshold (a
// mark needs a slot), and half the root's seeds. A mark costs two atomic
// read-modify-writes on a counter that is rarely in the cache and that the
// other thread may hold: two cache misses a node that the processor cannot
// overlap. Marking only children of at least half the root's seeds, where
// the subtrees worth spreading are, keeps most of a node's cost on two
// threads down to its cost on one with as many nodes (record
// design-busy-marks, docs/benchmarks.md). With an endgame database the table's threshold is
// usually the larger.
func markMin(rootSeeds, tabMin int) int {
	return max(busyMinSeeds, tabMin, rootSeeds/2)
}

// busyTable counts, per position hash, the threads searching it right now
// (a hash collision only makes a thread put a move off needlessly; it never
// changes a value).
type busyTable struct {
	n []atomic.Int32
}

const busyBits = 16

func newBusyTable() *busyTable { return &busyTable{n: make([]atomic.Int32, 1<<busyBits)} }

func (t *busyTable) at(s tt.Slot) *atomic.Int32 {
	return &t.n[s.Hash()*0x9e3779b97f4a7c15>>(64-busyBits)]
}

func (t *busyTable) isBusy(s tt.Slot) bool { return s.Valid() && t.at(s).Load() > 0 }

func (t *busyTable) enter(s tt.Slot) {
	if s.Valid() {
		t.at(s).Add(1)
	}
}

func (t *busyTable) leave(s tt.Slot) {
	if s.Valid() {
		t.at(s).Add(-1)
	}
}

// searchMovesShared is step 6 with several threads (simplified ABDADA):
// after the first move, a child another thread is searching right now is
// put off until the others are done, so that the threads spread over the
// tree; then the put-off ones are searched (by then usually answered by
// the table). At the nodes of the side the test started with (rootSide)
// the first move is put off too: those are the nodes a failing test must
// search every move of, and the failing tests are most of the work
// (record design-first-move-off). Otherwise it is searchMoves.
func (t *thread) searchMovesShared(x *node, best tally) tally {
	var deferred [engine.MaxPits]int8
	nd := 0
	for j := 0; j < x.ex.k; j++ {
		i := x.ex.open[j]
		cd := &x.ex.list[i]
		if (j > 0 || t.rootSide) && t.marks(cd) && t.busy.isBusy(cd.slot) {
			deferred[nd] = i
			nd++
			continue
		}
		if t.searchMarked(x, cd, j == 0, &best) {
			return best
		}
	}
	for _, i := range deferred[:nd] {
		if t.searchMarked(x, &x.ex.list[i], false, &best) {
			return best
		}
	}
	return best
}

// searchMarked is searchMove with cd's child marked busy while it is
// searched, when it is worth marking.
func (t *thread) searchMarked(x *node, cd *candidate, first bool, best *tally) (done bool) {
	if !t.marks(cd) {
		return t.searchMove(x, cd, first, best)
	}
	t.busy.enter(cd.slot)
	done = t.searchMove(x, cd, first, best)
	t.busy.leave(cd.slot)
	return done
}

// marks reports whether a child searched by this thread is marked busy
// for the other threads: only with several of them, and only a child big
// enough to be worth it (markMin) that has a table slot to mark.
func (t *thread) marks(cd *candidate) bool {
	return t.busy != nil && cd.child.Seeds() >= t.markMin
}
