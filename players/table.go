package players

import "unsafe"

// table is the paranoid search's transposition table: a fixed array of
// two-entry buckets, so that a long search never grows past its memory.
// Each entry keeps the whole key, so a hit is never a different position;
// a bucket's first entry keeps the position with the most seeds in play
// (the larger subtree), its second takes every other write.
//
//	entry (24 bytes): key [2]uint64 | lo | hi | move | seeds | root | unused
//	lo, hi:  bounds of the root player's gain from the position
//	move:    the pit that proved the last bound, 0xff none
//	seeds:   seeds in play + 1 (0: the entry is empty)
//	root:    the seat whose gain lo and hi bound (searches for every
//	         seat's guarantee share the table)
type table struct {
	slots []tentry
	mask  uint64
	used  int
}

type tentry struct {
	k     key
	b     bound
	seeds uint8
	root  uint8
}

// The entry must stay three words.
var _ [entryBytes - unsafe.Sizeof(tentry{})]struct{}
var _ [unsafe.Sizeof(tentry{}) - entryBytes]struct{}

// entryBytes is the size of one entry.
const entryBytes = 24

// newTable returns a table of at most bytes bytes (at least one bucket).
func newTable(bytes int64) *table {
	n := uint64(2)
	for n*2*entryBytes <= uint64(bytes) {
		n *= 2
	}
	return &table{slots: make([]tentry, n), mask: n/2 - 1}
}

func (t *table) bucket(k key) int {
	h := (k[0] ^ k[1]*0x9e3779b97f4a7c15) * 0xff51afd7ed558ccd
	return int(h>>29&t.mask) * 2
}

// get returns the entry of k for root, if kept.
func (t *table) get(k key, root uint8) (bound, bool) {
	i := t.bucket(k)
	for j := i; j < i+2; j++ {
		if e := &t.slots[j]; e.seeds != 0 && e.k == k && e.root == root {
			return e.b, true
		}
	}
	return bound{}, false
}

// put keeps the entry of k for root, a position with seeds in play.
func (t *table) put(k key, root uint8, seeds int, b bound) {
	i := t.bucket(k)
	s := uint8(seeds + 1)
	for j := i; j < i+2; j++ {
		if e := &t.slots[j]; e.seeds != 0 && e.k == k && e.root == root {
			e.b = b
			return
		}
	}
	e := &t.slots[i]
	if e.seeds == 0 || s >= e.seeds {
		if e.seeds == 0 {
			t.used++
		} else {
			// The old first entry moves to the second slot.
			if t.slots[i+1].seeds == 0 {
				t.used++
			}
			t.slots[i+1] = *e
		}
		*e = tentry{k, b, s, root}
		return
	}
	if t.slots[i+1].seeds == 0 {
		t.used++
	}
	t.slots[i+1] = tentry{k, b, s, root}
}
