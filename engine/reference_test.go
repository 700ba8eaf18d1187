package engine

// The slow, obviously-correct reference: a plain array of 2m+2 holes in the
// standard order, sown one seed at a time. The packed engine is checked
// against it move by move.

type refGame struct {
	m      int
	holes  []int // standard order: South 0..m-1, store m, North m+1..2m, store 2m+1
	toMove Side
	rule   Capture
}

func refFromPosition(p Position, rule Capture) *refGame {
	return &refGame{m: p.Pits, holes: p.Holes(), toMove: p.ToMove, rule: rule}
}

func (g *refGame) store(s Side) int {
	if s == South {
		return g.m
	}
	return 2*g.m + 1
}

// pitHole maps side s's pit i to its hole index.
func (g *refGame) pitHole(s Side, i int) int {
	if s == South {
		return i
	}
	return g.m + 1 + i
}

func (g *refGame) sideEmpty(s Side) bool {
	for i := 0; i < g.m; i++ {
		if g.holes[g.pitHole(s, i)] != 0 {
			return false
		}
	}
	return true
}

// play sows the mover's pit i and reports extra turn, capture and game end.
func (g *refGame) play(i int) (extra, captured, over bool) {
	s := g.toMove
	n := 2*g.m + 2
	h := g.pitHole(s, i)
	seeds := g.holes[h]
	g.holes[h] = 0
	oppStore := g.store(s.Other())
	for seeds > 0 {
		h = (h + 1) % n
		if h == oppStore {
			continue
		}
		g.holes[h]++
		seeds--
	}
	switch {
	case h == g.store(s):
		extra = true
	case g.ownsPit(s, h) && g.holes[h] == 1:
		opp := 2*g.m - h
		if g.holes[opp] > 0 || g.rule == EmptyCapture {
			g.holes[g.store(s)] += g.holes[opp] + 1
			g.holes[opp], g.holes[h] = 0, 0
			captured = true
		}
	}
	if g.sideEmpty(South) || g.sideEmpty(North) {
		for _, side := range []Side{South, North} {
			for j := 0; j < g.m; j++ {
				g.holes[g.store(side)] += g.holes[g.pitHole(side, j)]
				g.holes[g.pitHole(side, j)] = 0
			}
		}
		return false, captured, true
	}
	if !extra {
		g.toMove = s.Other()
	}
	return extra, captured, false
}

func (g *refGame) ownsPit(s Side, h int) bool {
	if s == South {
		return h < g.m
	}
	return h > g.m && h <= 2*g.m
}

func (g *refGame) legal() []int {
	var out []int
	for i := 0; i < g.m; i++ {
		if g.holes[g.pitHole(g.toMove, i)] > 0 {
			out = append(out, i)
		}
	}
	return out
}

func (g *refGame) clone() *refGame {
	c := *g
	c.holes = append([]int(nil), g.holes...)
	return &c
}

// refPerft counts move sequences of each length by the reference.
func refPerft(g *refGame, counts []int64) {
	moves := g.legal()
	counts[0] += int64(len(moves))
	if len(counts) == 1 {
		return
	}
	for _, i := range moves {
		c := g.clone()
		if _, _, over := c.play(i); !over {
			refPerft(c, counts[1:])
		}
	}
}
