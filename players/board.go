// Package players implements Kalah for k = 2..4 players: the board, the rules
// of the rule sites' three- and four-player game (docs/rules.md, "Three and
// four players"), sowing, notation, perft, and two exact solution concepts
// (paranoid and max^n).
//
// It is separate from engine on purpose: engine's two-player board and
// sowing are the hot path of the two-player solver and stay as they are.
// With k = 2 and either capture target this package plays the two-player
// game under no-empty-capture, which its tests check against engine.
package players

import "math/bits"

// MaxPlayers is the largest number of players.
const MaxPlayers = 4

// MaxPits is the largest pit count a player may have: one 8-bit lane per pit
// in a 64-bit word.
const MaxPits = 8

// MaxSeeds is the largest number of seeds a game may hold, so that no lane
// and no sum of lanes exceeds one byte.
const MaxSeeds = 255

// Board is a k-player position: a small comparable value, copied rather
// than mutated (children are values). The board does not know k or m; the
// Rules that made it do.
//
// Players sit round the table in seat order 0..k-1 (P1..Pk in the notation;
// P1 moves first). Each player's pits are one uint64 of 8-bit lanes, lane i
// holding the player's pit i counted from the player's own left, which is
// the sowing order; lanes at or above m are zero, and seats at or above k
// are zero.
//
//	bit:        63    56 55    48       15     8 7      0
//	Pits[p]:  [ lane 7 | lane 6 | ... | lane 1 | lane 0 ]   player p's pits h..a
//	Stores[p]: player p's store, one byte
//	ToMove:    the seat of the player to move, 0..k-1
//
// Seeds travel counter-clockwise through every player's pits and only the
// mover's own store. For k = 4 round a square, m = 4 (P1 at the bottom,
// P2 on the right, P3 at the top, P4 on the left):
//
//	           P3
//	     S3 d  c  b  a  S2
//	     a              d
//	P4   b              c   P2
//	     c              b
//	     d              a
//	     S4 a  b  c  d  S1
//	           P1
//
// A seed sown from P1's a goes to P1's b, c, d, store S1, P2's a, b, c, d,
// (S2 skipped) P3's a..d, (S3 skipped) P4's a..d, (S4 skipped) P1's a.
// For k = 3 the seats sit round a triangle in the same way.
//
// The turn passes in the same order: the next player is the one whose pits
// the mover's seeds reach after the mover's store. As in engine.Board, a
// game holds at most MaxSeeds seeds, so whole words add lane-wise without
// carries.
type Board struct {
	Pits   [MaxPlayers]uint64
	Stores [MaxPlayers]uint8
	ToMove uint8
}

// laneOnes[m] has a 1 in each of the low m lanes.
var laneOnes [MaxPits + 1]uint64

func init() {
	for m := 1; m <= MaxPits; m++ {
		laneOnes[m] = laneOnes[m-1] | 1<<(8*(m-1))
	}
}

// laneSum adds the lanes of w; valid because the total is at most 255.
func laneSum(w uint64) int { return int(w * 0x0101010101010101 >> 56) }

// Pit returns the seeds in player p's pit i (from p's left).
func (b Board) Pit(p, i int) int { return int(b.Pits[p] >> (8 * uint(i)) & 0xff) }

// SideSeeds is the number of seeds in player p's pits.
func (b Board) SideSeeds(p int) int { return laneSum(b.Pits[p]) }

// Seeds is the number of seeds still in play (stores excluded).
func (b Board) Seeds() int {
	n := 0
	for _, w := range b.Pits {
		n += laneSum(w)
	}
	return n
}

// Total is every seed of the game, stores included.
func (b Board) Total() int {
	n := b.Seeds()
	for _, s := range b.Stores {
		n += int(s)
	}
	return n
}

// Over reports whether the game has ended. Boards returned by Play are
// swept when a player's pits empty, so every pit word is then zero; a
// board with some empty and some non-empty sides is not a position.
func (b Board) Over() bool { return b.Pits == [MaxPlayers]uint64{} }

// Moves returns a bit set of the mover's legal moves: bit i is set when
// the mover's pit i holds seeds.
func (b Board) Moves() uint8 {
	x := b.Pits[b.ToMove]
	x |= x >> 4
	x |= x >> 2
	x |= x >> 1
	x &= 0x0101010101010101
	return uint8(x * 0x0102040810204080 >> 56)
}

// MoveList returns the mover's legal moves in pit order.
func (b Board) MoveList() []int {
	var out []int
	for mv := b.Moves(); mv != 0; mv &= mv - 1 {
		out = append(out, bits.TrailingZeros8(mv))
	}
	return out
}

// popcount8 is the number of moves in a move set.
func popcount8(mv uint8) int { return bits.OnesCount8(mv) }

// lowBit is the pit of the lowest move in a move set.
func lowBit(mv uint8) int { return bits.TrailingZeros8(mv) }
