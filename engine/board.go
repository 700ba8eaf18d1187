package engine

import "math/bits"

// Board is a Kalah position seen from the side to move: a small comparable
// value, copied rather than mutated (children are values).
//
// Each side's pits are one uint64 of 8-bit lanes; lane i holds that side's
// pit i counted from its own left, which is also its sowing order. Lanes at
// or above m are always zero. The stores live apart from the pits so that a
// search key (Key) can ignore them.
//
//	bit:    63    56 55    48 47    40 39    32 31    24 23    16 15     8 7      0
//	Own:  [ lane 7 | lane 6 | lane 5 | lane 4 | lane 3 | lane 2 | lane 1 | lane 0 ]
//	        (pit h)                                                       (pit a)
//	Opp:  the same layout for the opponent's pits, from the opponent's left.
//	OwnStore, OppStore: one byte each.
//
// On the physical board with m = 6 and South to move:
//
//	     F  E  D  C  B  A           <- Opp lanes 5..0
//	N                      S
//	     a  b  c  d  e  f           -> Own lanes 0..5
//
// Pit i of one side faces lane m-1-i of the other. Since a game holds at most
// MaxSeeds seeds, no lane, and no sum of lanes, ever exceeds 255, so whole
// words can be added lane-wise without carries.
type Board struct {
	Own, Opp           uint64
	OwnStore, OppStore uint8
}

// Key is a position without its stores: the two pit words, side to move
// first. Search values are kept relative to the store difference, so two
// positions that differ only in their stores share one Key.
type Key struct{ Own, Opp uint64 }

// laneOnes[m] has a 1 in each of the low m lanes.
var laneOnes [MaxPits + 1]uint64

func init() {
	for m := 1; m <= MaxPits; m++ {
		laneOnes[m] = laneOnes[m-1] | 1<<(8*(m-1))
	}
}

// Key returns the pits of b.
func (b Board) Key() Key { return Key{b.Own, b.Opp} }

// Flip returns b seen from the other side.
func (b Board) Flip() Board {
	return Board{Own: b.Opp, Opp: b.Own, OwnStore: b.OppStore, OppStore: b.OwnStore}
}

// Pit returns the seeds in the mover's pit i.
func (b Board) Pit(i int) int { return int(b.Own >> (8 * uint(i)) & 0xff) }

// OppPit returns the seeds in the opponent's pit i (from the opponent's left).
func (b Board) OppPit(i int) int { return int(b.Opp >> (8 * uint(i)) & 0xff) }

// LaneSum adds the eight 8-bit lanes of w, such as a side's pit word: one
// multiplication puts the sum of lanes 0..i in lane i, so lane 7 holds
// them all. It is exact because a game's lanes never add up past 255.
func LaneSum(w uint64) int { return int(w * 0x0101010101010101 >> 56) }

// OwnSeeds is the number of seeds in the mover's pits.
func (b Board) OwnSeeds() int { return LaneSum(b.Own) }

// OppSeeds is the number of seeds in the opponent's pits.
func (b Board) OppSeeds() int { return LaneSum(b.Opp) }

// Seeds is the number of seeds still in play (stores excluded).
func (b Board) Seeds() int { return LaneSum(b.Own) + LaneSum(b.Opp) }

// Total is every seed of the game, stores included.
func (b Board) Total() int { return b.Seeds() + int(b.OwnStore) + int(b.OppStore) }

// Over reports whether the game has ended: one side's pits are all empty.
// Boards returned by Sow are swept when this happens, so both words are zero.
func (b Board) Over() bool { return b.Own == 0 || b.Opp == 0 }

// StoreDiff is the mover's store minus the opponent's.
func (b Board) StoreDiff() int { return int(b.OwnStore) - int(b.OppStore) }

// Moves returns a bit set of the legal moves: bit i is set when the mover's
// pit i holds seeds.
func (b Board) Moves() uint8 {
	// Fold every lane's bits into its low bit, then gather the low bits.
	x := b.Own
	x |= x >> 4
	x |= x >> 2
	x |= x >> 1
	x &= 0x0101010101010101
	return uint8(x * 0x0102040810204080 >> 56)
}

// NumMoves is the number of legal moves.
func (b Board) NumMoves() int { return bits.OnesCount8(b.Moves()) }

// bitIndex is the index of the lowest set bit of a move set.
func bitIndex(mv uint8) int { return bits.TrailingZeros8(mv) }

// MoveList returns the legal moves of b in pit order.
func (b Board) MoveList() []int {
	var out []int
	for mv := b.Moves(); mv != 0; mv &= mv - 1 {
		out = append(out, bitIndex(mv))
	}
	return out
}
