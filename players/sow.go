package players

import "github.com/kalah-solver/kalah/engine"

// This is the package's hot file: Play is the inner loop of every search.
//
// Sowing s seeds from the mover's pit i walks a cycle of L = km+1 holes as
// seen from the mover: own pits 0..m-1, own store m, then the pits of the
// players after the mover in seat order (player mover+d holds holes
// m+1+(d-1)m .. m+dm), every other store skipped. As in engine, the walk
// never loops seed by seed: q = s / L whole laps add q to every lane of
// every player and to the mover's store, and the remainder r = s % L adds a
// precomputed step for (k, m, i, r), indexed by seat offset from the mover.
// The start pit is not skipped.

// Result says what a sowing did: the two-player game's flags (an extra
// turn, a capture, the end of the game), with the same meaning for k
// players (a capture banks the target pit(s), at least one of which held
// seeds; the game ends when any player's pits are empty).
type Result = engine.Result

// The flags of a Result.
const (
	ResExtra   = engine.ResExtra
	ResCapture = engine.ResCapture
	ResOver    = engine.ResOver
)

// sowStep is the lane-wise increment of a partial lap.
type sowStep struct {
	inc   [MaxPlayers]uint64 // by seat offset from the mover
	store uint8
	last  uint8 // hole of the last seed in the mover's cycle, 0..km
}

const maxCycle = MaxPlayers*MaxPits + 1

// sowTable[k][m][i][r] is the step for r = 0..km leftover seeds from pit i.
var sowTable [MaxPlayers + 1][MaxPits + 1][MaxPits][maxCycle]sowStep

// divTable[k][m][s] = s / (km+1), s % (km+1), for s = 0..255.
var divTable [MaxPlayers + 1][MaxPits + 1][MaxSeeds + 1][2]uint8

func init() {
	for k := 2; k <= MaxPlayers; k++ {
		for m := 1; m <= MaxPits; m++ {
			L := k*m + 1
			for s := 0; s <= MaxSeeds; s++ {
				divTable[k][m][s] = [2]uint8{uint8(s / L), uint8(s % L)}
			}
			for i := 0; i < m; i++ {
				var st sowStep
				st.last = uint8(i)
				sowTable[k][m][i][0] = st
				for r := 1; r < L; r++ {
					h := (i + r) % L
					switch {
					case h < m:
						st.inc[0] += 1 << (8 * uint(h))
					case h == m:
						st.store++
					default:
						d, j := (h-m-1)/m+1, (h-m-1)%m
						st.inc[d] += 1 << (8 * uint(j))
					}
					st.last = uint8(h)
					sowTable[k][m][i][r] = st
				}
			}
		}
	}
}

// Play sows the mover's pit i (which must hold seeds) and returns the next
// position and what happened. The turn passes to the next seat unless the
// mover earned an extra turn or the game ended; when the game ends the
// board is swept (every pit word zero, each player's seeds in its store).
func (r Variant) Play(b Board, i int) (Board, Result) {
	c, res, _ := r.play(b, i)
	return c, res
}

// sow takes the seeds of the mover's pit i and sows them: the board
// before any capture or end, and the hole of the last seed in the mover's
// cycle (0..m-1 own pits, m the own store, beyond: other players' pits).
func (r Variant) sow(b Board, i int) (Board, int) {
	k, m := r.Players, r.Pits
	mover := int(b.ToMove)
	sh := 8 * uint(i)
	s := b.Pits[mover] >> sh & 0xff
	b.Pits[mover] &^= 0xff << sh
	qr := divTable[k][m][s]
	if q := uint64(qr[0]); q != 0 {
		lap := q * laneOnes[m]
		for p := 0; p < k; p++ {
			b.Pits[p] += lap
		}
		b.Stores[mover] += qr[0]
	}
	st := &sowTable[k][m][i][qr[1]]
	for d, p := 0, mover; d < k; d++ {
		b.Pits[p] += st.inc[d]
		if p++; p == k {
			p = 0
		}
	}
	b.Stores[mover] += st.store
	return b, int(st.last)
}

// targetRange is the range of seat offsets from the mover that a capture
// takes from.
func (r Variant) targetRange() (lo, hi int) {
	switch r.Target {
	case TargetOpposite:
		return r.Players / 2, r.Players / 2
	case TargetAll:
		return 1, r.Players - 1
	}
	return 1, 1
}

// play is Play that also returns the seeds a capture banked (the last seed
// included; 0 without a capture).
func (r Variant) play(b Board, i int) (Board, Result, int) {
	k, m := r.Players, r.Pits
	mover := int(b.ToMove)
	b, last := r.sow(b, i)

	var res Result
	banked := 0
	switch {
	case last == m:
		res = ResExtra
	case last < m && b.Pits[mover]>>(8*uint(last))&0xff == 1:
		// The last seed fell in an own pit that was empty before it: take
		// the mirror pit m-1-last of each target player.
		osh := 8 * uint(m-1-last)
		lo, hi := r.targetRange()
		take := 0
		for d := lo; d <= hi; d++ {
			t := (mover + d) % k
			take += int(b.Pits[t] >> osh & 0xff)
		}
		if take > 0 {
			for d := lo; d <= hi; d++ {
				b.Pits[(mover+d)%k] &^= 0xff << osh
			}
			b.Pits[mover] &^= 0xff << (8 * uint(last))
			banked = take + 1
			b.Stores[mover] += uint8(banked)
			res = ResCapture
		}
	}
	over := false
	for p := 0; p < k; p++ {
		over = over || b.Pits[p] == 0
	}
	if over {
		for p := 0; p < k; p++ {
			b.Stores[p] += uint8(laneSum(b.Pits[p]))
			b.Pits[p] = 0
		}
		return b, res&ResCapture | ResOver, banked
	}
	if res&ResExtra == 0 {
		if b.ToMove++; int(b.ToMove) == k {
			b.ToMove = 0
		}
	}
	return b, res, banked
}
