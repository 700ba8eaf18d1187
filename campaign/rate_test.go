package campaign

import (
	"strings"
	"testing"
	"time"
)

// The rate is measured on synthetic samples (no clock in the test): the
// expected numbers are worked out by hand from the samples.
func TestRateWindow(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var m rateMeter
	if w, _, _ := m.rate(); w != 0 {
		t.Fatalf("no samples: window %v", w)
	}
	// One answer every 2 s, 1000 nodes each, for 20 minutes.
	for i := 0; i <= 600; i++ {
		m.add(sample{t: t0.Add(time.Duration(2*i) * time.Second), done: int64(i), nodes: int64(1000 * i)})
	}
	if span := m.s[len(m.s)-1].t.Sub(m.s[0].t); span > RateKeep+2*time.Second || span < RateKeep {
		t.Errorf("kept %v of samples, want %v", span, RateKeep)
	}
	w, u, n := m.rate()
	if w != RateSpan || u != 0.5 || n != 500 {
		t.Errorf("steady: window %v, %v units/s, %v nodes/s; want 60s, 0.5, 500", w, u, n)
	}
	// Then 100 s without an answer: the window reaches back until it
	// holds RateUnits answers (8 answers, 16 s before the pause).
	last := m.s[len(m.s)-1]
	for i := 1; i <= 50; i++ {
		m.add(sample{t: last.t.Add(time.Duration(2*i) * time.Second), done: last.done, nodes: last.nodes})
	}
	w, u, n = m.rate()
	if w != 116*time.Second || u != 8.0/116 || n != 8000.0/116 {
		t.Errorf("after a pause: window %v, %v units/s, %v nodes/s; want 116s, %v, %v", w, u, n, 8.0/116, 8000.0/116)
	}
	// A meter whose samples never hold RateUnits answers measures over
	// all of them.
	var few rateMeter
	few.add(sample{t: t0, done: 0})
	few.add(sample{t: t0.Add(10 * time.Second), done: 1, nodes: 40})
	if w, u, n := few.rate(); w != 10*time.Second || u != 0.1 || n != 4 {
		t.Errorf("few: %v %v %v", w, u, n)
	}
}

func TestETA(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	fresh := now.Add(-2 * time.Second).Format(time.RFC3339)
	cases := []struct {
		st    Status
		eta   float64 // -1: unknown
		basis string
	}{
		{Status{State: "running", Updated: fresh, RateWindow: 60, UnitsPerSecond: 0.5, Pending: 7, InFlight: 3}, 20, "10 units out now"},
		{Status{State: "done", Updated: fresh, RateWindow: 60, UnitsPerSecond: 0.5, Pending: 7}, -1, "campaign is done"},
		{Status{State: "running", Updated: fresh, Pending: 7}, -1, "no rate yet"},
		{Status{State: "running", Updated: fresh, RateWindow: 60, Pending: 7}, -1, "no unit answered"},
		{Status{State: "running", Updated: fresh, RateWindow: 60, UnitsPerSecond: 1}, -1, "no unit out"},
		{Status{State: "running", Updated: now.Add(-time.Hour).Format(time.RFC3339), RateWindow: 60, UnitsPerSecond: 1, Pending: 3}, -1, "no coordinator"},
	}
	for _, c := range cases {
		st := c.st
		st.setETA(now)
		got := -1.0
		if st.ETA != nil {
			got = *st.ETA
		}
		if got != c.eta || !strings.Contains(st.ETABasis, c.basis) {
			t.Errorf("%+v: eta %v %q, want %v %q", c.st, got, st.ETABasis, c.eta, c.basis)
		}
		if (st.ETA == nil) != strings.HasPrefix(st.ETABasis, "unknown") {
			t.Errorf("eta %v with basis %q", st.ETA, st.ETABasis)
		}
	}
}
