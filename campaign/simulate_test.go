package campaign

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/kalah-solver/kalah/engine"
)

// bruteWall is the wall time of a unit tree on p workers by brute force:
// every order of starting the ready units is tried, and the greedy rule
// Simulate uses (a free worker never waits while a unit is ready, ties to
// the first issued) is checked to give one of the schedules, bounded
// below by the longest chain and by the work over p.
func lowerBound(traces []Trace, p int, delay float64) float64 {
	work, chain := 0.0, map[string]float64{}
	longest := 0.0
	for _, tr := range traces { // in order of issue: causes come first
		d := tr.Seconds + delay
		work += d
		start := tr.Issued - traces[0].Issued
		if c, ok := chain[tr.Cause]; ok {
			for _, u := range traces {
				if u.ID == tr.Cause {
					start = c + (tr.Issued - u.Finished)
				}
			}
		}
		chain[tr.ID] = start + d
		longest = max(longest, start+d)
	}
	return max(longest, work/float64(p))
}

func TestSimulateSmallTrees(t *testing.T) {
	// Two roots of 1 s, each answer leading to a child of 2 s issued 0.5 s
	// later, and a third root of 3 s issued at 1 s.
	tr := []Trace{
		{ID: "a", Issued: 100, Finished: 101, Seconds: 1},
		{ID: "b", Issued: 100, Finished: 102, Seconds: 1},
		{ID: "c", Issued: 101, Finished: 104, Seconds: 3},
		{ID: "a1", Cause: "a", Issued: 101.5, Finished: 103.5, Seconds: 2},
		{ID: "b1", Cause: "b", Issued: 102.5, Finished: 105, Seconds: 2},
	}
	for i := range tr {
		tr[i].Worker = fmt.Sprint("w", i%2)
	}
	sim := Simulate(tr, []int{1, 2, 3, 100}, 0)
	if sim.Units != 5 || sim.Recorded != 5 || sim.RecordedWorkers != 2 {
		t.Fatalf("%+v", sim)
	}
	prev := 1e9
	for _, p := range sim.Predictions {
		lb := lowerBound(tr, p.Workers, sim.Delay)
		if p.Seconds < lb-1e-9 || p.Seconds > prev+1e-9 || p.Busy != round3(9+5*sim.Delay) || p.Efficiency <= 0 || p.Efficiency > 1 {
			t.Errorf("%d workers: %+v (lower bound %.3f, fewer workers %.3f)", p.Workers, p, lb, prev)
		}
		prev = p.Seconds
	}
	// One worker runs everything back to back: the work, no gap (every
	// unit is ready before the one before it ends).
	if one := sim.Predictions[0]; one.Seconds != round3(9+5*sim.Delay) || one.Idle != 0 {
		t.Errorf("one worker: %+v", one)
	}
	// Enough workers: the longest chain.
	if many := sim.Predictions[3]; many.Seconds != round3(lowerBound(tr, 100, sim.Delay)) {
		t.Errorf("100 workers: %+v, want the longest chain %.3f", many, lowerBound(tr, 100, sim.Delay))
	}
	// At a rate, a unit takes its nodes over it.
	for i := range tr {
		tr[i].Nodes = 1000
	}
	if s := Simulate(tr, []int{1}, 1000); s.Predictions[0].Busy != round3(5+5*s.Delay) {
		t.Errorf("at 1000 nodes/s: %+v", s.Predictions[0])
	}
}

// Two root moves' units of 10 s each, issued at once, and the line's unit
// of 1 s caused by the later answer, 0.5 s after it: one worker runs them
// one after the other as recorded (21.5 s); two run the moves side by
// side and the line's unit after the later of them (0.1 + 10 + 0.5 + 1).
func TestSimulateLineAfterMoves(t *testing.T) {
	tr := []Trace{
		{ID: "a", Issued: 0, Finished: 10, Seconds: 10, Nodes: 1e7, Worker: "w"},
		{ID: "b", Issued: 0.1, Finished: 20, Seconds: 10, Nodes: 1e7, Worker: "w"},
		{ID: "c", Cause: "b", Issued: 20.5, Finished: 21.5, Seconds: 1, Nodes: 1e6, Worker: "w"},
	}
	sim := Simulate(tr, []int{1, 2, 3}, 0)
	if sim.Delay != 0 || sim.Recorded != 21.5 {
		t.Fatalf("%+v", sim)
	}
	for i, want := range []float64{21.5, 11.6, 11.6} {
		if got := sim.Predictions[i].Seconds; got != want {
			t.Errorf("%d workers: %.3f s, want %.3f", sim.Predictions[i].Workers, got, want)
		}
	}
	// At half the recorded rate every unit takes twice as long.
	if got := Simulate(tr, []int{2}, 5e5).Predictions[0].Seconds; got != 0.1+20+0.5+2 {
		t.Errorf("2 workers at 5e5 nodes/s: %.3f s, want %.3f", got, 0.1+20+0.5+2)
	}
}

// Workers sharing cores: units of 4 s and 8 s issued at once on two
// workers and one core run at half speed until the short one is done (at
// 8 s), then the long one alone (4 s left): 12 s, the work on one core;
// its child of 2 s, issued 1 s after it, runs alone. Three units of 6 s on
// three workers and two cores take 9 s; with a core each, 6 s.
func TestSimulateOnCores(t *testing.T) {
	tr := []Trace{
		{ID: "a", Issued: 0, Finished: 4, Seconds: 4, Worker: "w1"},
		{ID: "b", Issued: 0, Finished: 12, Seconds: 8, Worker: "w2"},
		{ID: "c", Cause: "b", Issued: 13, Finished: 15, Seconds: 2, Worker: "w2"},
	}
	sim := SimulateOnCores(tr, []int{1, 2}, 0, 1)
	if sim.Delay != 0 || sim.Cores != 1 {
		t.Fatalf("%+v", sim)
	}
	// One worker: a, then b (ready since 0), then c 1 s after b.
	if got := sim.Predictions[0]; got.Seconds != 4+8+1+2 || got.Busy != 14 {
		t.Errorf("1 worker on 1 core: %+v, want 15 s, 14 s busy", got)
	}
	if got := sim.Predictions[1]; got.Seconds != 12+1+2 || got.Busy != 8+12+2 {
		t.Errorf("2 workers on 1 core: %+v, want 15 s, 22 s busy", got)
	}
	if got := Simulate(tr, []int{2}, 0).Predictions[0]; got.Seconds != 8+1+2 || got.Busy != 14 {
		t.Errorf("2 workers, a core each: %+v, want 11 s", got)
	}
	three := []Trace{
		{ID: "x", Issued: 0, Finished: 6, Seconds: 6, Worker: "w"},
		{ID: "y", Issued: 0, Finished: 6, Seconds: 6, Worker: "w"},
		{ID: "z", Issued: 0, Finished: 6, Seconds: 6, Worker: "w"},
	}
	if got := SimulateOnCores(three, []int{3}, 0, 2).Predictions[0].Seconds; got != 9 {
		t.Errorf("3 workers on 2 cores: %.3f s, want 9", got)
	}
	if got := SimulateOnCores(three, []int{3}, 0, 3).Predictions[0].Seconds; got != 6 {
		t.Errorf("3 workers on 3 cores: %.3f s, want 6", got)
	}
}

// A campaign records every answered unit's trace, with causes among them.
func TestTracesRecorded(t *testing.T) {
	e := newEnv(t, 5*time.Second)
	_, stop := e.workers(2, nil)
	defer stop()
	p := params(t, "traced", engine.Variant{Pits: 4, Rule: engine.NoEmptyCapture}, 4, "", engine.South)
	p.LocalSeeds, p.Split = 4, 2
	_, st := e.solved(p, CoordinatorConfig{})
	traces, err := LoadTraces(context.Background(), e.c, p.Name)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	caused := 0
	var nodes int64
	for _, tr := range traces {
		ids[tr.ID] = true
		nodes += tr.Nodes
		if tr.Finished < tr.Issued || tr.Parent == "" && p.Split > 0 {
			t.Errorf("trace %+v", tr)
		}
	}
	for _, tr := range traces {
		if ids[tr.Cause] {
			caused++
		}
	}
	// Only a root move's first units go without a cause (they follow the
	// coordinator's guesses); the unit issued last follows an answer.
	if last := traces[len(traces)-1]; !ids[last.Cause] {
		t.Errorf("the unit issued last, %+v, has no recorded cause", last)
	}
	if int64(len(traces)) != st.Done || nodes != st.Nodes || caused == 0 {
		t.Errorf("%d traces (%d with a recorded cause), %d nodes; status %d units, %d nodes", len(traces), caused, nodes, st.Done, st.Nodes)
	}
	sim := Simulate(traces, []int{1, 2, 64}, 0)
	if sim.Units != len(traces) || sim.Predictions[0].Seconds < sim.Predictions[2].Seconds {
		t.Errorf("%+v", sim)
	}
}

// Every sample test of the same cost: each draw gives every unit that
// cost times the estimate's units over the tree's, so the projection is
// Simulate at the rate that makes a recorded unit's nodes take that long.
func TestProjectOneCost(t *testing.T) {
	tr := []Trace{
		{ID: "a", Issued: 0, Finished: 10, Seconds: 10, Nodes: 1e7, Worker: "w"},
		{ID: "b", Issued: 0.1, Finished: 20, Seconds: 10, Nodes: 1e7, Worker: "w"},
		{ID: "c", Cause: "b", Issued: 20.5, Finished: 21.5, Seconds: 1, Nodes: 1e7, Worker: "w"},
	}
	// 6 units of 2e6 nodes estimated on a tree of 3: 4e6 nodes a unit,
	// 2 s each at 2e6 nodes a second.
	pr, err := Project(tr, []int64{2e6, 2e6}, 6, 2e6, []int{1, 2}, 0, 20, 1)
	if err != nil {
		t.Fatal(err)
	}
	sim := Simulate(tr, []int{1, 2}, 1e7/2)
	for i, sp := range pr.Predictions {
		want := sim.Predictions[i].Seconds
		if pr.Scale != 2 || sp.Seconds != want || sp.Low != want || sp.High != want {
			t.Errorf("%d workers: %+v, want %.3f s", sp.Workers, sp, want)
		}
	}
	// Two costs: the draws spread between the tree with every unit cheap
	// and with every unit dear.
	pr, err = Project(tr, []int64{1e6, 4e6}, 3, 1e6, []int{2}, 0, 400, 2)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := Simulate(tr, []int{2}, 1e7).Predictions[0].Seconds, Simulate(tr, []int{2}, 1e7/4).Predictions[0].Seconds
	if sp := pr.Predictions[0]; sp.Low < lo || sp.High > hi || sp.Low >= sp.High || sp.Seconds < sp.Low || sp.Seconds > sp.High {
		t.Errorf("%+v, want within [%.3f, %.3f] and spread", sp, lo, hi)
	}
	if _, err := Project(tr, nil, 3, 1e6, []int{2}, 0, 10, 1); err == nil {
		t.Error("no sample: no error")
	}
}
