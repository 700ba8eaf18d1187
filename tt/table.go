package tt

import (
	"fmt"
	"math/bits"
	"sync/atomic"
	"unsafe"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/internal/prefetch"
)

// BucketSize is the number of entries a key may occupy: four words, half a
// cache line, scanned together.
const BucketSize = 4

// Table is the in-memory transposition table. Every slot is one Entry read
// and written with sync/atomic, so concurrent readers and writers never see
// a torn entry, and an entry's tag plus its bucket determine its position
// exactly. It is safe for concurrent use; a lost update (two writers to one
// slot) only loses information, never corrupts it.
type Table struct {
	pits     int
	slots    []uint64
	mapping  []byte // the slots' own memory mapping, if any
	mask     uint64 // bucket index mask
	idxBits  uint
	mix      mixer
	code     coder
	maxSeeds int // positions with more seeds on the board are not cached
}

// Slot is where a key lives: its bucket and tag, computed once per node.
type Slot struct {
	bucket uint64
	tag    uint64
	ok     bool // false: the position has too many seeds for exact keys
}

// New returns a table of at most bytes bytes (rounded down to a power of two
// of buckets, at least 1024 buckets) for boards of m pits a side.
func New(m int, bytes int64) (*Table, error) {
	if m < 1 || m > engine.MaxPits {
		return nil, fmt.Errorf("tt: pits %d out of range", m)
	}
	buckets := uint64(bytes) / (8 * BucketSize)
	if buckets < 1024 {
		buckets = 1024
	}
	idxBits := uint(bits.Len64(buckets) - 1)
	buckets = 1 << idxBits
	w := idxBits + TagBits
	if w > 64 {
		w = 64
	}
	t := &Table{
		pits:    m,
		mask:    buckets - 1,
		idxBits: idxBits,
		mix:     newMixer(w),
		code:    newCoder(m, w),
	}
	t.slots, t.mapping = allocSlots(int(buckets * BucketSize))
	// The largest seed count whose every position codes below 2^w: the
	// rank codes, from rankBase on, are the larger ones.
	room := ^uint64(0) - t.code.rankBase // codes from rankBase up to 2^64-1
	if w < 64 {
		room = 1<<w - t.code.rankBase
	}
	for s := 0; s <= engine.MaxSeeds; s++ {
		if c := binom[s+2*m][2*m]; c == ^uint64(0) || c > room {
			break
		}
		t.maxSeeds = s
	}
	return t, nil
}

// Free releases the table's memory; the table must not be used after.
func (t *Table) Free() {
	freeSlots(t.mapping)
	t.slots, t.mapping = nil, nil
}

// Bytes is the table's size in memory.
func (t *Table) Bytes() int64 { return int64(len(t.slots)) * 8 }

// Entries is the number of slots.
func (t *Table) Entries() int { return len(t.slots) }

// MaxSeeds is the most seeds a cached position may hold.
func (t *Table) MaxSeeds() int { return t.maxSeeds }

// SlotOf computes where k lives; seeds is the number of seeds on the board.
func (t *Table) SlotOf(k engine.Key, seeds int) Slot {
	if seeds > t.maxSeeds {
		return Slot{}
	}
	h := t.mix.mix(t.code.code(k))
	return Slot{bucket: (h & t.mask) * BucketSize, tag: h >> t.idxBits, ok: true}
}

// KeyOf inverts SlotOf for a stored entry: the position an entry in bucket b
// (as an index into the slot array) with tag tag stands for.
func (t *Table) KeyOf(slot int, e Entry) engine.Key {
	h := e.tag()<<t.idxBits | uint64(slot/BucketSize)
	return t.code.key(t.mix.unmix(h))
}

// Probe returns the entry for s, if any.
func (t *Table) Probe(s Slot) (Entry, bool) {
	if !s.ok {
		return 0, false
	}
	b := t.slots[s.bucket : s.bucket+BucketSize : s.bucket+BucketSize]
	for i := range b {
		e := Entry(atomic.LoadUint64(&b[i]))
		if e != 0 && e.tag() == s.tag {
			return e, true
		}
	}
	return 0, false
}

// priority orders entries for replacement: proven and expensive first.
func priority(e Entry) int {
	if e == 0 {
		return -1
	}
	p := 2 * e.Work()
	if e.Solved() {
		p += 8
	}
	return p
}

// Put writes e for s: merged into the same position's entry when there
// is one (Merge: the bounds of equal depths are intersected, a deeper entry
// is kept), else over the bucket's least valuable entry. It returns the
// entry the slot holds now (e itself for a position without a slot).
func (t *Table) Put(s Slot, e Entry) Entry {
	if !s.ok {
		return e
	}
	e = e.withTag(s.tag)
	b := t.slots[s.bucket : s.bucket+BucketSize : s.bucket+BucketSize]
	victim, vp := 0, 1<<30
	for i := range b {
		old := Entry(atomic.LoadUint64(&b[i]))
		if old != 0 && old.tag() == s.tag {
			m := Merge(old, e)
			if m != old {
				atomic.StoreUint64(&b[i], uint64(m))
			}
			return m
		}
		if p := priority(old); p < vp {
			victim, vp = i, p
		}
	}
	atomic.StoreUint64(&b[victim], uint64(e))
	return e
}

// Clear empties the table.
func (t *Table) Clear() {
	for i := range t.slots {
		atomic.StoreUint64(&t.slots[i], 0)
	}
}

// Used estimates the number of filled slots from a sample. (Probe and store
// counts are kept by the searching goroutines, not here: shared counters
// would make every probe contend for one cache line.)
func (t *Table) Used() int {
	n := len(t.slots)
	step := 1
	if n > 1<<16 {
		step = n >> 16
	}
	used, seen := 0, 0
	for i := 0; i < n; i += step {
		seen++
		if atomic.LoadUint64(&t.slots[i]) != 0 {
			used++
		}
	}
	return int(int64(used) * int64(n) / int64(seen))
}

// Range calls f for every filled slot, with the position it stands for.
// Concurrent writers may change entries while it runs.
func (t *Table) Range(f func(k engine.Key, e Entry)) {
	for i := range t.slots {
		if e := Entry(atomic.LoadUint64(&t.slots[i])); e != 0 {
			f(t.KeyOf(i, e), e)
		}
	}
}

// Hash is a well-mixed hash of the slot's position (bucket and tag
// together), for side tables such as the parallel search's busy marks.
func (s Slot) Hash() uint64 { return (s.bucket/BucketSize ^ s.tag*0x9e3779b97f4a7c15) }

// Valid reports whether the position has a slot (fits the exact keys).
func (s Slot) Valid() bool { return s.ok }

// Prefetch starts loading s's bucket into the cache and returns at once.
// The search prefetches each child's bucket as soon as its slot is known,
// so that the memory latency overlaps the sowing and ranking of the other
// children; on amd64 and arm64 it is one prefetch instruction, elsewhere a
// no-op.
func (t *Table) Prefetch(s Slot) {
	if s.ok {
		prefetch.Line((*byte)(unsafe.Pointer(&t.slots[s.bucket])))
	}
}
