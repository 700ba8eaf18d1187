package solver

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kalah-solver/kalah/engine"
)

// TestThreadsAgree: 1, 2 and 4 threads give identical values and per-move
// values, on random positions and start positions, checked against the
// brute-force reference too.
func TestThreadsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	var positions []engine.Position
	var rules []engine.Rules
	for k := 0; k < 40; k++ {
		r := engine.Rules{Pits: 3 + k%4, Capture: engine.Captures[k%2]}
		p := randomPosition(rng, r, 3, 2*r.Pits)
		if p.Board.Seeds() > 12 {
			continue
		}
		positions = append(positions, p)
		rules = append(rules, r)
	}
	// Start positions too big for the reference: the threads are checked
	// against each other.
	for _, c := range []struct{ m, n int }{{4, 3}, {5, 3}, {6, 2}} {
		for _, cp := range engine.Captures {
			r := engine.Rules{Pits: c.m, Capture: cp}
			p, _ := r.StartPosition(c.n)
			positions = append(positions, p)
			rules = append(rules, r)
		}
	}
	refs := brutes{}
	for i, p := range positions {
		r := rules[i]
		br := refs.get(r)
		var first []MoveValue
		for _, threads := range []int{1, 2, 4} {
			s := newTestSolver(t, r, threads)
			res, err := s.SolveEveryMove(context.Background(), p)
			s.Close()
			if err != nil {
				t.Fatal(err)
			}
			if p.Board.Seeds() > 12 {
				// compared across thread counts only
			} else if want := br.value(p.Board); res.Value != want {
				t.Fatalf("%v %v threads=%d: value %d, reference %d", r, p, threads, res.Value, want)
			}
			if first == nil {
				first = res.Moves
			} else if !slices.Equal(first, res.Moves) {
				t.Fatalf("%v %v: threads=%d moves %v, 1 thread %v", r, p, threads, res.Moves, first)
			}
		}
	}
}
