package egdb

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/tt"
)

// Ranking. A slice s holds every position with s seeds in the pits and
// neither side empty. One side's pits are a composition of its a seeds into
// m parts (x0..x_{m-1}, zeros allowed); by stars and bars it is the set of
// m-1 bar positions p_j = S_j + j, where S_j = x0+..+xj, and the colex rank
// of that set,
//
//	rankC(X) = sum_{j=0}^{m-2} C(S_j + j, j+1),
//
// is a bijection onto 0..count(m,a)-1 with count(m,a) = C(a+m-1, m-1). It
// does not depend on a, so one table term[j][S] = C(S+j, j+1) serves every
// slice. A position (X of a seeds to move, Y of b = s-a seeds opposite) is
//
//	rank = offset[s][a] + rankC(X)*count(m,b) + rankC(Y),  1 <= a <= s-1,
//
// gapless over the slice, in the order a, then X, then Y. The prefix sums
// S_j are all the lanes of one multiplication (w * 0x0101..01), since no
// sum exceeds 255; lane m-1 is the side's total. The binomials are
// tt.Binom's, copied once into term and count in the order ranking reads
// them, so that a rank is table look-ups.

// Index ranks and unranks the positions of every slice 0..MaxSeeds for one
// pit count. It is read-only after NewIndex and safe for concurrent use.
type Index struct {
	m, maxSeeds int
	term        [engine.MaxPits - 1][256]uint64 // term[j][S] = C(S+j, j+1)
	count       [engine.MaxSeeds + 1]uint64     // count[k] = C(k+m-1, m-1), MaxUint64 if it overflows
	offset      []uint64                        // offset[s*(maxSeeds+1)+a]
	size        []uint64                        // size[s], positions in slice s
}

// maxSliceSize bounds a slice so that ranks are ints and a slice is one
// allocation (2^40 positions, a terabyte: far beyond any build).
const maxSliceSize = 1 << 40

// NewIndex prepares ranking for m pits and slices 0..maxSeeds. It fails if
// m is out of range or a slice would be too large to rank.
func NewIndex(m, maxSeeds int) (*Index, error) {
	if m < 1 || m > engine.MaxPits {
		return nil, fmt.Errorf("pits must be 1..%d, got %d", engine.MaxPits, m)
	}
	if maxSeeds < 0 || maxSeeds > engine.MaxSeeds {
		return nil, fmt.Errorf("seeds must be 0..%d, got %d", engine.MaxSeeds, maxSeeds)
	}
	x := &Index{m: m, maxSeeds: maxSeeds}
	for j := 0; j < m-1; j++ {
		for v := 0; v < 256; v++ {
			x.term[j][v] = tt.Binom(v+j, j+1)
		}
	}
	for k := range x.count {
		x.count[k] = tt.Binom(k+m-1, m-1)
	}
	n := maxSeeds + 1
	x.offset = make([]uint64, n*n)
	x.size = make([]uint64, n)
	for s := 0; s <= maxSeeds; s++ {
		var off uint64
		for a := 1; a < s; a++ {
			x.offset[s*n+a] = off
			hi, lo := bits.Mul64(x.count[a], x.count[s-a])
			if hi != 0 || x.count[a] == math.MaxUint64 || x.count[s-a] == math.MaxUint64 {
				return nil, fmt.Errorf("slice %d of %d pits is too large to rank", s, m)
			}
			off += lo
			if off > maxSliceSize {
				return nil, fmt.Errorf("slice %d of %d pits has more than 2^40 positions", s, m)
			}
		}
		x.size[s] = off
	}
	return x, nil
}

// Pits is m.
func (x *Index) Pits() int { return x.m }

// MaxSeeds is the largest slice the index ranks.
func (x *Index) MaxSeeds() int { return x.maxSeeds }

// Size is the number of positions in slice s.
func (x *Index) Size(s int) int64 { return int64(x.size[s]) }

// subSlice is the ranks of sub-slice a of slice s, the positions whose
// mover holds a seeds (1 <= a <= s-1): count(a)*count(s-a) of them, the
// same number as sub-slice s-a's.
func (x *Index) subSlice(s, a int) span {
	lo := x.first(s, a)
	return span{int64(lo), int64(lo + x.count[a]*x.count[s-a])}
}

// first is the rank of sub-slice a of slice s's first position.
func (x *Index) first(s, a int) uint64 { return x.offset[s*(x.maxSeeds+1)+a] }

// rankSide is rankC of one side's pit word, given its prefix-sum word
// (lane j = S_j); unrolled, since it runs twice per child in a build.
func (x *Index) rankSide(pre uint64) uint64 {
	t := &x.term
	var r uint64
	switch x.m {
	case 8:
		r += t[6][uint8(pre>>48)]
		fallthrough
	case 7:
		r += t[5][uint8(pre>>40)]
		fallthrough
	case 6:
		r += t[4][uint8(pre>>32)]
		fallthrough
	case 5:
		r += t[3][uint8(pre>>24)]
		fallthrough
	case 4:
		r += t[2][uint8(pre>>16)]
		fallthrough
	case 3:
		r += t[1][uint8(pre>>8)]
		fallthrough
	case 2:
		r += t[0][uint8(pre)]
	}
	return r
}

// Rank returns the rank of the position with pit words own (side to move)
// and opp within its slice, and the slice (the seed count). Both sides must
// hold seeds and the total must be at most MaxSeeds.
func (x *Index) Rank(own, opp uint64) (rank int64, s int) {
	po, pp := own*ones, opp*ones
	sh := 8 * uint(x.m-1)
	a, b := int(uint8(po>>sh)), int(uint8(pp>>sh))
	return x.rankPre(po, pp, a, b), a + b
}

// ones has a 1 in every lane: w*ones holds the prefix sums of w's lanes.
const ones = 0x0101010101010101

// rankPre ranks from the prefix-sum words po, pp of sides holding a and b
// seeds.
func (x *Index) rankPre(po, pp uint64, a, b int) int64 {
	return int64(x.first(a+b, a) + x.rankSide(po)*x.count[b] + x.rankSide(pp))
}

// Unrank returns the pit words of the position of rank r in slice s.
func (x *Index) Unrank(s int, r int64) (own, opp uint64) {
	u := uint64(r)
	a := 1
	for a+1 < s && x.first(s, a+1) <= u {
		a++
	}
	u -= x.first(s, a)
	cb := x.count[s-a]
	return x.unrankSide(a, u/cb), x.unrankSide(s-a, u%cb)
}

// unrankSide returns the composition of a seeds with colex rank r.
func (x *Index) unrankSide(a int, r uint64) uint64 {
	m := x.m
	var w uint64
	next := a // S_{j+1}
	for j := m - 2; j >= 0; j-- {
		// Largest S_j in 0..S_{j+1} with term[j][S_j] <= r.
		sj := next
		for x.term[j][sj] > r {
			sj--
		}
		r -= x.term[j][sj]
		w |= uint64(next-sj) << (8 * uint(j+1))
		next = sj
	}
	return w | uint64(next)
}

// firstSide is the composition of rank 0: all a seeds in the last pit.
func (x *Index) firstSide(a int) uint64 { return uint64(a) << (8 * uint(x.m-1)) }

// nextSide steps a composition to the next colex rank; last reports that w
// was the last one (all seeds in pit 0) and nothing was done. With k the
// lowest non-empty pit above pit 0, it moves pit 0's t seeds and one seed of
// pit k to pit k-1.
func nextSide(w uint64) (uint64, bool) {
	hi := w &^ 0xff
	if hi == 0 {
		return w, true
	}
	k := uint(bits.TrailingZeros64(hi)) &^ 7
	t := w & 0xff
	return w - 1<<k - t + (t+1)<<(k-8), false
}

// Cursor walks the positions of one slice in rank order.
type Cursor struct {
	x        *Index
	s, a     int
	Own, Opp uint64 // the current position's pit words, side to move first
	Rank     int64  // its rank
	Col      uint64 // rankC of Opp: the position's column in its row
	left     int64
	fresh    bool
}

// Cursor returns a cursor over the n positions of slice s from rank r.
func (x *Index) Cursor(s int, r, n int64) Cursor {
	c := Cursor{x: x, s: s, Rank: r, left: n, fresh: true}
	if n > 0 {
		c.Own, c.Opp = x.Unrank(s, r)
		c.a = engine.LaneSum(c.Own)
		c.Col = (uint64(r) - x.first(s, c.a)) % x.count[s-c.a]
	}
	return c
}

// Next moves to the next position and reports whether there is one; call it
// before reading the first.
func (c *Cursor) Next() bool {
	if c.left == 0 {
		return false
	}
	c.left--
	if c.fresh {
		c.fresh = false
		return true
	}
	c.Rank++
	c.Col++
	var last bool
	if c.Opp, last = nextSide(c.Opp); !last {
		return true
	}
	c.Col = 0
	c.Opp = c.x.firstSide(c.s - c.a)
	if c.Own, last = nextSide(c.Own); !last {
		return true
	}
	c.a++
	c.Own = c.x.firstSide(c.a)
	c.Opp = c.x.firstSide(c.s - c.a)
	return true
}
