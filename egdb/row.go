package egdb

import (
	"math/bits"
	"unsafe"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/internal/prefetch"
)

// A row of a sub-slice is the positions whose mover's pits are the same
// composition X (of a seeds), one for each composition Y of the other
// side's b seeds, in consecutive ranks (index.go). run walks a row from
// one end to the other, so what a move does to X alone is worked out once
// a row instead of once a position. A move that stops short of the store
// or ends in it does not touch Y: its child is X' opposite Y (flipped), X'
// to move again opposite Y, or after a capture X' less the capturing pit
// opposite Y less the captured one, and its rank is the row's precomputed
// terms plus Y's column (its rankC, which the cursor keeps) or, after a
// capture of seeds, a rank of Y less the pit. Only the moves that reach Y
// are sown in full. A position valued by recursion (value) has its row
// worked out for it alone in a second table: even so a position ranks Y
// once instead of once a move, and sows none of the moves above.

// Kinds of a row's move.
const (
	moveFull  = iota // sown in full for each position (reaches Y)
	moveShort        // stops on a non-empty own pit: child (Y, X') in the slice
	moveExtra        // ends in the store, X' not empty: child (X', Y) in slice s-1
	moveOver         // ends in the store, X' empty: the game ends
	moveEmpty        // stops on an own pit that was empty: a capture, or a short move
)

// rowMove is one move of a row: its pit, kind, and for the kinds that do
// not touch Y, X' and rankC(X') (and for a move that ends on an empty pit,
// that pit, and X' less it with its rankC: the mover's side after a
// capture).
type rowMove struct {
	pit, kind int
	xp        uint64 // X' (short, extra, empty)
	rank      uint64 // rankC(X')
	last      uint   // the pit the last seed fell in (empty)
	xc        uint64 // X' with pit last emptied (empty)
	rankC     uint64 // rankC(xc) (empty)
}

// row holds the moves of the row of X and the rank terms they share. x
// is 0 until the first setRow: no position's side is empty.
type row struct {
	x     uint64
	n     int
	moves [engine.MaxPits]rowMove
	// A short move's child ranks short + col*countA + rankC(X'); an extra
	// turn's child extra + rankC(X')*countB + col.
	short, extra   uint64
	countA, countB uint64
	a, b           int
}

// setRow works out the moves of the row of own (a seeds) in slice s.
func (w *slicer) setRow(rw *row, own uint64) {
	x, m, s := w.x, w.rules.Pits, w.s
	a := engine.LaneSum(own)
	b := s - a
	rw.x, rw.n, rw.a, rw.b = own, 0, a, b
	rw.countA, rw.countB = x.count[a], x.count[b]
	rw.short = x.first(s, b)
	if a >= 2 {
		rw.extra = x.first(s-1, a-1)
	}
	for mv := (engine.Board{Own: own}).Moves(); mv != 0; mv &= mv - 1 {
		i := bits.TrailingZeros8(mv)
		k := int(own >> (8 * uint(i)) & 0xff)
		rm := rowMove{pit: i, kind: moveFull}
		if k <= m-i {
			// The seeds go to pits i+1..i+k (i+k = m: the store): one
			// in each lane i+1..min(i+k, m-1).
			e := uint(min(i+k, m-1))
			xp := own&^(0xff<<(8*uint(i))) + ones<<(8*uint(i+1))&(ones>>(8*(7-e)))
			switch {
			case k == m-i && xp == 0:
				rm.kind = moveOver
			case k == m-i:
				rm.kind, rm.xp = moveExtra, xp
				rm.rank = x.rankSide(xp * ones)
			case own>>(8*uint(i+k))&0xff != 0:
				rm.kind, rm.xp = moveShort, xp
				rm.rank = x.rankSide(xp * ones)
			default:
				rm.kind, rm.xp, rm.last = moveEmpty, xp, uint(i+k)
				if w.rules.Rule != engine.EmptyCapture {
					rm.rank = x.rankSide(xp * ones) // no capture opposite an empty pit
				}
				rm.xc = xp &^ (0xff << (8 * rm.last))
				rm.rankC = x.rankSide(rm.xc * ones)
			}
		}
		rw.moves[rw.n] = rm
		rw.n++
	}
}

// sowRow sows every move of the position (own, opp), whose opp has rankC
// col, into kids, ranks each child and prefetches its line, taking the
// moves that do not touch opp from the table rw of own's row (worked out
// first if rw holds another row); it returns the number of moves.
func (w *slicer) sowRow(rw *row, own, opp, col uint64, kids *[engine.MaxPits]kid) int {
	if rw.x != own {
		w.setRow(rw, own)
	}
	b := engine.Board{Own: own, Opp: opp}
	for n := range rw.n {
		rm := &rw.moves[n]
		kd := &kids[n]
		switch rm.kind {
		case moveShort:
			w.shortKid(rw, rm, opp, col, kd)
		case moveExtra:
			*kd = kid{res: engine.ResExtra, k: 1, s2: w.s - 1, r: int64(rw.extra + rm.rank*rw.countB + col)}
			w.lower[kd.s2].prefetch(kd.r)
		case moveOver:
			*kd = kid{res: engine.ResOver, k: 1}
		case moveEmpty:
			w.capture(rw, rm, opp, col, kd)
		default:
			w.sowMove(b, rm.pit, kd)
		}
	}
	return rw.n
}

// shortKid fills kd for a move of the row that banks nothing: its child
// (opp, X') is in the slice being built, its line prefetched.
func (w *slicer) shortKid(rw *row, rm *rowMove, opp, col uint64, kd *kid) {
	*kd = kid{own: opp, opp: rm.xp, s2: w.s, r: int64(rw.short + col*rw.countA + rm.rank)}
	prefetch.Line((*byte)(unsafe.Pointer(&w.cur[kd.r>>2])))
}

// capture fills kd for a move of the row that ended on an own pit that was
// empty, opposite opp (of rankC col).
func (w *slicer) capture(rw *row, rm *rowMove, opp, col uint64, kd *kid) {
	x, m := w.x, uint(w.rules.Pits)
	sh := 8 * (m - 1 - rm.last)
	o := int(opp >> sh & 0xff)
	if o == 0 && w.rules.Rule != engine.EmptyCapture {
		w.shortKid(rw, rm, opp, col, kd) // nothing happens
		return
	}
	// The seed and the o opposite go to the store; the mover's side (xc)
	// keeps a-1 seeds, the other (yc) b-o.
	yc := opp &^ (0xff << sh)
	if rm.xc == 0 || yc == 0 {
		// The game ends; the mover's side is swept into its store (xc
		// is empty, or yc is and xc's seeds are the mover's).
		*kd = kid{res: engine.ResCapture | engine.ResOver, k: o + 1 + engine.LaneSum(rm.xc)}
		return
	}
	a2, b2 := rw.a-1, rw.b-o
	s2 := a2 + b2
	yr := col
	if o != 0 {
		yr = x.rankSide(yc * ones)
	}
	*kd = kid{res: engine.ResCapture, k: o + 1, s2: s2, r: int64(x.first(s2, b2) + yr*x.count[a2] + rm.rankC)}
	w.lower[s2].prefetch(kd.r)
}
