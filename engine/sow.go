package engine

// This is the engine's hot file: Sow is the inner loop of every search.
//
// Sowing s seeds from pit i walks a cycle of L = 2m+1 holes as seen from the
// mover: own pits 0..m-1, own store (m), opponent's pits m+1..2m (opponent's
// store skipped). The walk never loops seed by seed: q = s / L whole laps add
// q to every lane of both words and to the own store, and the remainder
// r = s % L adds a precomputed mask for (i, r). The last seed lands at
// (i + s) mod L, which the same table records. The start pit is not skipped,
// so after a full lap it takes seeds like any other pit.

// Result says what a sowing did.
type Result uint8

const (
	// ResExtra: the last seed fell in the mover's store; the mover moves
	// again. Never set together with ResOver.
	ResExtra Result = 1 << iota
	// ResCapture: the last seed fell in an own empty pit and was banked,
	// with the opposite pit's seeds.
	ResCapture
	// ResOver: a side's pits are empty; the board was swept and the game
	// is over.
	ResOver
)

// Extra reports an extra turn.
func (r Result) Extra() bool { return r&ResExtra != 0 }

// Capture reports a capture.
func (r Result) Capture() bool { return r&ResCapture != 0 }

// Over reports the end of the game.
func (r Result) Over() bool { return r&ResOver != 0 }

// sowStep is the lane-wise increment of a partial lap.
type sowStep struct {
	own, opp uint64
	store    uint8
	last     uint8 // hole of the last seed, 0..2m in the mover's cycle
}

// sowTable[m][i][r] is the step for r = 0..2m leftover seeds from pit i.
var sowTable [MaxPits + 1][MaxPits][2*MaxPits + 1]sowStep

// divTable[m][s] = s / (2m+1), s % (2m+1), for s = 0..255.
var divTable [MaxPits + 1][MaxSeeds + 1][2]uint8

func init() {
	for m := 1; m <= MaxPits; m++ {
		L := 2*m + 1
		for s := 0; s <= MaxSeeds; s++ {
			divTable[m][s] = [2]uint8{uint8(s / L), uint8(s % L)}
		}
		for i := 0; i < m; i++ {
			var st sowStep
			st.last = uint8(i)
			sowTable[m][i][0] = st
			for r := 1; r < L; r++ {
				h := (i + r) % L
				switch {
				case h < m:
					st.own += 1 << (8 * uint(h))
				case h == m:
					st.store++
				default:
					st.opp += 1 << (8 * uint(h-m-1))
				}
				st.last = uint8(h)
				sowTable[m][i][r] = st
			}
		}
	}
}

// Sow plays the mover's pit i (which must hold seeds) and returns the board
// after the move, still seen from the mover, and what happened. When the
// turn passes (neither ResExtra nor ResOver) the caller flips the board.
// When the game ends the board is swept: both pit words are zero and each
// side's seeds are in its own store.
func (r Variant) Sow(b Board, i int) (Board, Result) {
	m := r.Pits
	sh := 8 * uint(i)
	s := b.Own >> sh & 0xff
	b.Own &^= 0xff << sh
	qr := divTable[m][s]
	if q := uint64(qr[0]); q != 0 {
		lap := q * laneOnes[m]
		b.Own += lap
		b.Opp += lap
		b.OwnStore += qr[0]
	}
	st := &sowTable[m][i][qr[1]]
	b.Own += st.own
	b.Opp += st.opp
	b.OwnStore += st.store

	var res Result
	last := uint(st.last)
	switch {
	case last == uint(m):
		res = ResExtra
	case last < uint(m) && b.Own>>(8*last)&0xff == 1:
		// The last seed fell in an own pit that was empty before it.
		osh := 8 * (uint(m) - 1 - last)
		o := b.Opp >> osh & 0xff
		if o != 0 || r.Rule == EmptyCapture {
			b.Own &^= 0xff << (8 * last)
			b.Opp &^= 0xff << osh
			b.OwnStore += uint8(o) + 1
			res = ResCapture
		}
	}
	if b.Own == 0 || b.Opp == 0 {
		b.OwnStore += uint8(LaneSum(b.Own))
		b.OppStore += uint8(LaneSum(b.Opp))
		b.Own, b.Opp = 0, 0
		res = res&ResCapture | ResOver
	}
	return b, res
}

// Play sows pit i and returns the board seen from the side to move next
// (flipped unless the mover keeps the turn or the game ended), with the
// result. It is Sow plus the flip, for callers that track the side to move.
func (r Variant) Play(b Board, i int) (Board, Result) {
	c, res := r.Sow(b, i)
	if res&(ResExtra|ResOver) == 0 {
		c = c.Flip()
	}
	return c, res
}
