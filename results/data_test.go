package results

import (
	"slices"
	"strings"
	"testing"
)

// Unattempted are the target cells (TargetCells) that have neither a
// committed record nor an open record (results/data/open.jsonl), by rule.
// TestCommittedRecords keeps this list exact, so a cell can neither go
// missing silently nor stay listed once attempted.
var Unattempted = map[string][][2]int{}

// The committed records (results/data) are complete and consistent: every
// target cell is there, open (with proven bounds) or listed in
// Unattempted, never two of these (a larger cell may be open too, which
// the report lists after the targets); every record passes Check
// (legal principal variation ending at the value, every opening chain,
// best chain = value); the W/L/D and margins agree with every published
// value of their rule; and the game graphs agree with the records.
func TestCommittedRecords(t *testing.T) {
	s := Archive{Dir: DefaultDir[len("results/"):]}
	open, err := s.LoadOpen()
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range open {
		if err := o.Check(); err != nil {
			t.Error(err)
		}
		checkProvenance(t, o.Name(), o.Provenance)
	}
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
			checkProvenance(t, r.Name(), r.Provenance)
		}
		for _, c := range TargetCells() {
			n := 0
			if have[c] != nil {
				n++
			}
			if slices.ContainsFunc(open, func(o Open) bool { return o.Rule == rule && o.Pits == c[0] && o.Seeds == c[1] }) {
				n++
			}
			if slices.Contains(Unattempted[rule], c) {
				n++
			}
			if n != 1 {
				t.Errorf("Kalah(%d,%d) %s: %d of solved, open and unattempted, want exactly one", c[0], c[1], rule, n)
			}
		}
	}
	graphs, err := s.LoadGraphs()
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range graphs {
		checkProvenance(t, g.Name(), g.Provenance)
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

// checkProvenance: every record names its build, a committed revision
// without local changes, so that anyone can build it again and recompute
// the record.
func checkProvenance(t *testing.T, name string, p Provenance) {
	t.Helper()
	if p.VCSRevision == "" || p.CPU == "" || p.Go == "" {
		t.Errorf("%s: provenance incomplete: %+v", name, p)
	}
	if strings.HasSuffix(p.VCSRevision, "+dirty") {
		t.Errorf("%s: made by a build of a modified tree (%s)", name, p.VCSRevision)
	}
}
