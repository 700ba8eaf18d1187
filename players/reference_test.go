package players

// The slow, obviously-correct reference: a plain array of k(m+1) holes in
// the standard order (P1's pits, P1's store, P2's pits, ...), sown one seed
// at a time. The packed Play is checked against it move by move.

type refGame struct {
	r      Variant
	holes  []int
	toMove int
}

func refFromPosition(r Variant, p Position) *refGame {
	return &refGame{r: r, holes: p.Holes(), toMove: p.ToMove()}
}

func (g *refGame) store(s int) int    { return s*(g.r.Pits+1) + g.r.Pits }
func (g *refGame) pit(s, i int) int   { return s*(g.r.Pits+1) + i }
func (g *refGame) owner(h int) int    { return h / (g.r.Pits + 1) }
func (g *refGame) isStore(h int) bool { return h%(g.r.Pits+1) == g.r.Pits }

func (g *refGame) sideEmpty(s int) bool {
	for i := 0; i < g.r.Pits; i++ {
		if g.holes[g.pit(s, i)] != 0 {
			return false
		}
	}
	return true
}

// targets are the seats a capture by seat s takes from.
func (g *refGame) targets(s int) []int {
	k := g.r.Players
	switch g.r.Target {
	case TargetNext:
		return []int{(s + 1) % k}
	case TargetOpposite:
		return []int{(s + k/2) % k}
	}
	var out []int
	for d := 1; d < k; d++ {
		out = append(out, (s+d)%k)
	}
	return out
}

// play sows the mover's pit i seed by seed and reports extra turn, capture
// and game end.
func (g *refGame) play(i int) (extra, captured, over bool) {
	s, m := g.toMove, g.r.Pits
	n := len(g.holes)
	h := g.pit(s, i)
	seeds := g.holes[h]
	g.holes[h] = 0
	for seeds > 0 {
		h = (h + 1) % n
		if g.isStore(h) && g.owner(h) != s {
			continue
		}
		g.holes[h]++
		seeds--
	}
	switch {
	case h == g.store(s):
		extra = true
	case g.owner(h) == s && g.holes[h] == 1:
		j := h - g.pit(s, 0) // the mover's pit j faces each target's pit m-1-j
		take := 0
		for _, t := range g.targets(s) {
			take += g.holes[g.pit(t, m-1-j)]
		}
		if take > 0 {
			for _, t := range g.targets(s) {
				g.holes[g.pit(t, m-1-j)] = 0
			}
			g.holes[h] = 0
			g.holes[g.store(s)] += take + 1
			captured = true
		}
	}
	for p := 0; p < g.r.Players; p++ {
		over = over || g.sideEmpty(p)
	}
	if over {
		for p := 0; p < g.r.Players; p++ {
			for j := 0; j < m; j++ {
				g.holes[g.store(p)] += g.holes[g.pit(p, j)]
				g.holes[g.pit(p, j)] = 0
			}
		}
		return false, captured, true
	}
	if !extra {
		g.toMove = (s + 1) % g.r.Players
	}
	return extra, captured, false
}

func (g *refGame) legal() []int {
	var out []int
	for i := 0; i < g.r.Pits; i++ {
		if g.holes[g.pit(g.toMove, i)] > 0 {
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
func refPerft(g *refGame, counts []uint64) {
	moves := g.legal()
	counts[0] += uint64(len(moves))
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
