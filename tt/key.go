package tt

import (
	"math/bits"

	"github.com/kalah-solver/kalah/engine"
)

// Exact keys. A table codes each position as a number, mixes the number
// and splits it into bucket and tag.
//
// The nibble code, used when every pit holds at most 15 seeds (nearly every
// position of a game with up to six seeds a pit) and the table's code width
// has room for it: the 2m counts packed four bits each, the mover's side in
// the low 4m bits. Eight shifts and masks, against twelve table look-ups
// for the rank below.
//
// The rank code, for every other position: 2^(8m) (above every nibble code)
// plus the rank below.
//
// A position's pits (2m counts, the mover's side first) are
// ranked in the combinatorial number system: with prefix sums P_i = c_0 +
// ... + c_i, the points p_i = P_i + i are strictly increasing, and
//
//	rank = sum_i C(p_i, i+1)
//
// is a bijection from the positions with at most T seeds onto
// [0, C(T+2m, 2m)). The rank does not depend on T, so one table serves every
// position whose rank fits its rank width R (positions with more seeds are
// simply not cached). A bijective mix of the R-bit rank (xor-shift and
// multiply by odd constants, both invertible modulo 2^R) spreads it; the low
// bits pick the bucket and the rest are the entry's tag. Bucket index plus
// tag give back the rank and so the position: no false positives.

const maxPoint = engine.MaxSeeds + 2*engine.MaxPits

// binom[n][k] = C(n, k), saturated at 2^64-1.
var binom [maxPoint + 1][2*engine.MaxPits + 1]uint64

func init() {
	for n := 0; n <= maxPoint; n++ {
		binom[n][0] = 1
		for k := 1; k <= 2*engine.MaxPits && k <= n; k++ {
			s, carry := bits.Add64(binom[n-1][k-1], binom[n-1][k], 0)
			if carry != 0 {
				s = ^uint64(0)
			}
			binom[n][k] = s
		}
	}
}

// Binom returns C(n, k) for 0 <= n <= MaxSeeds+16, 0 <= k <= 16 (0 when
// k > n), saturated at 2^64-1: a table look-up. It is the toolkit's binomial
// in machine words (the endgame database's index is built from it too);
// sizes past 64 bits are counted with math/big in package egdb.
func Binom(n, k int) uint64 { return binom[n][k] }

// Rank returns the combinatorial rank of k's 2m pits (see above). It is
// exact whenever C(seeds+2m, 2m) fits in 64 bits.
func Rank(m int, k engine.Key) uint64 {
	var r uint64
	ps := k.Own * 0x0101010101010101 // lane i: seeds in own pits 0..i
	for i := 0; i < m; i++ {
		r += binom[int(ps>>(8*uint(i))&0xff)+i][i+1]
	}
	base := int(ps >> (8 * uint(m-1)) & 0xff)
	ps = k.Opp * 0x0101010101010101
	for i := 0; i < m; i++ {
		r += binom[base+int(ps>>(8*uint(i))&0xff)+m+i][m+i+1]
	}
	return r
}

// highNibbles has the high half of every lane: a key whose lanes all miss
// it has at most 15 seeds in every pit.
const highNibbles = 0xf0f0f0f0f0f0f0f0

// packNibbles gathers the low nibble of each of w's eight lanes: lane i to
// bits 4i..4i+3.
func packNibbles(w uint64) uint64 {
	w = (w | w>>4) & 0x00ff00ff00ff00ff
	w = (w | w>>8) & 0x0000ffff0000ffff
	return (w | w>>16) & 0xffffffff
}

// unpackNibbles inverts packNibbles.
func unpackNibbles(w uint64) uint64 {
	w = (w | w<<16) & 0x0000ffff0000ffff
	w = (w | w<<8) & 0x00ff00ff00ff00ff
	return (w | w<<4) & 0x0f0f0f0f0f0f0f0f
}

// coder turns keys of m pits a side into exact codes and back: nibble
// codes (if nibbles) below rankBase, rank codes from rankBase on.
type coder struct {
	m        int
	rankBase uint64 // 2^(8m) with nibble codes, else 0
}

func newCoder(m int, width uint) coder {
	if uint(8*m) < width {
		return coder{m: m, rankBase: 1 << (8 * uint(m))}
	}
	return coder{m: m}
}

// nibbles reports whether the coder uses nibble codes.
func (c coder) nibbles() bool { return c.rankBase != 0 }

func (c coder) code(k engine.Key) uint64 {
	if c.nibbles() && (k.Own|k.Opp)&highNibbles == 0 {
		return packNibbles(k.Own) | packNibbles(k.Opp)<<(4*uint(c.m))
	}
	return c.rankBase + Rank(c.m, k)
}

func (c coder) key(code uint64) engine.Key {
	if code < c.rankBase {
		half := 4 * uint(c.m)
		return engine.Key{Own: unpackNibbles(code & (1<<half - 1)), Opp: unpackNibbles(code >> half)}
	}
	return Unrank(c.m, code-c.rankBase)
}

// Unrank inverts Rank for m pits a side.
func Unrank(m int, r uint64) engine.Key {
	var c [2 * engine.MaxPits]int
	top := maxPoint
	prev := 0
	pts := make([]int, 2*m)
	for i := 2*m - 1; i >= 0; i-- {
		// largest p with C(p, i+1) <= r
		p := top
		for binom[p][i+1] > r {
			p--
		}
		r -= binom[p][i+1]
		pts[i] = p
		top = p - 1
	}
	for i := 0; i < 2*m; i++ {
		c[i] = pts[i] - i - prev
		prev = pts[i] - i
	}
	var k engine.Key
	for i := 0; i < m; i++ {
		k.Own |= uint64(c[i]) << (8 * uint(i))
		k.Opp |= uint64(c[m+i]) << (8 * uint(i))
	}
	return k
}

// mixer is a bijection on [0, 2^w).
type mixer struct {
	w     uint
	mask  uint64
	shift uint
}

func newMixer(w uint) mixer {
	mask := ^uint64(0)
	if w < 64 {
		mask = 1<<w - 1
	}
	return mixer{w: w, mask: mask, shift: (w + 1) / 2}
}

const (
	mul1 = 0xbf58476d1ce4e5b9
	mul2 = 0x94d049bb133111eb
)

func (x mixer) mix(v uint64) uint64 {
	v ^= v >> x.shift
	v = v * mul1 & x.mask
	v ^= v >> x.shift
	v = v * mul2 & x.mask
	v ^= v >> x.shift
	return v
}

// unmix inverts mix.
func (x mixer) unmix(v uint64) uint64 {
	v = x.unxorshift(v)
	v = v * inverse(mul2) & x.mask
	v = x.unxorshift(v)
	v = v * inverse(mul1) & x.mask
	return x.unxorshift(v)
}

func (x mixer) unxorshift(v uint64) uint64 {
	// v = u ^ u>>s with s >= w/2 is its own inverse.
	return v ^ v>>x.shift
}

// inverse is the multiplicative inverse of an odd a modulo 2^64 (Newton).
func inverse(a uint64) uint64 {
	x := a
	for i := 0; i < 6; i++ {
		x *= 2 - a*x
	}
	return x
}
