package kalah

import (
	"context"
	"testing"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/results"
	"github.com/kalah-solver/kalah/solver"
)

// Every published value that solves within seconds, under its rule: the
// margins of Table 9 and the W/L/D of Table 10 for m <= 4 (empty-capture),
// and no-empty-capture's Kalah(6,3) = +2 (CMancala). The solve also checks
// its own record (Record.Check: legal principal variation ending at the
// value, every opening chain, best chain = value).
func TestPublishedValuesSolve(t *testing.T) {
	type cell struct {
		rule string
		m, n int
	}
	var cells []cell
	for m := 1; m <= 4; m++ {
		for n := 1; n <= 6; n++ {
			if !testing.Short() || m <= 3 || n <= 4 {
				cells = append(cells, cell{"empty-capture", m, n})
			}
		}
	}
	cells = append(cells, cell{"empty-capture", 5, 1}, cell{"empty-capture", 5, 2}, cell{"empty-capture", 5, 3},
		cell{"empty-capture", 6, 1}, cell{"empty-capture", 6, 2})
	if !testing.Short() {
		cells = append(cells, cell{"empty-capture", 5, 4}, cell{"empty-capture", 6, 3}, cell{"no-empty-capture", 6, 3})
	}
	checked := 0
	for _, c := range cells {
		pub := results.PublishedFor(c.rule, c.m, c.n)
		if len(pub) == 0 {
			t.Fatalf("Kalah(%d,%d) %s: nothing published", c.m, c.n, c.rule)
		}
		capt, _ := engine.ParseCapture(c.rule)
		k, err := Open(Config{Pits: c.m, Seeds: c.n, Rule: capt, NoEGDB: true, NoCache: true, TableBytes: min(solver.DefaultTTBytesFor(c.m, 2*c.m*c.n, 0), 256<<20)})
		if err != nil {
			t.Fatal(err)
		}
		cellRes, err := k.SolveStart(context.Background())
		k.Close()
		if err != nil {
			t.Fatalf("Kalah(%d,%d) %s: %v", c.m, c.n, c.rule, err)
		}
		r := cellRes.Record
		for _, p := range pub {
			if r.Result != p.Result || (p.Value != nil && r.Value != *p.Value) {
				t.Errorf("Kalah(%d,%d) %s: %s %s, published %s %v (%s)", c.m, c.n, c.rule, results.Signed(r.Value), r.Result, p.Result, p.Value, p.Source)
			}
			checked++
		}
	}
	t.Logf("%d published values reproduced", checked)
}
