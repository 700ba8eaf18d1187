package campaign

import (
	"testing"
	"time"

	"github.com/kalah-solver/kalah/engine"
)

func TestHandsBack(t *testing.T) {
	now := time.Now()
	u := Unit{Prefer: "w1@h:1", PreferUntil: now.Add(3 * time.Second).UnixMilli()}
	if d, ok := handsBack(u, "w2@h:2", now, 200*time.Millisecond); !ok || d != 200*time.Millisecond {
		t.Errorf("another worker: %v %v, want a hand-back after 200ms", d, ok)
	}
	if d, ok := handsBack(u, "w2@h:2", now, 10*time.Second); !ok || d > 3*time.Second || d < 2*time.Second {
		t.Errorf("another worker, long delay: %v %v, want it cut to the preference's end", d, ok)
	}
	if _, ok := handsBack(u, "w1@h:1", now, time.Second); ok {
		t.Error("the preferred worker handed its unit back")
	}
	if _, ok := handsBack(u, "w2@h:2", now.Add(4*time.Second), time.Second); ok {
		t.Error("handed back after the preference ended")
	}
	if _, ok := handsBack(Unit{}, "w2@h:2", now, time.Second); ok {
		t.Error("a unit without a preference handed back")
	}
}

// With affinity, a board's later tests go first to the worker that
// answered its last one, which answers them (a preference that runs out
// under load lets the other take one), and the values stay kalah
// solve's.
func TestAffinity(t *testing.T) {
	e := newEnv(t, 5*time.Second)
	_, stop := e.workers(2, nil)
	defer stop()
	r := engine.Variant{Pits: 6, Rule: engine.NoEmptyCapture}
	p := params(t, "affine", r, 0, midGame, engine.North)
	_, st := e.solved(p, CoordinatorConfig{Affinity: true})
	t.Logf("%d units done, %d preferred, %d of them by their preferred worker", st.Done, st.Affine, st.AffineKept)
	if st.Affine == 0 {
		t.Fatalf("no unit went to a preferred worker (%d done)", st.Done)
	}
	if st.AffineKept == 0 {
		t.Errorf("none of %d preferred units answered by its preferred worker", st.Affine)
	}
	if st.Redelivered != 0 {
		t.Errorf("%d units delivered again", st.Redelivered)
	}
	traces, err := LoadTraces(t.Context(), e.c, p.Name)
	if err != nil {
		t.Fatal(err)
	}
	prefer := 0
	for _, tr := range traces {
		if tr.Prefer != "" {
			prefer++
		}
	}
	if int64(prefer) != st.Affine {
		t.Errorf("%d traces name a preferred worker, the status %d", prefer, st.Affine)
	}
}
