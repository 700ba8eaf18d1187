package solver

import (
	"sync/atomic"

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
// threads down to its cost on one with as many nodes (docs/algorithms.md,
// Threads). With an endgame database the table's threshold is
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
