package results

import (
	"path/filepath"
	"testing"
)

// TestPlayersRecords: every committed k-player record passes its check
// (a clean build's provenance, a principal variation that replays to its
// stores, guarantees for paranoid).
func TestPlayersRecords(t *testing.T) {
	s := Archive{Dir: filepath.Join("..", DefaultDir)}
	recs, err := s.LoadPlayers()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[playersKey]bool{}
	for _, r := range recs {
		if err := r.Check(); err != nil {
			t.Error(err)
		}
		if seen[playersCell(r)] {
			t.Errorf("%s: two records", r.Name())
		}
		seen[playersCell(r)] = true
	}
	// A seat's max^n store is never below what it can guarantee: at its own
	// turns max^n takes the best child, at others' some child, whose max^n
	// value is at least its paranoid value, itself at least the minimum.
	for _, m := range recs {
		if m.Concept != "maxn" {
			continue
		}
		for _, p := range recs {
			k := playersCell(p)
			if k.concept == "paranoid" && k.k == m.Players && k.m == m.Pits && k.n == m.Seeds && k.target == m.CaptureTarget {
				for s := range m.Stores {
					if m.Stores[s] < p.Guarantees[s] {
						t.Errorf("%s: P%d gets %d, below its paranoid guarantee %d", m.Name(), s+1, m.Stores[s], p.Guarantees[s])
					}
				}
			}
		}
	}
}

func TestPlayersRecordCheck(t *testing.T) {
	good := PlayersRecord{
		Players: 3, Pits: 4, Seeds: 1, CaptureTarget: "next", Rule: "no-empty-capture", Concept: "paranoid",
		Value: 4, Stores: []int{4, 2, 6}, Guarantees: []int{4, 3, 3},
		Openings: []PlayersOpening{{Move: "1d", Value: 4, Stores: []int{4, 2, 6}}}, Best: []string{"1d"},
		PV:         "1d 1c 2b 3d 3c 1b 2c 2d",
		Provenance: Provenance{VCSRevision: "a0cfe28e3498f33d87c6c19dac2057d361ddc93e", CPU: "x"},
	}
	if err := good.Check(); err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string]func(*PlayersRecord){
		"dirty":     func(r *PlayersRecord) { r.VCSRevision += "+dirty" },
		"stores":    func(r *PlayersRecord) { r.Stores = []int{4, 3, 5} },
		"pv":        func(r *PlayersRecord) { r.PV = "1d 1c 2b" },
		"opposite3": func(r *PlayersRecord) { r.CaptureTarget = "opposite" },
		"concept":   func(r *PlayersRecord) { r.Concept = "nash" },
		"guarantee": func(r *PlayersRecord) { r.Guarantees = []int{5, 3, 3} },
	} {
		r := good
		r.Stores = append([]int(nil), good.Stores...)
		bad(&r)
		if err := r.Check(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
