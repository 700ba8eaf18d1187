package graph_test

import (
	"context"
	"errors"
	"testing"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/graph"
	"github.com/kalah-solver/kalah/results"
)

// refPos is a position of the slow reference: the 2m+2 holes in the
// standard order (South's pits, South's store, North's pits, North's
// store) and the side to move.
type refPos struct {
	h    [2*graph.MaxPits + 2]int8
	side int8
}

// refVariant selects a counting convention of the reference.
type refVariant struct {
	empty   bool // empty-capture
	unswept bool // a finished game keeps its seeds in the pits instead of sweeping them
	skip    bool // a sowing of 2m+1 or more seeds skips its start pit
	// moverEnd: the game ends only when the side to move has no seeds
	// (rather than as soon as either side is empty).
	moverEnd bool
}

// refGraph walks every position reachable from the start of Kalah(m,n),
// sowing hole by hole, seed by seed, with a Go map, and returns the number
// of positions and of finished games.
func refGraph(m, n int, v refVariant) (positions, terminal int) {
	seen := map[refPos]bool{}
	var st refPos
	for i := 0; i < m; i++ {
		st.h[i], st.h[m+1+i] = int8(n), int8(n)
	}
	stack := []refPos{st}
	seen[st] = true
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if refDone(m, p, v) {
			terminal++
			continue
		}
		for d := 0; d < m; d++ {
			q, ok := refSow(m, p, d, v)
			if ok && !seen[q] {
				seen[q] = true
				stack = append(stack, q)
			}
		}
	}
	return len(seen), terminal
}

// refDone reports whether the game is over at p under v.
func refDone(m int, p refPos, v refVariant) bool {
	if !v.moverEnd {
		return refOver(m, p)
	}
	s := 0
	for i := 0; i < m; i++ {
		s += int(p.h[int(p.side)*(m+1)+i])
	}
	return s == 0
}

func refOver(m int, p refPos) bool {
	s, n := 0, 0
	for i := 0; i < m; i++ {
		s += int(p.h[i])
		n += int(p.h[m+1+i])
	}
	return s == 0 || n == 0
}

// refSow plays the mover's pit d (0-based from the mover's left) seed by
// seed; ok is false when the pit is empty. The side to move of a finished
// game is the player who made the last move.
func refSow(m int, p refPos, d int, v refVariant) (refPos, bool) {
	base, store, oppStore := 0, m, 2*m+1
	if p.side == 1 {
		base, store, oppStore = m+1, 2*m+1, m
	}
	i := base + d
	if p.h[i] == 0 {
		return p, false
	}
	q := p
	s := int(q.h[i])
	q.h[i] = 0
	pos := i
	big := s >= 2*m+1
	for s > 0 {
		pos = (pos + 1) % (2*m + 2)
		if pos == oppStore || (v.skip && big && pos == i) {
			continue
		}
		q.h[pos]++
		s--
	}
	extra := pos == store
	if !extra && pos >= base && pos < base+m && q.h[pos] == 1 {
		opp := 2*m - pos
		if q.h[opp] > 0 || v.empty {
			q.h[store] += q.h[opp] + 1
			q.h[opp], q.h[pos] = 0, 0
		}
	}
	if v.moverEnd {
		if !extra {
			q.side = 1 - q.side
		}
		if refDone(m, q, v) {
			refSweep(m, &q)
		}
		return q, true
	}
	if refOver(m, q) {
		if !v.unswept {
			refSweep(m, &q)
		}
		return q, true
	}
	if !extra {
		q.side = 1 - q.side
	}
	return q, true
}

func refSweep(m int, q *refPos) {
	for j := 0; j < m; j++ {
		q.h[m] += q.h[j]
		q.h[2*m+1] += q.h[m+1+j]
		q.h[j], q.h[m+1+j] = 0, 0
	}
}

// refValue is plain minimax over the reference: the final store
// difference for p's side to move.
func refValue(m int, p refPos, v refVariant) int {
	if refOver(m, p) {
		d := 0
		for j := 0; j <= m; j++ {
			d += int(p.h[j]) - int(p.h[m+1+j])
		}
		if p.side == 1 {
			d = -d
		}
		return d
	}
	best := -1 << 20
	for d := 0; d < m; d++ {
		q, ok := refSow(m, p, d, v)
		if !ok {
			continue
		}
		x := refValue(m, q, v)
		if q.side != p.side {
			x = -x
		}
		best = max(best, x)
	}
	return best
}

// Walk agrees with the slow reference on every tiny game: positions,
// finished games, and the start's value by plain minimax.
func TestWalkAgainstReference(t *testing.T) {
	cases := [][2]int{{1, 1}, {1, 2}, {1, 3}, {1, 6}, {2, 1}, {2, 2}, {2, 3}, {3, 1}, {3, 2}, {4, 1}}
	if !testing.Short() {
		cases = append(cases, [2]int{3, 3}, [2]int{4, 2}, [2]int{5, 1})
	}
	for _, c := range []engine.Rule{engine.EmptyCapture, engine.NoEmptyCapture} {
		v := refVariant{empty: c == engine.EmptyCapture}
		for _, mn := range cases {
			m, n := mn[0], mn[1]
			g, err := graph.Walk(context.Background(), engine.Variant{Pits: m, Rule: c}, n, graph.Options{})
			if err != nil {
				t.Fatal(err)
			}
			pos, term := refGraph(m, n, v)
			if g.Positions != int64(pos) || g.Terminal != int64(term) {
				t.Errorf("Kalah(%d,%d) %v: %d positions (%d finished), reference %d (%d)", m, n, c, g.Positions, g.Terminal, pos, term)
			}
			if g.Won+g.Lost+g.Drawn != g.Positions-g.Terminal || g.WonAll+g.LostAll+g.DrawnAll != g.Positions {
				t.Errorf("Kalah(%d,%d) %v: W/L/D do not add up: %+v", m, n, c, g)
			}
			if m*n <= 6 { // plain minimax grows exponentially
				var st refPos
				for i := 0; i < m; i++ {
					st.h[i], st.h[m+1+i] = int8(n), int8(n)
				}
				if want := refValue(m, st, v); g.StartValue != want {
					t.Errorf("Kalah(%d,%d) %v: start value %d, minimax %d", m, n, c, g.StartValue, want)
				}
			}
		}
	}
}

func TestWalkBranching(t *testing.T) {
	g, err := graph.Walk(context.Background(), engine.Variant{Pits: 1, Rule: engine.EmptyCapture}, 1, graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Kalah(1,1): the start (one move: a to the store, extra turn, South's
	// side empty, game over 1-1 swept): two positions, one finished.
	if g.Positions != 2 || g.Terminal != 1 || g.BranchMean != 1 || g.BranchSD != 0 || g.StartValue != 0 {
		t.Errorf("Kalah(1,1): %+v", g)
	}
}

func TestWalkMaxPositions(t *testing.T) {
	_, err := graph.Walk(context.Background(), engine.Variant{Pits: 3, Rule: engine.EmptyCapture}, 3, graph.Options{MaxPositions: 1000})
	if !errors.Is(err, graph.ErrTooBig) {
		t.Errorf("err %v, want ErrTooBig", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = graph.Walk(ctx, engine.Variant{Pits: 3, Rule: engine.EmptyCapture}, 3, graph.Options{ProgressEvery: 100})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err %v", err)
	}
}

// The conventions tried for the paper's Table 3 (Kalah(4,3), 4,604,996
// positions): the counts results.GraphConventions43 reports in
// docs/results.md.
func TestGraphConventions43(t *testing.T) {
	if testing.Short() {
		t.Skip("walks Kalah(4,3) four times")
	}
	for _, c := range results.GraphConventions43 {
		pos, _ := refGraph(4, 3, refVariant{empty: c.EmptyCapture, unswept: c.Unswept, skip: c.SkipStart, moverEnd: c.MoverEnd})
		if int64(pos) != c.Positions {
			t.Errorf("%s: %d positions, the report says %d", c.Name, pos, c.Positions)
		}
	}
}
