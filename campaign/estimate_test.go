package campaign

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/kalah-solver/kalah/engine"
)

// refFrontier walks positions (not relative boards) with PlayPosition,
// two moves deep or down to an extra-turn chain of the same length, and
// collects the mover's boards: the reference for frontier with split 1.
func refFrontier(r engine.Variant, root engine.Position, plies int) map[engine.Key]bool {
	out := map[engine.Key]bool{}
	var walk func(p engine.Position, left int)
	walk = func(p engine.Position, left int) {
		if p.Board.Over() {
			return
		}
		if left == 0 {
			out[p.Board.Key()] = true
			return
		}
		for i := 0; i < r.Pits; i++ {
			if p.Board.Pit(i) == 0 {
				continue
			}
			q, _ := r.PlayPosition(p, i)
			walk(q, left-1)
		}
	}
	walk(root, plies)
	return out
}

func TestFrontier(t *testing.T) {
	for _, c := range []engine.Rule{engine.NoEmptyCapture, engine.EmptyCapture} {
		for _, m := range []int{4, 6} {
			r := engine.Variant{Pits: m, Rule: c}
			root, _ := r.StartPosition(3)
			for split := 0; split <= 2; split++ {
				units, local := frontier(r, root, split, 0)
				want := refFrontier(r, root, split+1)
				got := map[engine.Key]bool{}
				for _, b := range units {
					got[b.Key()] = true
				}
				if local != 0 || len(got) != len(units) || len(got) != len(want) {
					t.Errorf("%v split %d: %d boards (%d distinct, %d local), want %d", r, split, len(units), len(got), local, len(want))
					continue
				}
				for k := range want {
					if !got[k] {
						t.Errorf("%v split %d: board %x missing", r, split, k)
						break
					}
				}
			}
			// With every board small enough, no unit at all.
			if units, local := frontier(r, root, 1, 2*m*3); len(units) != 0 || local != 1 {
				t.Errorf("%v: everything local: %d units, %d local", r, len(units), local)
			}
		}
	}
}

// On Kalah(4,3) every sample test finishes at once: the extrapolation is
// its arithmetic on the sample, and the sample is the whole frontier.
func TestEstimate(t *testing.T) {
	r := engine.Variant{Pits: 4, Rule: engine.EmptyCapture}
	root, _ := r.StartPosition(3)
	p := NewParams("est", r, 3, root)
	p.LocalSeeds = 6
	e, err := RunEstimate(context.Background(), p, EstimateConfig{Budget: 10 * time.Minute, Threads: 1, TableSize: 16 << 20, NoEGDB: true, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	units, local := frontier(r, root, 1, 6)
	var sum int64
	for _, n := range e.SampleNodes {
		if n <= 0 {
			t.Errorf("a sample test of %d nodes", n)
		}
		sum += n
	}
	if e.Frontier != len(units)+local || e.Sampled != len(units) || e.Finished != e.Sampled || e.LowerBound || len(e.SampleNodes) != e.Sampled {
		t.Fatalf("frontier %d (want %d), sampled %d, finished %d, lower %v", e.Frontier, len(units)+local, e.Sampled, e.Finished, e.LowerBound)
	}
	mean := math.Round(float64(sum) / float64(len(e.SampleNodes)))
	wantUnits := math.Round(float64(len(units)) * TestsPerBoard(1))
	if e.MeanNodes != mean || e.Units != wantUnits || e.Nodes != math.Round(wantUnits*mean) {
		t.Errorf("mean %v units %v nodes %v; want %v %v %v", e.MeanNodes, e.Units, e.Nodes, mean, wantUnits, math.Round(wantUnits*mean))
	}
	if e.Basis == "" || e.TestsPerBoard != TestsPerBoard(1) || e.EGDBSeeds != -1 {
		t.Errorf("basis %q, tests per board %v, database %d", e.Basis, e.TestsPerBoard, e.EGDBSeeds)
	}

	// With a database, the estimate says which depth its sample used.
	dir := buildDB(t, r, 8)
	e, err = RunEstimate(context.Background(), p, EstimateConfig{Budget: 10 * time.Minute, Threads: 1, TableSize: 16 << 20, EGDBDir: dir, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if e.EGDBSeeds != 8 || e.Finished != e.Sampled {
		t.Errorf("with an 8-seed database: database %d, %d of %d sample tests finished", e.EGDBSeeds, e.Finished, e.Sampled)
	}

	// A deeper split assumes the units per board measured at that split;
	// past the measured ones it wants one given.
	p.Split = 2
	e, err = RunEstimate(context.Background(), p, EstimateConfig{Budget: time.Millisecond, Threads: 1, TableSize: 16 << 20, NoEGDB: true})
	if err != nil {
		t.Fatal(err)
	}
	if units, _ := frontier(r, root, 2, 6); e.TestsPerBoard != TestsPerBoard(2) || e.TestsPerBoard >= TestsPerBoard(1) ||
		e.Units != math.Round(float64(len(units))*TestsPerBoard(2)) {
		t.Errorf("split 2: %v tests per board, %v units of %d boards", e.TestsPerBoard, e.Units, len(units))
	}
	p.Split = 9
	if _, err := RunEstimate(context.Background(), p, EstimateConfig{Budget: time.Millisecond, NoEGDB: true}); err == nil {
		t.Error("split 9 without --tests-per-board: no error")
	}
}

// Pooling two estimates' samples gives what one estimate of all the
// sample tests would: their mean, median and nodes.
func TestEstimatePool(t *testing.T) {
	p := Params{Rule: "empty-capture", Pits: 6, Seeds: 6, Position: "6,6,6,6,6,6,0,6,6,6,6,6,6,0", ToMove: "south", Split: 3}
	a := Estimate{Params: p, Sampled: 2, Finished: 2, SampleNodes: []int64{10, 40}, SampleSeconds: 1, Units: 100}
	b := Estimate{Params: p, Sampled: 1, SampleNodes: []int64{70}, SampleSeconds: 2, Units: 100, LowerBound: true}
	a.summarize()
	if err := a.Pool(b); err != nil {
		t.Fatal(err)
	}
	if a.Sampled != 3 || a.Finished != 2 || !a.LowerBound || a.MeanNodes != 40 || a.MedianNodes != 40 || a.Nodes != 4000 || a.NodesPerSec != 40 {
		t.Errorf("pooled %+v", a)
	}
	b.Split = 4
	if err := a.Pool(b); err == nil {
		t.Error("an estimate of another split pooled")
	}
}
