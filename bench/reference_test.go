package bench

// A slow, obviously correct reference for the suite's values: the board as
// two arrays of six pits and a store, sowing seed by seed, and a plain
// negamax memoized on the pits. It shares no code with the engine or the
// solver.

const refPits = 6

// refBoard is seen from the side to move: own[0..5] are its pits in sowing
// order, own[6] its store; opp likewise. own[i] faces opp[5-i].
type refBoard struct{ own, opp [refPits + 1]int }

// fromHoles reads the standard hole order (South's pits and store, then
// North's), seen from North when north is true.
func fromHoles(h []int, north bool) refBoard {
	var b refBoard
	copy(b.own[:], h[:refPits+1])
	copy(b.opp[:], h[refPits+1:])
	if north {
		b.own, b.opp = b.opp, b.own
	}
	return b
}

// reference memoizes the value of every position it meets, keyed by the
// twelve pits (five bits each, so at most 31 seeds on the board). It gives
// up, setting overflow, once the memo holds more than limit positions.
type reference struct {
	emptyCapture bool
	memo         map[uint64]int8
	limit        int
	overflow     bool
}

func newReference(emptyCapture bool, limit int) *reference {
	return &reference{emptyCapture: emptyCapture, memo: make(map[uint64]int8, 1<<16), limit: limit}
}

// play sows the mover's pit i and returns the board after it (still seen
// from the mover), whether the mover moves again and whether the game is
// over (then the remaining seeds are in their owners' stores).
func (r *reference) play(b refBoard, i int) (refBoard, bool, bool) {
	seeds := b.own[i]
	b.own[i] = 0
	// The 13 holes the mover sows into, in order: own pits, own store,
	// the opponent's pits (its store is skipped).
	hole := i
	for ; seeds > 0; seeds-- {
		hole = (hole + 1) % (2*refPits + 1)
		if hole <= refPits {
			b.own[hole]++
		} else {
			b.opp[hole-refPits-1]++
		}
	}
	extra := hole == refPits
	if hole < refPits && b.own[hole] == 1 {
		opposite := refPits - 1 - hole
		if b.opp[opposite] > 0 || r.emptyCapture {
			b.own[refPits] += b.opp[opposite] + 1
			b.opp[opposite], b.own[hole] = 0, 0
		}
	}
	ownLeft, oppLeft := 0, 0
	for k := 0; k < refPits; k++ {
		ownLeft += b.own[k]
		oppLeft += b.opp[k]
	}
	if ownLeft == 0 || oppLeft == 0 {
		for k := 0; k < refPits; k++ {
			b.own[refPits] += b.own[k]
			b.opp[refPits] += b.opp[k]
			b.own[k], b.opp[k] = 0, 0
		}
		return b, false, true
	}
	return b, extra, false
}

// moveValue is what the mover of b gains over the opponent, from now to
// the end of the game, by playing pit i and then playing perfectly.
func (r *reference) moveValue(b refBoard, i int) int {
	c, extra, over := r.play(b, i)
	gain := (c.own[refPits] - b.own[refPits]) - (c.opp[refPits] - b.opp[refPits])
	switch {
	case over:
		return gain
	case extra:
		return gain + r.value(c)
	}
	c.own, c.opp = c.opp, c.own
	return gain - r.value(c)
}

// value is the best moveValue of b; b must have a legal move.
func (r *reference) value(b refBoard) int {
	var key uint64
	for k := 0; k < refPits; k++ {
		key = key<<10 | uint64(b.own[k])<<5 | uint64(b.opp[k])
	}
	if v, ok := r.memo[key]; ok {
		return int(v)
	}
	if r.overflow || len(r.memo) >= r.limit {
		r.overflow = true
		return 0
	}
	best := -1 << 30
	for i := 0; i < refPits; i++ {
		if b.own[i] > 0 {
			best = max(best, r.moveValue(b, i))
		}
	}
	r.memo[key] = int8(best)
	return best
}
