package results

import (
	"slices"
	"testing"
)

// Unsolved are the target cells (TargetCells) that have no committed
// record, by rule: out of the solver's reach in the time the records were
// made. TestCommittedRecords keeps this list exact, so a cell can neither
// go missing silently nor stay listed once solved.
var Unsolved = map[string][][2]int{}

// The committed records (results/data) are complete and consistent: every
// target cell is there or listed in Unsolved; every record passes Check
// (legal principal variation ending at the value, every opening chain,
// best chain = value); the W/L/D and margins agree with every published
// value of their rule; and the game graphs agree with the records.
func TestCommittedRecords(t *testing.T) {
	s := Archive{Dir: DefaultDir[len("results/"):]}
	for _, rule := range Rules {
		recs, err := s.Load(rule)
		if err != nil {
			t.Fatal(err)
		}
		have := map[[2]int]*Record{}
		for i := range recs {
			r := &recs[i]
			if err := r.Check(); err != nil {
				t.Error(err)
			}
			have[[2]int{r.Pits, r.Seeds}] = r
			for _, p := range PublishedFor(rule, r.Pits, r.Seeds) {
				if r.Result != p.Result || (p.Value != nil && r.Value != *p.Value) {
					t.Errorf("%s: %s %s, published %s %v (%s)", r.Name(), Signed(r.Value), r.Result, p.Result, p.Value, p.Source)
				}
			}
			if r.VCSRevision == "" || r.CPU == "" || r.Go == "" {
				t.Errorf("%s: provenance incomplete: %+v", r.Name(), r.Provenance)
			}
		}
		for _, c := range TargetCells() {
			listed := slices.Contains(Unsolved[rule], c)
			switch _, ok := have[c]; {
			case !ok && !listed:
				t.Errorf("Kalah(%d,%d) %s: no record, and not listed as unsolved", c[0], c[1], rule)
			case ok && listed:
				t.Errorf("Kalah(%d,%d) %s: solved, but listed as unsolved", c[0], c[1], rule)
			}
		}
	}
	graphs, err := s.LoadGraphs()
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range graphs {
		r, err := s.Get(g.Rule, g.Pits, g.Seeds)
		if err != nil {
			t.Fatal(err)
		}
		if r != nil && r.Value != g.StartValue {
			t.Errorf("%s: the game graph's start value %d differs from the record's %d", g.Name(), g.StartValue, r.Value)
		}
		if g.Rule == "empty-capture" && g.Pits == 4 && g.Seeds == 3 && g.Positions != GraphConventions43[0].Positions {
			t.Errorf("%s: %d positions, the report says %d", g.Name(), g.Positions, GraphConventions43[0].Positions)
		}
		if g.Won+g.Lost+g.Drawn != g.Positions-g.Terminal {
			t.Errorf("%s: W/L/D do not add up", g.Name())
		}
	}
}
