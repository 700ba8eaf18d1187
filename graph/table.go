package graph

import "github.com/kalah-solver/kalah/engine"

// posKey is a whole position in two words, for m <= 6 (48 bits of pits a
// side):
//
//	a: bits 0..47 the mover's pits (engine.Board.Own), bits 48..55 the
//	   position's value (int8), bits 56..63 zero
//	b: bits 0..47 the opponent's pits, bits 48..55 the mover's store,
//	   bit 56 the side to move, bit 63 set (so that no key is zero)
//
// The opponent's store is the game's total less everything else, so it
// needs no bits. The value bits are not part of the identity.
type posKey struct{ a, b uint64 }

const (
	pitsMask = 1<<48 - 1
	present  = 1 << 63
)

func keyOf(p engine.Position) posKey {
	return posKey{p.Board.Own, p.Board.Opp | uint64(p.Board.OwnStore)<<48 | uint64(p.ToMove)<<56 | present}
}

func (k posKey) id() posKey          { return posKey{k.a & pitsMask, k.b} }
func (k posKey) over() bool          { return k.a&pitsMask == 0 || k.b&pitsMask == 0 }
func (k posKey) board() engine.Board { return engine.Board{Own: k.a & pitsMask, Opp: k.b & pitsMask} }
func (k posKey) value() int8         { return int8(k.a >> 48) }

func (k posKey) hash() uint64 {
	h := k.a*0x9e3779b97f4a7c15 ^ k.b
	h ^= h >> 29
	h *= 0xbf58476d1ce4e5b9
	return h ^ h>>32
}

// posTable is an open-addressing set of positions with their values, linear
// probing, doubled when half full: 16 bytes a slot, so 32 to 64 bytes a
// position.
type posTable struct {
	slots []posKey
	n     int
}

func newPosTable(size int) *posTable { return &posTable{slots: make([]posKey, size)} }

func (t *posTable) get(k posKey) (int8, bool) {
	mask := uint64(len(t.slots) - 1)
	for i := k.hash() & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s.b == 0 {
			return 0, false
		}
		if s.id() == k {
			return s.value(), true
		}
	}
}

// put adds k (not yet present) with value v.
func (t *posTable) put(k posKey, v int8) {
	if 2*(t.n+1) > len(t.slots) {
		t.grow()
	}
	t.insert(posKey{k.a | uint64(uint8(v))<<48, k.b})
	t.n++
}

func (t *posTable) insert(k posKey) {
	mask := uint64(len(t.slots) - 1)
	i := k.id().hash() & mask
	for t.slots[i].b != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = k
}

func (t *posTable) grow() {
	old := t.slots
	t.slots = make([]posKey, 2*len(old))
	for _, s := range old {
		if s.b != 0 {
			t.insert(s)
		}
	}
}

// each calls f with every position (its key without the value) and value.
func (t *posTable) each(f func(k posKey, v int8)) {
	for _, s := range t.slots {
		if s.b != 0 {
			f(s.id(), s.value())
		}
	}
}
