// Package reference is the slow, obviously-correct Kalah that the tests
// check the fast code against: sowing (engine), perft counts (engine),
// values (solver, bench) and endgame databases (egdb).
//
// Why it can be trusted: it is the rules written out the way a person
// plays them, and nothing else. The board is a plain array of holes in the
// standard order; a move picks the seeds up and drops them one at a time,
// skipping the opponent's store; the last seed decides an extra turn or a
// capture; an empty side ends the game with a sweep. A value is the best
// move's value by plain recursion over every move, memoized on whole
// positions: no packed board, no sowing tables, no ranking, no
// transposition table, no windows, bounds or move ordering. It imports
// nothing of the module (so the engine's own tests can use it), and shares
// no code with what it checks: a bug in the fast code cannot hide in it.
// It is exponential in the seeds: fit for boards of up to about twenty.
//
// Solver.Value is part 1 of the walk through the search in
// docs/algorithms.md (The search): the definition of a value, which the
// solver's node (part 2) computes with windows, a table, peeks and move
// order.
package reference

import "fmt"

// MaxPits is the most pits a side may have, as in the engine.
const MaxPits = 8

// Rules fixes the pit count m and the capture convention.
type Rules struct {
	Pits int
	// EmptyCapture: the last seed in an own empty pit is banked with the
	// opposite pit's seeds even when the opposite pit is empty. Without
	// it, it captures only when the opposite pit holds seeds.
	EmptyCapture bool
}

// Game is a position: the holes in the standard order, South's pits
// 0..m-1 (from South's left), South's store m, North's pits m+1..2m (from
// North's left), North's store 2m+1, and the side to move. Holes beyond
// 2m+1 are unused. A Game is a value: Play returns a new one.
type Game struct {
	Holes [2*MaxPits + 2]int
	North bool // North is to move
}

// Game returns the position with the given 2m+2 holes in the standard
// order, North to move when north is set.
func (r Rules) Game(holes []int, north bool) Game {
	if r.Pits < 1 || r.Pits > MaxPits || len(holes) != 2*r.Pits+2 {
		panic(fmt.Sprintf("reference: %d holes for %d pits", len(holes), r.Pits))
	}
	g := Game{North: north}
	copy(g.Holes[:], holes)
	return g
}

// pit is the hole of pit i of the given side (i from that side's left).
func (r Rules) pit(north bool, i int) int {
	if north {
		return r.Pits + 1 + i
	}
	return i
}

// store is the hole of the given side's store.
func (r Rules) store(north bool) int {
	if north {
		return 2*r.Pits + 1
	}
	return r.Pits
}

// seeds is the number of seeds in the given side's pits.
func (r Rules) seeds(g Game, north bool) int {
	n := 0
	for i := 0; i < r.Pits; i++ {
		n += g.Holes[r.pit(north, i)]
	}
	return n
}

// Play sows the mover's pit i (which must hold seeds) one seed at a time
// and returns the position after it and what happened: an extra turn (the
// last seed fell in the mover's store), a capture, or the end of the game
// (a side's pits are empty: each side's seeds are swept into its store).
func (r Rules) Play(g Game, i int) (next Game, extra, captured, over bool) {
	m, mover := r.Pits, g.North
	h := r.pit(mover, i)
	seeds := g.Holes[h]
	if seeds == 0 {
		panic("reference: playing an empty pit")
	}
	g.Holes[h] = 0
	for seeds > 0 {
		h = (h + 1) % (2*m + 2)
		if h == r.store(!mover) {
			continue
		}
		g.Holes[h]++
		seeds--
	}
	own := r.pit(mover, 0) <= h && h < r.pit(mover, 0)+m
	switch {
	case h == r.store(mover):
		extra = true
	case own && g.Holes[h] == 1:
		opp := 2*m - h // the pit facing h
		if g.Holes[opp] > 0 || r.EmptyCapture {
			g.Holes[r.store(mover)] += g.Holes[opp] + 1
			g.Holes[opp], g.Holes[h] = 0, 0
			captured = true
		}
	}
	if r.seeds(g, false) == 0 || r.seeds(g, true) == 0 {
		for _, side := range []bool{false, true} {
			for j := 0; j < m; j++ {
				g.Holes[r.store(side)] += g.Holes[r.pit(side, j)]
				g.Holes[r.pit(side, j)] = 0
			}
		}
		return g, false, captured, true
	}
	if !extra {
		g.North = !g.North
	}
	return g, extra, captured, false
}

// Legal lists the mover's pits that hold seeds.
func (r Rules) Legal(g Game) []int {
	var out []int
	for i := 0; i < r.Pits; i++ {
		if g.Holes[r.pit(g.North, i)] > 0 {
			out = append(out, i)
		}
	}
	return out
}

// Perft counts the move sequences of each length 1..depth from g (a game
// ends the sequences through it).
func (r Rules) Perft(g Game, depth int) []int64 {
	counts := make([]int64, depth)
	r.perft(g, counts)
	return counts
}

func (r Rules) perft(g Game, counts []int64) {
	moves := r.Legal(g)
	counts[0] += int64(len(moves))
	if len(counts) == 1 {
		return
	}
	for _, i := range moves {
		if c, _, _, over := r.Play(g, i); !over {
			r.perft(c, counts[1:])
		}
	}
}

// Solver computes values by plain memoized recursion. A value is relative
// to the stores: the mover's final store difference minus the current one,
// what the mover gains from the seeds on the board minus what the
// opponent gains. The memo is keyed by the pits seen from the mover, so
// one Solver serves every position of its rules.
type Solver struct {
	Rules
	memo  map[[2]uint64]int16
	limit int

	// Overflow is set once a value needed more than limit positions; the
	// values returned since then are void.
	Overflow bool
}

// NewSolver returns a solver for r that gives up (setting Overflow) when
// its memo would hold more than limit positions; 0 for no limit.
func NewSolver(r Rules, limit int) *Solver {
	if r.Pits < 1 || r.Pits > MaxPits {
		panic(fmt.Sprintf("reference: %d pits", r.Pits))
	}
	return &Solver{Rules: r, memo: map[[2]uint64]int16{}, limit: limit}
}

// Positions is the number of positions the solver has valued.
func (s *Solver) Positions() int { return len(s.memo) }

// storeDiff is the store of the given side minus the other's.
func (s *Solver) storeDiff(g Game, north bool) int {
	return g.Holes[s.store(north)] - g.Holes[s.store(!north)]
}

// key is the pits seen from the mover: its own in one word, the
// opponent's in the other, one byte a pit.
func (s *Solver) key(g Game) [2]uint64 {
	var k [2]uint64
	for i := s.Pits - 1; i >= 0; i-- {
		own, opp := g.Holes[s.pit(g.North, i)], g.Holes[s.pit(!g.North, i)]
		if own > 255 || opp > 255 {
			panic("reference: more than 255 seeds in a pit")
		}
		k[0] = k[0]<<8 | uint64(own)
		k[1] = k[1]<<8 | uint64(opp)
	}
	return k
}

// Value is the value of g for its mover under perfect play by both sides.
// A game already over (a side's pits empty) is worth its sweep.
func (s *Solver) Value(g Game) int {
	own, opp := s.seeds(g, g.North), s.seeds(g, !g.North)
	if own == 0 || opp == 0 {
		return own - opp
	}
	k := s.key(g)
	if v, ok := s.memo[k]; ok {
		return int(v)
	}
	if s.Overflow || s.limit > 0 && len(s.memo) >= s.limit {
		s.Overflow = true
		return 0
	}
	best := -1 << 30
	for i := 0; i < s.Pits; i++ {
		if g.Holes[s.pit(g.North, i)] > 0 {
			best = max(best, s.MoveValue(g, i))
		}
	}
	s.memo[k] = int16(best)
	return best
}

// MoveValue is the value for g's mover of playing pit i and then playing
// perfectly: the store difference the move gains, plus the value of the
// position after it when the mover moves again, minus it when the
// opponent moves.
func (s *Solver) MoveValue(g Game, i int) int {
	c, extra, _, over := s.Play(g, i)
	gain := s.storeDiff(c, g.North) - s.storeDiff(g, g.North)
	switch {
	case over:
		return gain
	case extra:
		return gain + s.Value(c)
	}
	return gain - s.Value(c)
}
