package play

import (
	"math/rand/v2"
	"testing"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/results"
)

// TestCaptureCounts plays random games and checks every capture's count
// against the stores: a capture that does not end the game banks exactly
// what the sowing dropped in the mover's store plus the capture, and
// leaves the opponent's pit empty.
func TestCaptureCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	captures := 0
	for _, c := range engine.AllRules {
		for _, m := range []int{1, 3, 6} {
			r, _ := engine.NewVariant(m, c)
			for game := 0; game < 200; game++ {
				start, _ := r.StartPosition(1 + rng.IntN(6))
				l := &Line{Variant: r, Start: start}
				for !l.Current().Board.Over() {
					p := l.Current()
					ms := p.Board.MoveList()
					i := ms[rng.IntN(len(ms))]
					if err := l.Play(engine.MoveLetter(p.ToMove, i)); err != nil {
						t.Fatal(err)
					}
					st := l.Steps[len(l.Steps)-1]
					if !st.Result.Capture() || st.Result.Over() {
						continue
					}
					captures++
					s := p.Board.Pit(i)
					into := 0 // seeds the sowing dropped in the mover's store
					for k := 1; k <= s; k++ {
						if (i+k)%(2*m+1) == m {
							into++
						}
					}
					before, after := p.Holes(), st.After.Holes()
					store := m
					if p.ToMove == engine.North {
						store = 2*m + 1
					}
					if got := after[store] - before[store]; got != into+st.Captured {
						t.Fatalf("%v %v: sowing %s banked %d, want %d sown + %d captured", r, p, st.Move, got, into, st.Captured)
					}
					from := int(st.CapturedFrom[0]|0x20) - 'a' // the letter's pit, either case
					if after[oppHole(m, p.ToMove, from)] != 0 {
						t.Fatalf("%v %v: sowing %s left pit %s with seeds", r, p, st.Move, st.CapturedFrom)
					}
				}
			}
		}
	}
	if captures < 100 {
		t.Fatalf("only %d captures in the random games", captures)
	}
}

// oppHole is the standard-order hole of the opponent's pit i.
func oppHole(m int, mover engine.Side, i int) int {
	if mover == engine.South {
		return m + 1 + i
	}
	return i
}

func TestReplayErrors(t *testing.T) {
	r, _ := engine.NewVariant(4, engine.NoEmptyCapture)
	start, _ := r.StartPosition(3)
	l, err := Replay(r, start, SplitMoves("b, d A,x"))
	if err == nil || len(l.Steps) != 3 {
		t.Fatalf("Replay = %d steps, %v; want 3 steps and an error", len(l.Steps), err)
	}
	if got := l.Letters(); got != "bd-A" {
		t.Errorf("Letters = %q, want bd-A", got)
	}
	l.Undo(2)
	if got := l.Letters(); got != "b" {
		t.Errorf("after Undo(2): %q, want b", got)
	}
}

func TestLevels(t *testing.T) {
	rec := &results.Record{Rule: "no-empty-capture", Pits: 4, Position: "3,3,3,3,0,3,3,3,3,0", ToMove: "south", Value: 6,
		Moves: []results.MoveValue{{Move: "a", Value: -6}, {Move: "b", Value: 6}, {Move: "c", Value: 3}, {Move: "d", Value: -2}}}
	want := map[string]string{"perfect": "b", "medium": "bc", "easy": "bcd"}
	for _, l := range Levels {
		var got string
		for _, m := range l.Candidates(rec) {
			got += m.Move
		}
		if got != want[l.Name] {
			t.Errorf("%s: candidates %q, want %q", l.Name, got, want[l.Name])
		}
		seen := map[string]bool{}
		for seed := uint64(0); seed < 64; seed++ {
			a, _ := l.Choose(rec, seed)
			b, _ := l.Choose(rec, seed)
			if a != b {
				t.Fatalf("%s seed %d: %v then %v", l.Name, seed, a, b)
			}
			seen[a.Move] = true
		}
		if len(seen) != len(want[l.Name]) {
			t.Errorf("%s: 64 seeds chose %v, want each of %q", l.Name, seen, want[l.Name])
		}
	}
	if _, err := ParseLevel("godlike"); err == nil {
		t.Error("ParseLevel(godlike) succeeded")
	}
	if l, err := ParseLevel("2"); err != nil || l.Name != "medium" {
		t.Errorf("ParseLevel(2) = %v, %v", l, err)
	}
}
