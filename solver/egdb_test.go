package solver

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kalah-solver/kalah/egdb"
	"github.com/kalah-solver/kalah/engine"
)

// TestSameValuesWithDatabase: with an endgame database the solver gives the
// same value and per-move values as without, on start and mid-game
// positions of both rules.
func TestSameValuesWithDatabase(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for _, c := range engine.Captures {
		for _, m := range []int{4, 6} {
			r := engine.Rules{Pits: m, Capture: c}
			db, err := egdb.Build(context.Background(), r, 10, egdb.Options{Threads: 2})
			if err != nil {
				t.Fatal(err)
			}
			positions := []engine.Position{}
			for k := 0; k < 12; k++ {
				positions = append(positions, randomPosition(rng, r, 2, rng.IntN(3*m)))
			}
			if m == 4 {
				p, _ := r.StartPosition(3)
				positions = append(positions, p)
			}
			hits := int64(0)
			for _, p := range positions {
				plain := newTestSolver(t, r, 1)
				with, err := New(r, Options{TTBytes: 1 << 22, Threads: 1, DB: db})
				if err != nil {
					t.Fatal(err)
				}
				a, err1 := plain.SolveEveryMove(context.Background(), p)
				b, err2 := with.SolveEveryMove(context.Background(), p)
				plain.Close()
				with.Close()
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				if a.Value != b.Value || !slices.Equal(a.Moves, b.Moves) {
					t.Fatalf("%v %v: without db %d %v, with db %d %v", r, p, a.Value, a.Moves, b.Value, b.Moves)
				}
				hits += b.Stats.DBHits
			}
			if hits == 0 {
				t.Fatalf("%v: the database was never used", r)
			}
			db.Close()
		}
	}
}
