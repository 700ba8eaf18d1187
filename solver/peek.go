package solver

import "github.com/kalah-solver/kalah/engine"

// Peeking (step 4): each move is bounded from its child alone before any
// is searched (Irving's crunch; the enhanced transposition cut-off). The
// game's end, the database and the child's table entry often settle a
// move, or cut the node, for the price of a look-up.

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
