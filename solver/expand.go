package solver

import (
	"math/bits"

	"github.com/kalah-solver/kalah/engine"
)

// Expanding a node, and prefetching what its peeks will read.
//
// The search waits on memory, not on arithmetic: every child's peek reads
// a table bucket or a database line that is rarely in the processor's
// cache. So expand starts each child's load as soon as the child is sown,
// and the node expands ahead the child it will likely search first, so
// that the loads of the grandchildren are under way as well when the
// node's own peeks wait for theirs. Neither changes what the search
// visits: the node counts are the same with or without them.

// expand sows every move of b into x (step 4) and starts loading what the
// peek of each child will read (prefetch), so that the memory latency of
// one child's load overlaps the sowing of the next ones. alpha and beta
// are b's window.
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
			t.prefetch(cd, alpha, beta)
		}
		n++
	}
	x.n = n
}

// prefetch computes the table slot of cd's child, if the child uses the
// table, and starts loading its bucket; a child the database holds has its
// database line loaded instead, unless the seeds left settle its move for
// the window (alpha, beta): peek never reads those (the best so far only
// raises alpha), and a line fetched for nothing costs as much memory
// traffic as one that is read (record design-egdb-prefetch,
// docs/benchmarks.md).
func (t *thread) prefetch(cd *candidate, alpha, beta int) {
	c := cd.child
	switch cs := c.Seeds(); {
	case cs >= t.tabMin:
		cd.slot = t.tab.SlotOf(c.Key(), cs)
		t.tab.Prefetch(cd.slot)
	case cs <= t.dbMax && t.dbPre != nil:
		if _, _, settled := seedSettled(cd.res, int(cd.gain), cs, alpha, beta); !settled {
			t.dbPre.Prefetch(c)
		}
	}
}

// expandAhead expands into next, while the buckets of ex's children come
// in, the child ex.list[j]: the one step 5 will put first unless the peeks
// settle it (scoreMoves' choice, -1 for none). It returns that child's
// pit, -1 if none was expanded. When the peeks settle the child or cut
// the node the work is wasted, yet it saves time overall
// (record design-prefetch, docs/benchmarks.md).
func (t *thread) expandAhead(ex *expansion, j int, next *expansion, alpha, beta int) int {
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
