package players

// The max^n table: every position of the game graph the search meets, with
// its gain vector, in an array of bit-packed entries that doubles up to a
// memory budget.
//
// A position is keyed by its pits and the player to move (the stores do not
// change the future). The key is a number below k * C(S+P, P), P = km pits
// and S the seeds in play at the root: the pit vector's rank among all
// vectors of P counts summing to at most S, in the combinatorial number
// system (the prefix sums s_1 <= s_2 <= ... <= s_P become the strictly
// increasing c_i = s_i + i - 1 < S + P, ranked as sum C(c_i, i)), times k,
// plus the mover. 3-player Kalah(4,3) needs 38 bits, 4-player Kalah(4,3) 51.
//
// The key goes through a bijection h of [0, 2^b) (b the key's bits), and
// the table of N slots is open addressing with Robin Hood linear probing
// from the home slot floor(h N / 2^b). The h sharing a home form a run of
// at most ceil(2^b / N) consecutive numbers, so h's low r bits, 2^r >=
// ceil(2^b / N), tell them apart: an entry keeps only those (quotienting),
// with its distance from home.
//
//	entry (eb bits):  [ gains of seats 0..k-2, w bits each | h mod 2^r | dist+1 (8 bits; 0 empty) ]
//
// The last seat's gain is the seeds in play minus the others' (every seed
// in play ends in some store). Entries are packed back to back in 64-bit
// words: 3-player Kalah(4,3) takes 27 bits a slot in an 8 GiB table,
// 4-player Kalah(4,2) 40. The table never deletes. When 80% of its slots
// are used it doubles (rebuilding every h from its home and kept bits), up
// to two thirds of the budget, so that old and new together stay within
// it; an insert into the largest table past 95%, or one that would need a
// longer distance, fails, and the search stops with ErrTooBig: a position
// is either kept exactly or the search reports the table full, never a
// wrong value.

import (
	"fmt"
	"math/bits"
	"runtime/debug"
)

// distBits is the width of an entry's distance field (distance+1, 0 an
// empty slot); Robin Hood probing keeps distances short, and an insert
// that would need a longer one fails.
const distBits = 8

// maxLoad is the share of slots an insert may fill (in 1/1024ths) before
// the largest table counts as full; growLoad the share at which a smaller
// one doubles. Linear probing's inserts cost about (1/(1-load))^2/2 probes,
// 200 at 95%, 13 at 80%: only the largest table, whose size bounds the
// memory, runs that full.
const (
	maxLoad  = 973 // 95%
	growLoad = 819 // 80%
)

// DefaultMaxNBytes is the default size of the max^n table.
const DefaultMaxNBytes = 2 << 30

// ranker maps the pits and mover of positions with at most S seeds in play
// to dense keys.
type ranker struct {
	k, m int
	s    int      // seeds at most
	tab  []uint64 // tab[(i-1)*(s+1)+t] = C(t+i-1, i), pit i = 1..km, prefix sum t = 0..s
	keys uint64   // k * C(s+km, km): every key is below
	bits uint     // bits of a key
}

func newRanker(r Variant, seeds int) (ranker, error) {
	k, m := r.Players, r.Pits
	p := k * m
	rk := ranker{k: k, m: m, s: seeds, tab: make([]uint64, p*(seeds+1))}
	// Pascal's triangle up to n = seeds+p, saturating at 2^63.
	const sat = uint64(1) << 63
	n := seeds + p
	row := make([]uint64, p+1) // row[j] = C(c, j) for the current c
	row[0] = 1
	rows := make([][]uint64, n+1)
	for c := 0; c <= n; c++ {
		if c > 0 {
			for j := min(c, p); j >= 1; j-- {
				row[j] = min(row[j], sat) + min(row[j-1], sat) // < 2^64
			}
		}
		rows[c] = append([]uint64(nil), row...)
	}
	binom := func(c, j int) uint64 { return min(rows[c][j], sat) }
	for i := 1; i <= p; i++ {
		for t := 0; t <= seeds; t++ {
			rk.tab[(i-1)*(seeds+1)+t] = binom(t+i-1, i)
		}
	}
	total := binom(n, p)
	hi, lo := bits.Mul64(total, uint64(k))
	if total >= sat || hi != 0 || lo >= sat {
		return ranker{}, fmt.Errorf("%w: positions of %d seeds in %d pits number more than 2^63; the max^n table keys at most that", ErrTooBig, seeds, p)
	}
	rk.keys = lo
	rk.bits = uint(bits.Len64(lo - 1))
	if rk.bits == 0 {
		rk.bits = 1
	}
	return rk, nil
}

// key returns b's key, below rk.keys (b has at most rk.s seeds in play).
func (rk *ranker) key(b Board) uint64 {
	var rank uint64
	t, base, stride := 0, 0, rk.s+1
	for p := 0; p < rk.k; p++ {
		x := b.Pits[p]
		for i := 0; i < rk.m; i++ {
			t += int(x & 0xff)
			x >>= 8
			rank += rk.tab[base+t]
			base += stride
		}
	}
	return rank*uint64(rk.k) + uint64(b.ToMove)
}

// maxnTable is the max^n search's table (see the top of the file).
type maxnTable struct {
	words   []uint64
	n       uint64 // slots
	b       uint   // key bits
	r       uint   // kept bits of h
	eb      uint   // entry bits
	emask   uint64 // eb low ones
	rmask   uint64 // r low ones
	w       uint   // bits of one gain
	vbits   uint   // bits of the gains kept
	k       int
	used    int
	limit   int    // entries the current slots take
	final   uint64 // slots of the largest table the budget allows
	maxDist uint64 // longest distance met (stored, +1)
}

// newMaxnTable returns a table for keys of rk that may grow to bytes,
// counting the old table while it doubles: the largest table is two
// thirds of bytes (and no larger than all keys need). It starts small and
// doubles when full.
func newMaxnTable(rk ranker, seeds int, bytes int64) (*maxnTable, error) {
	t := &maxnTable{b: rk.bits, w: uint(bits.Len(uint(seeds))), k: rk.k}
	t.vbits = uint(rk.k-1) * t.w
	want := rk.keys + rk.keys/8 + 64 // room for every key
	budget := uint64(max(bytes, 96)) * 8 * 2 / 3
	// The most slots whose entries fit the budget.
	for r := uint(0); r <= t.b; r++ {
		eb := distBits + r + t.vbits
		n := min(budget/uint64(eb), want)
		if t.b-r >= 63 || n < uint64(1)<<(t.b-r) {
			continue
		}
		t.final = n
		break
	}
	if t.final == 0 {
		return nil, fmt.Errorf("%w: no max^n table fits %d bytes", ErrTooBig, bytes)
	}
	n := t.final
	for n > 1<<14 {
		n = (n + 1) / 2
	}
	if err := t.alloc(n); err != nil {
		return nil, err
	}
	return t, nil
}

// alloc makes the table n empty slots.
func (t *maxnTable) alloc(n uint64) error {
	t.n = n
	t.r = 0
	if lg := uint(bits.Len64(n)) - 1; lg < t.b {
		t.r = t.b - lg // 2^r >= 2^b / n >= the longest run of h sharing a home
	}
	t.eb = distBits + t.r + t.vbits
	if t.eb > 64 {
		return fmt.Errorf("%w: a max^n entry would take %d bits: give the table more memory", ErrTooBig, t.eb)
	}
	t.emask = uint64(1)<<t.eb - 1 // all ones for 64
	t.rmask = uint64(1)<<t.r - 1
	t.words = make([]uint64, (n*uint64(t.eb)+63)/64+1)
	t.limit = int(n * growLoad / 1024)
	if n == t.final {
		t.limit = int(n * maxLoad / 1024)
	}
	if n < 1024 {
		t.limit = int(n) - 1
	}
	t.maxDist = 0
	return nil
}

// grow doubles the table (at most to its final size) and moves every
// entry; false when it is already final.
func (t *maxnTable) grow() bool {
	if t.n >= t.final {
		return false
	}
	old := *t
	if t.alloc(min(2*t.n, t.final)) != nil {
		*t = old
		return false
	}
	t.used = 0
	for i := uint64(0); i < old.n; i++ {
		e := old.get(i)
		d := e & (1<<distBits - 1)
		if d == 0 {
			continue
		}
		home := (i + old.n - (d - 1)) % old.n
		if !t.put(old.unsplit(home, e>>distBits&old.rmask), e>>(distBits+old.r)) {
			t.limit = 0 // an entry was lost: take no more
			return false
		}
	}
	// Give the old table back to the system now: the budget counts it.
	debug.FreeOSMemory()
	return true
}

// Bytes is the table's size.
func (t *maxnTable) Bytes() int64 { return int64(len(t.words)) * 8 }

// mix is a bijection of [0, 2^b).
func (t *maxnTable) mix(x uint64) uint64 {
	b := t.b
	m := uint64(1)<<b - 1
	s := (b + 1) / 2
	x ^= x >> s
	x = x * 0x9e3779b97f4a7c15 & m
	x ^= x >> s
	x = x * 0xbf58476d1ce4e5b9 & m
	x ^= x >> s
	return x
}

// split is the home slot of h and the bits an entry keeps.
func (t *maxnTable) split(h uint64) (home, rem uint64) {
	home, _ = bits.Mul64(h<<(64-t.b), t.n)
	return home, h & t.rmask
}

// unsplit is split's inverse: the h of home whose low r bits are rem.
func (t *maxnTable) unsplit(home, rem uint64) uint64 {
	// The first h of home is ceil(home 2^b / n).
	q, m := bits.Div64(home>>(64-t.b), home<<t.b, t.n)
	if m != 0 {
		q++
	}
	return q + (rem-q)&t.rmask
}

// get is slot i's entry.
func (t *maxnTable) get(i uint64) uint64 {
	bit := i * uint64(t.eb)
	w, off := bit>>6, bit&63
	return (t.words[w]>>off | t.words[w+1]<<(64-off)) & t.emask
}

// set writes slot i's entry.
func (t *maxnTable) set(i, e uint64) {
	bit := i * uint64(t.eb)
	w, off := bit>>6, bit&63
	t.words[w] = t.words[w]&^(t.emask<<off) | e<<off
	t.words[w+1] = t.words[w+1]&^(t.emask>>(64-off)) | e>>(64-off)
}

// lookup returns the packed gains of seats 0..k-2 kept for key.
func (t *maxnTable) lookup(key uint64) (uint64, bool) {
	home, rem := t.split(t.mix(key))
	i := home
	for d := uint64(1); ; d++ {
		e := t.get(i)
		ed := e & (1<<distBits - 1)
		if ed < d {
			return 0, false
		}
		if ed == d && e>>distBits&t.rmask == rem {
			return e >> (distBits + t.r), true
		}
		if i++; i == t.n {
			i = 0
		}
	}
}

// insert keeps key (not in the table) with the packed gains v of seats
// 0..k-2, growing the table when it is full; false when it can grow no
// more.
func (t *maxnTable) insert(key, v uint64) bool {
	if t.used >= t.limit && !t.grow() {
		return false
	}
	if !t.put(t.mix(key), v) {
		t.limit = t.used // an entry was lost: take no more
		return false
	}
	return true
}

// put places h with v by Robin Hood probing; false when a distance would
// pass the field's range, an entry then being lost.
func (t *maxnTable) put(h, v uint64) bool {
	home, rem := t.split(h)
	e := 1 | rem<<distBits | v<<(distBits+t.r)
	i := home
	for {
		cur := t.get(i)
		cd := cur & (1<<distBits - 1)
		if cd == 0 {
			t.set(i, e)
			t.used++
			t.maxDist = max(t.maxDist, e&(1<<distBits-1))
			return true
		}
		if cd < e&(1<<distBits-1) {
			// Robin Hood: the entry nearer its home gives up the slot.
			t.set(i, e)
			t.maxDist = max(t.maxDist, e&(1<<distBits-1))
			e = cur
		}
		if e&(1<<distBits-1) == 1<<distBits-1 {
			return false
		}
		e++
		if i++; i == t.n {
			i = 0
		}
	}
}

// packGains packs the gains of seats 0..k-2 of g (seat p in byte p), w bits
// each.
func (t *maxnTable) packGains(g uint32) uint64 {
	var v uint64
	for p := t.k - 2; p >= 0; p-- {
		v = v<<t.w | uint64(g>>(8*uint(p))&0xff)
	}
	return v
}

// unpackGains is packGains' inverse, the last seat's gain being seeds
// minus the others'.
func (t *maxnTable) unpackGains(v uint64, seeds int) uint32 {
	var g uint32
	mask := uint64(1)<<t.w - 1
	for p := 0; p < t.k-1; p++ {
		x := uint32(v & mask)
		v >>= t.w
		seeds -= int(x)
		g |= x << (8 * uint(p))
	}
	return g | uint32(seeds)<<(8*uint(t.k-1))
}
