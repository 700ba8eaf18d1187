// Package tt is the transposition table: a fixed-size, lock-free in-memory
// table of one-word entries with exact keys, shared by all search workers,
// and the layer that persists proven entries (see store.go).
package tt

// Entry is one machine word:
//
//	bits   field   meaning
//	 0- 8  value   board value + 256 (values are relative to the stores, -255..255)
//	 9-10  bound   0 empty, 1 lower (value <= true), 2 upper (true <= value), 3 exact
//	11-13  move    best move, the mover's pit 0..7
//	14-19  depth   plies of the search that made it; DepthSolved (63) = full depth, holds forever
//	20-24  work    log2 of the nodes the search spent below it, 0..31
//	25-63  tag     the high bits of the mixed rank (39 bits)
//
// The zero word is an empty slot.
type Entry uint64

// Bound kinds.
const (
	BoundNone  = 0
	BoundLower = 1
	BoundUpper = 2
	BoundExact = 3
)

// DepthSolved marks an entry from a full-depth search: its bound holds
// forever, whatever the depth of the search that reads it.
const DepthSolved = 63

const (
	valueBits = 9
	boundBits = 2
	moveBits  = 3
	depthBits = 6
	workBits  = 5
	dataBits  = valueBits + boundBits + moveBits + depthBits + workBits
	// TagBits is what is left of the word for the tag.
	TagBits = 64 - dataBits

	boundShift = valueBits
	moveShift  = boundShift + boundBits
	depthShift = moveShift + moveBits
	workShift  = depthShift + depthBits
	tagShift   = workShift + workBits
	valueBias  = 256
)

// The compiler checks that the fields fit one word with room for a tag of
// at least 32 bits, and that DepthSolved fits the depth field: a negative
// constant does not convert to uint.
const (
	_ = uint(64 - dataBits - 32)
	_ = uint(1<<depthBits - 1 - DepthSolved)
)

// MakeEntry packs an entry. work is log2 of the subtree size, capped at 31.
func MakeEntry(value, bound, move, depth, work int) Entry {
	if work > 31 {
		work = 31
	}
	return Entry(uint64(value+valueBias) | uint64(bound)<<boundShift | uint64(move)<<moveShift |
		uint64(depth)<<depthShift | uint64(work)<<workShift)
}

// Value is the board value (relative to the stores).
func (e Entry) Value() int { return int(e&(1<<valueBits-1)) - valueBias }

// Bound is BoundLower, BoundUpper, BoundExact or BoundNone.
func (e Entry) Bound() int { return int(e >> boundShift & (1<<boundBits - 1)) }

// Move is the best move found.
func (e Entry) Move() int { return int(e >> moveShift & (1<<moveBits - 1)) }

// Depth is the search depth, DepthSolved for a full-depth result.
func (e Entry) Depth() int { return int(e >> depthShift & (1<<depthBits - 1)) }

// Work is log2 of the nodes spent below the entry.
func (e Entry) Work() int { return int(e >> workShift & (1<<workBits - 1)) }

// Solved reports a full-depth entry.
func (e Entry) Solved() bool { return e.Depth() == DepthSolved }

func (e Entry) tag() uint64 { return uint64(e) >> tagShift }

func (e Entry) withTag(t uint64) Entry { return e&(1<<tagShift-1) | Entry(t<<tagShift) }

// Lower returns the lower bound on the true value the entry proves
// (-inf as -1000 when it proves none).
func (e Entry) Lower() int {
	if e.Bound()&BoundLower != 0 {
		return e.Value()
	}
	return -1000
}

// Upper returns the upper bound the entry proves (1000 when none).
func (e Entry) Upper() int {
	if e.Bound()&BoundUpper != 0 {
		return e.Value()
	}
	return 1000
}
