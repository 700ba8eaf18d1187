package players

// This is the searches' hot file: the two solution concepts' recursions.
//
// Both work with gains: what each player still banks from a position to
// the end of the game. A position's future depends only on its pits and
// the player to move, never on the stores, so gains are what the tables
// keep, and positions that differ only in their stores share an entry; a
// final store is the current store plus the gain.
//
// The game graph has no cycles: a move that banks no seed (no seed in the
// store, no capture) sows only along the mover's own row, moving seeds to
// higher pit indices, so the sum over all rows of pit index x seeds grows;
// any other move lowers the seeds in play. Plain recursion with memoized
// values therefore terminates and its values are exact.
//
// Max^n (maxnSearch.value): the player to move picks the move with the
// largest own gain; among equal ones, the lowest pit index. The value of a
// position is then one vector, kept exactly.
//
// Paranoid (paranoidSearch.search): the root player maximises its own gain,
// every other player minimises it: two-player zero-sum alpha-beta,
// fail-soft, the window clamped to [0, seeds in play] (nobody banks more
// than the seeds left, nor less than nothing), with a transposition table
// of bounds and the move that last proved one.

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"time"
)

// key is a position without its stores: every pit of every player, w bits
// each, then the seat to move in the top two bits.
type key [2]uint64

// keyer packs boards of one search (w bits a pit: enough for the seeds in
// play at the root, which never grow).
type keyer struct {
	k, m int
	w    uint
}

// ErrTooBig: the position does not fit a key, or the search its bound.
var ErrTooBig = errors.New("too big")

func newKeyer(r Variant, b Board) (keyer, error) {
	w := uint(bits.Len(uint(b.Seeds())))
	if r.Players*r.Pits*int(w) > 126 {
		return keyer{}, fmt.Errorf("%w: %d pits of %d bits do not fit the search's 128-bit key", ErrTooBig, r.Players*r.Pits, w)
	}
	return keyer{k: r.Players, m: r.Pits, w: w}, nil
}

func (kr keyer) key(b Board) key {
	var out key
	pos := uint(0)
	for p := 0; p < kr.k; p++ {
		x := b.Pits[p]
		for i := 0; i < kr.m; i++ {
			v := x & 0xff
			x >>= 8
			j, off := pos>>6, pos&63
			out[j] |= v << off
			if off+kr.w > 64 {
				out[j+1] |= v >> (64 - off)
			}
			pos += kr.w
		}
	}
	out[1] |= uint64(b.ToMove) << 62
	return out
}

// pollEvery is how many nodes pass between looks at the context.
const pollEvery = 1 << 16

// packStores packs the four stores into one word, seat p in byte p.
func packStores(b Board) uint32 {
	return uint32(b.Stores[0]) | uint32(b.Stores[1])<<8 | uint32(b.Stores[2])<<16 | uint32(b.Stores[3])<<24
}

// maxnSearch computes max^n gain vectors (seat p's gain in byte p).
type maxnSearch struct {
	r     Variant
	rk    ranker
	memo  *maxnTable
	limit int // most positions memo may hold, 0 unbounded
	nodes uint64
	ctx   context.Context
	err   error

	prog *progress
}

// progress reports a search's counters about every every.
type progress struct {
	fn    func(nodes uint64, entries int, tableSize int64) // nil: none
	every time.Duration
	last  time.Time
}

// due says whether a report is due, and if so restarts the clock.
func (p *progress) due() bool {
	if p.fn == nil {
		return false
	}
	now := time.Now()
	if now.Sub(p.last) < p.every {
		return false
	}
	p.last = now
	return true
}

// value returns the gains of b under max^n; b is not over.
func (s *maxnSearch) value(b Board) uint32 {
	k := s.rk.key(b)
	if v, ok := s.memo.lookup(k); ok {
		return s.memo.unpackGains(v, b.Seeds())
	}
	if s.nodes++; s.nodes%pollEvery == 0 && s.err == nil {
		s.err = s.ctx.Err()
		if s.prog.due() {
			s.prog.fn(s.nodes, s.memo.used, s.memo.Bytes())
		}
	}
	if s.err != nil {
		return 0
	}
	sh := 8 * uint(b.ToMove)
	best, bestOwn := uint32(0), -1
	for mv := b.Moves(); mv != 0; mv &= mv - 1 {
		g := s.move(b, lowBit(mv))
		if own := int(g >> sh & 0xff); own > bestOwn {
			best, bestOwn = g, own
		}
	}
	if s.err == nil {
		switch {
		case s.limit > 0 && s.memo.used >= s.limit:
			s.err = fmt.Errorf("%w: max^n table passed %d positions", ErrTooBig, s.limit)
		case !s.memo.insert(k, s.memo.packGains(best)):
			s.err = fmt.Errorf("%w: max^n table full at %d positions (%d slots, %d bytes, %.1f bytes a position)",
				ErrTooBig, s.memo.used, s.memo.n, s.memo.Bytes(), float64(s.memo.Bytes())/float64(max(s.memo.used, 1)))
		}
	}
	return best
}

// move returns the gains of playing pit i of b: what the move banks for
// every player (byte-wise store differences never borrow: stores only
// grow) plus the child's value.
func (s *maxnSearch) move(b Board, i int) uint32 {
	c, res := s.r.Play(b, i)
	g := packStores(c) - packStores(b)
	if !res.Over() {
		g += s.value(c)
	}
	return g
}

// bound is a paranoid table entry: the root player's gain from the
// position lies in [lo, hi]; move is the pit that last proved a bound
// (0xff: none).
type bound struct{ lo, hi, move uint8 }

// paranoidSearch computes the root player's gain when every other player
// plays against it.
type paranoidSearch struct {
	r     Variant
	kr    keyer
	root  uint8 // the seat whose gain is the value
	memo  *table
	nodes uint64
	ctx   context.Context
	err   error
	prog  *progress
}

// child is one move of a node, played.
type child struct {
	b     Board
	res   Result
	pit   uint8
	imm   int16 // the root's gain by the move itself (banked and swept)
	order int16 // sort key, smaller first
}

// search returns the root player's gain from b (not over) under the
// fail-soft contract: a result v <= alpha is an upper bound of the true
// gain, v >= beta a lower bound, anything between exact.
func (s *paranoidSearch) search(b Board, alpha, beta int) int {
	// 1. Table and window: the entry's bounds (or [0, seeds]) may answer
	// at once, and otherwise narrow the window.
	k := s.kr.key(b)
	seeds := b.Seeds()
	e, ok := s.memo.get(k, s.root)
	if !ok {
		e = bound{0, uint8(seeds), 0xff}
	}
	lo, hi := int(e.lo), int(e.hi)
	switch {
	case lo == hi, lo >= beta:
		return lo
	case hi <= alpha:
		return hi
	}
	alpha, beta = max(alpha, lo), min(beta, hi)
	if s.nodes++; s.nodes%pollEvery == 0 && s.err == nil {
		s.err = s.ctx.Err()
		if s.prog.due() {
			s.prog.fn(s.nodes, s.memo.used, int64(len(s.memo.slots))*entryBytes)
		}
	}
	if s.err != nil {
		return lo
	}

	// 2. Play every move, then order: the table's move, extra turns,
	// then by what the move banks for the root (most first for the root,
	// least first for its opponents).
	maximize := b.ToMove == s.root
	var kids [MaxPits]child
	n := 0
	for mv := b.Moves(); mv != 0; mv &= mv - 1 {
		i := lowBit(mv)
		c, res := s.r.Play(b, i)
		ch := child{b: c, res: res, pit: uint8(i)}
		ch.imm = int16(int(c.Stores[s.root]) - int(b.Stores[s.root]))
		ch.order = -ch.imm
		if !maximize {
			ch.order = ch.imm
		}
		if res.Extra() {
			ch.order -= 512
		}
		if uint8(i) == e.move {
			ch.order = -1024
		}
		j := n
		for ; j > 0 && kids[j-1].order > ch.order; j-- {
			kids[j] = kids[j-1]
		}
		kids[j] = ch
		n++
	}

	// 3. Minimax with cut-offs; a child's window is shifted by what the
	// move banks for the root.
	a, bt := alpha, beta
	best, bestMove := 256, uint8(0xff)
	if maximize {
		best = -1
	}
	for _, ch := range kids[:n] {
		v := int(ch.imm)
		if !ch.res.Over() {
			v += s.search(ch.b, a-v, bt-v)
		}
		if maximize {
			if v > best {
				best, bestMove = v, ch.pit
			}
			a = max(a, best)
		} else {
			if v < best {
				best, bestMove = v, ch.pit
			}
			bt = min(bt, best)
		}
		if a >= bt {
			break
		}
	}
	if s.err != nil {
		return lo
	}

	// 4. Save what the result proves.
	switch {
	case best <= alpha:
		hi = best
	case best >= beta:
		lo = best
	default:
		lo, hi = best, best
	}
	s.memo.put(k, s.root, seeds, bound{uint8(lo), uint8(hi), bestMove})
	return best
}

// exact returns the root's exact gain from b (not over).
func (s *paranoidSearch) exact(b Board) int { return s.search(b, -1, b.Seeds()+1) }

// is reports whether the root's gain from b (not over) is exactly v.
func (s *paranoidSearch) is(b Board, v int) bool { return s.search(b, v-1, v+1) == v }
