package solver

import (
	"sync/atomic"

	"github.com/kalah-solver/kalah/tt"
)

// busyMinSeeds: only children with at least this many seeds are marked
// busy; below it subtrees are too small to be worth spreading.
const busyMinSeeds = 12

// busyTable counts, per position hash, the workers searching it right now
// (a hash collision only makes a worker put a move off needlessly; it never
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
