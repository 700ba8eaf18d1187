// Package tt is the transposition table: a fixed-size, lock-free in-memory
// table of one-word entries with exact keys, shared by all search threads.
// It lives in memory only; the proven entries that outlive a process are
// kept in the cache on disk (package persist), and a whole table can be
// copied out and back for a checkpoint (image.go).
package tt

// Entry is one machine word holding both bounds of a position's value, so
// that the fail-high and fail-low tests of MTD(f) on the same position
// narrow one interval instead of overwriting each other:
//
//	bits   field   meaning
//	 0- 8  lower   lower bound + 256, 1..511; 0 = no lower bound
//	 9-17  upper   256 - upper bound, 1..511; 0 = no upper bound
//	18-20  move    best move, the mover's pit 0..7
//	21-26  depth   plies of the search that made it; DepthSolved (63) = full depth, holds forever
//	27-31  work    log2 of the nodes the search spent below it, 0..31
//	32-63  tag     the high bits of the mixed rank (32 bits)
//
// Bounds are board values (relative to the stores, -255..255). An entry
// always proves at least one bound, so the zero word, an empty slot, is
// never an entry.
type Entry uint64

// Bound kinds, as Bound reports them.
const (
	BoundNone  = 0 // no bound: not an entry
	BoundLower = 1 // a lower bound only
	BoundUpper = 2 // an upper bound only
	BoundExact = 3 // lower = upper
	BoundRange = 4 // both bounds, lower < upper
)

// DepthSolved marks an entry from a full-depth search: its bounds hold
// forever, whatever the depth of the search that reads it.
const DepthSolved = 63

// NoLower and NoUpper are what Lower and Upper return for a missing bound.
const (
	NoLower = -1000
	NoUpper = 1000
)

const (
	boundFieldBits = 9
	moveBits       = 3
	depthBits      = 6
	workBits       = 5
	dataBits       = 2*boundFieldBits + moveBits + depthBits + workBits
	// TagBits is what is left of the word for the tag.
	TagBits = 64 - dataBits

	upperShift = boundFieldBits
	moveShift  = 2 * boundFieldBits
	depthShift = moveShift + moveBits
	workShift  = depthShift + depthBits
	tagShift   = workShift + workBits
	valueBias  = 256
	fieldMask  = 1<<boundFieldBits - 1
	maxValue   = valueBias - 1
)

// The compiler checks that the fields fit one word with room for a tag of
// at least 32 bits, and that DepthSolved fits the depth field: a negative
// constant does not convert to uint.
const (
	_ = uint(64 - dataBits - 32)
	_ = uint(1<<depthBits - 1 - DepthSolved)
)

// MakeEntry packs an entry proving lower <= value <= upper; a lower bound
// below -255 (NoLower) or an upper bound above 255 (NoUpper) is "none".
// work is log2 of the subtree size, capped at 31.
func MakeEntry(lower, upper, move, depth, work int) Entry {
	if work > 31 {
		work = 31
	}
	var lo, hi uint64
	if lower >= -maxValue {
		lo = uint64(min(lower, maxValue) + valueBias)
	}
	if upper <= maxValue {
		hi = uint64(valueBias - max(upper, -maxValue))
	}
	return Entry(lo | hi<<upperShift | uint64(move)<<moveShift |
		uint64(depth)<<depthShift | uint64(work)<<workShift)
}

// Lower returns the lower bound on the true value the entry proves
// (NoLower when it proves none).
func (e Entry) Lower() int {
	if f := int(e & fieldMask); f != 0 {
		return f - valueBias
	}
	return NoLower
}

// Upper returns the upper bound the entry proves (NoUpper when none).
func (e Entry) Upper() int {
	if f := int(e >> upperShift & fieldMask); f != 0 {
		return valueBias - f
	}
	return NoUpper
}

// Bound says which bounds the entry proves.
func (e Entry) Bound() int {
	lo, hi := e.Lower(), e.Upper()
	switch {
	case lo == NoLower && hi == NoUpper:
		return BoundNone
	case hi == NoUpper:
		return BoundLower
	case lo == NoLower:
		return BoundUpper
	case lo == hi:
		return BoundExact
	}
	return BoundRange
}

// Move is the best move found.
func (e Entry) Move() int { return int(e >> moveShift & (1<<moveBits - 1)) }

// Depth is the search depth, DepthSolved for a full-depth result.
func (e Entry) Depth() int { return int(e >> depthShift & (1<<depthBits - 1)) }

// Work is log2 of the nodes spent below the entry.
func (e Entry) Work() int { return int(e >> workShift & (1<<workBits - 1)) }

// Solved reports a full-depth entry.
func (e Entry) Solved() bool { return e.Depth() == DepthSolved }

// Merge combines two entries for the same position. Results of the same
// depth (both proven, or both from a search of the same depth) intersect
// their intervals, keeping the larger work and n's move unless n is only
// an upper bound (a fail low's best move is a poor guide); otherwise the
// deeper one wins (a proven entry over any depth-limited one), and n wins
// a tie of kinds it cannot be merged with. If the intersection is empty
// (depth-limited values need not be consistent) n is kept as it is.
func Merge(old, n Entry) Entry {
	if old == 0 {
		return n
	}
	if old.Depth() != n.Depth() {
		if old.Depth() > n.Depth() { // DepthSolved is the deepest
			return old
		}
		return n
	}
	lo := max(old.Lower(), n.Lower())
	hi := min(old.Upper(), n.Upper())
	if lo > hi {
		return n
	}
	move := n.Move()
	if n.Lower() == NoLower {
		move = old.Move()
	}
	return MakeEntry(lo, hi, move, n.Depth(), max(old.Work(), n.Work())).withTag(n.tag())
}

func (e Entry) tag() uint64 { return uint64(e) >> tagShift }

func (e Entry) withTag(t uint64) Entry { return e&(1<<tagShift-1) | Entry(t<<tagShift) }
