package reference

import "testing"

// TestHandValues checks positions small enough to play out by hand.
func TestHandValues(t *testing.T) {
	cases := []struct {
		rules Rules
		holes []int
		north bool
		want  int
	}{
		// Kalah(1,1): the seed goes to the store (extra turn), South's side
		// is empty, North sweeps its seed: 1-1.
		{Rules{Pits: 1}, []int{1, 0, 1, 0}, false, 0},
		// South's only seed lands in its empty pit b, facing North's empty
		// pit A. With the empty capture it is banked and the game ends
		// (North sweeps 3): 1-3. Without, North's only move sows its store
		// and South's two pits and empties North's side; South sweeps 3: 3-1.
		{Rules{Pits: 2, EmptyCapture: true}, []int{1, 0, 0, 0, 3, 0}, false, -2},
		{Rules{Pits: 2}, []int{1, 0, 0, 0, 3, 0}, false, 2},
		// The same seen from North, stores relative.
		{Rules{Pits: 2}, []int{0, 3, 5, 1, 0, 7}, true, 2},
	}
	for _, c := range cases {
		s := NewSolver(c.rules, 0)
		if got := s.Value(s.Game(c.holes, c.north)); got != c.want {
			t.Errorf("%+v %v north=%v: value %d, want %d", c.rules, c.holes, c.north, got, c.want)
		}
	}
}

// TestPerftStart: the first plies of Kalah(6,4), counted by hand: six
// moves; after the extra turn (pit c, now empty) South's five others, after
// each of the other five North's six: 5 + 30.
func TestPerftStart(t *testing.T) {
	r := Rules{Pits: 6}
	h := []int{4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0}
	if got := r.Perft(r.Game(h, false), 2); got[0] != 6 || got[1] != 35 {
		t.Errorf("perft %v, want [6 35]", got)
	}
}
