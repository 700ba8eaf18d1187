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
	var rules []engine.Variant
	for k := 0; k < 40; k++ {
		r := engine.Variant{Pits: 3 + k%4, Rule: engine.AllRules[k%2]}
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
		for _, cp := range engine.AllRules {
			r := engine.Variant{Pits: c.m, Rule: cp}
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

// TestThreadsAgreeDeepened: on a board SolveEveryMove deepens on, where
// several threads hand out the later moves from the end of root order,
// every move's value is the one thread's.
func TestThreadsAgreeDeepened(t *testing.T) {
	for _, cp := range engine.AllRules {
		r := engine.Variant{Pits: 4, Rule: cp}
		p, _ := r.StartPosition(5)
		var first []MoveValue
		for _, threads := range []int{1, 2} {
			s := newTestSolver(t, r, threads)
			if !s.Deepens(p.Board) {
				t.Fatalf("%v: Kalah(4,5) is not deepened on", r)
			}
			res, err := s.SolveEveryMove(context.Background(), p)
			s.Close()
			if err != nil {
				t.Fatal(err)
			}
			if first == nil {
				first = res.Moves
			} else if !slices.Equal(first, res.Moves) {
				t.Fatalf("%v: threads=%d moves %v, 1 thread %v", r, threads, res.Moves, first)
			}
		}
	}
}

func TestHandOutOrder(t *testing.T) {
	order := []int{2, 5, 4, 3, 1, 0}
	if got := handOutOrder(order, false); !slices.Equal(got, order) {
		t.Errorf("not deepened: %v, want root order %v", got, order)
	}
	if got, want := handOutOrder(order, true), []int{2, 0, 1, 3, 4, 5}; !slices.Equal(got, want) {
		t.Errorf("deepened: %v, want %v", got, want)
	}
	if !slices.Equal(order, []int{2, 5, 4, 3, 1, 0}) {
		t.Errorf("order changed to %v", order)
	}
	if got := handOutOrder([]int{3, 1}, true); !slices.Equal(got, []int{3, 1}) {
		t.Errorf("two moves: %v", got)
	}
}
