package results

import (
	"slices"
	"strings"
	"testing"
)

// TestPutOpenMerges: runs of an open cell intersect their bounds, the
// cell's and each first move's, and add their counts, except the runs of
// one campaign, which carry its totals; impossible bounds are refused.
func TestPutOpenMerges(t *testing.T) {
	s := Archive{Dir: t.TempDir()}
	run := func(campaign string, lo, hi int, nodes int64, moves ...MoveBounds) Open {
		return Open{Rule: "empty-capture", Pits: 6, Seeds: 6, Lower: lo, Upper: hi, Stage: "value", Reason: "campaign stopped",
			Runs: 1, Nodes: nodes, Seconds: 10, Threads: 2, Date: "2026-12-01", Campaign: campaign, Moves: moves}
	}
	if err := s.PutOpen(run("k66", -72, 72, 100, MoveBounds{"b", -72, 72}, MoveBounds{"a", 0, 72})); err != nil {
		t.Fatal(err)
	}
	if err := s.PutOpen(run("k66", -72, 10, 300, MoveBounds{"a", -72, 10}, MoveBounds{"b", -5, 72})); err != nil {
		t.Fatal(err)
	}
	open, err := s.LoadOpen()
	if err != nil || len(open) != 1 {
		t.Fatalf("%+v %v", open, err)
	}
	o := open[0]
	if o.Runs != 1 || o.Nodes != 300 || o.Lower != 0 || o.Upper != 10 ||
		len(o.Moves) != 2 || o.Moves[0] != (MoveBounds{"a", 0, 10}) || o.Moves[1] != (MoveBounds{"b", -5, 10}) {
		t.Fatalf("one campaign recorded twice: %+v", o)
	}
	rep, err := Report(s)
	if err != nil || !strings.Contains(string(rep), "- Kalah(6,6) empty-capture (campaign k66): a 0..+10, b -5..+10.") {
		t.Errorf("the report's first moves of the open cell: %v\n%s", err, rep)
	}
	// Another campaign's run adds up.
	if err := s.PutOpen(run("other", 0, 72, 50)); err != nil {
		t.Fatal(err)
	}
	open, _ = s.LoadOpen()
	if o := open[0]; o.Runs != 2 || o.Nodes != 350 || o.Lower != 0 || o.Upper != 10 || len(o.Moves) != 2 {
		t.Fatalf("a second campaign: %+v", o)
	}
	// A move worth more than the cell's upper bound is impossible (the
	// value is the best move's), as is a contradiction with the runs
	// before. (The cell's lower bound is the best move's: 0 from move a.)
	bad := run("k66", -72, 72, 1, MoveBounds{"c", 20, 72})
	if err := s.PutOpen(bad); err == nil || !strings.Contains(err.Error(), "move c") {
		t.Errorf("a move's bounds above the cell's: %v", err)
	}
	if err := s.PutOpen(run("k66", 12, 72, 1)); err == nil {
		t.Error("bounds 12..72 merged with 0..10: no error")
	}
}

// An open cell whose value is proven (a run stopped after the value, in
// the first moves or the openings) shows its value in the report's
// summary and in the open cells' table; one only bounded shows neither.
func TestReportOpenValue(t *testing.T) {
	s := Archive{Dir: t.TempDir()}
	for _, o := range []Open{
		{Rule: "no-empty-capture", Pits: 7, Seeds: 4, Lower: 10, Upper: 10, Stage: "openings", Reason: "time limit 20m0s",
			Runs: 1, Nodes: 5, Seconds: 1, Threads: 2, Date: "2026-12-03", Moves: []MoveBounds{{"d", 10, 10}, {"a", -56, 4}}},
		{Rule: "no-empty-capture", Pits: 8, Seeds: 3, Lower: -46, Upper: 48, Stage: "value", Reason: "time limit 10m0s",
			Runs: 1, Nodes: 5, Seconds: 1, Threads: 2, Date: "2026-12-03"},
	} {
		if err := s.PutOpen(o); err != nil {
			t.Fatal(err)
		}
	}
	reportHas(t, s,
		"(7,3), (7,4) (value +10 proven, openings open), (8,1)",
		"(8,2), (8,3) (see [Open cells]",
		"| no-empty-capture | 7,4 | = +10 | the opening chains |",
		"- Kalah(7,4) no-empty-capture: a <= +4, d = +10.")
}

// reportHas generates the report of s and fails the test for each of
// want it lacks; it returns the report.
func reportHas(t *testing.T, s Archive, want ...string) string {
	t.Helper()
	rep, err := Report(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range want {
		if !strings.Contains(string(rep), w) {
			t.Errorf("the report lacks %q:\n%s", w, rep)
		}
	}
	return string(rep)
}

// TestPutEarlierRuns: a record that completes an open cell with answers
// from the cache carries the open runs' counts (Earlier), which the report
// lists; one that used no cache, and a campaign's, do not.
func TestPutEarlierRuns(t *testing.T) {
	done, err := Archive{Dir: DefaultDir[len("results/"):]}.Get("no-empty-capture", 3, 2)
	if err != nil || done == nil {
		t.Fatalf("the committed record of Kalah(3,2): %v", err)
	}
	open := func(campaign string, cache bool) Open {
		return Open{Rule: done.Rule, Pits: 3, Seeds: 2, Lower: -12, Upper: 12, Stage: "value", Reason: "time limit 1m0s",
			Runs: 2, Nodes: 500, Seconds: 20.5, Threads: 2, EGDBSeeds: 18, Cache: cache, Date: "2026-12-01", Campaign: campaign}
	}
	for _, c := range []struct {
		name      string
		open      Open
		cacheHits int64
		want      *EarlierRuns
	}{
		{"resumed from the cache", open("", true), 7, &EarlierRuns{Runs: 2, Nodes: 500, Seconds: 20.5, EGDBSeeds: 18}},
		{"solved again without the cache", open("", true), 0, nil},
		{"open runs without a cache", open("", false), 7, nil},
		{"a campaign", open("k32", true), 7, nil},
	} {
		s := Archive{Dir: t.TempDir()}
		if err := s.PutOpen(c.open); err != nil {
			t.Fatal(err)
		}
		rec := *done
		rec.CacheHits, rec.StoreHits, rec.Earlier = c.cacheHits, c.cacheHits, nil
		if err := s.Put(rec); err != nil {
			t.Fatal(err)
		}
		got, err := s.Get(done.Rule, 3, 2)
		if err != nil || got == nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if (got.Earlier == nil) != (c.want == nil) || got.Earlier != nil && *got.Earlier != *c.want {
			t.Errorf("%s: earlier runs %+v, want %+v", c.name, got.Earlier, c.want)
		}
		if o, err := s.LoadOpen(); err != nil || len(o) != 0 {
			t.Errorf("%s: the open cell stays: %+v %v", c.name, o, err)
		}
		rep, err := Report(s)
		if err != nil {
			t.Fatal(err)
		}
		line := "- Kalah(3,2) no-empty-capture: earlier runs: 2, 20.500 s and 500 nodes (egdb seeds 18)."
		if strings.Contains(string(rep), line) != (c.want != nil) {
			t.Errorf("%s: the report's line of earlier runs (want it: %v):\n%s", c.name, c.want != nil, rep)
		}
	}
}

// TestPutOpenDatabaseDepths: runs of an open cell made with different
// database depths keep the shallowest beside the last's, and the report
// shows the range; runs of one depth show it alone.
func TestPutOpenDatabaseDepths(t *testing.T) {
	s := Archive{Dir: t.TempDir()}
	run := func(egdb int) Open {
		return Open{Rule: "no-empty-capture", Pits: 7, Seeds: 4, Lower: -56, Upper: 56, Stage: "value", Reason: "time limit 1m0s",
			Runs: 1, Nodes: 5, Seconds: 1, Threads: 2, EGDBSeeds: egdb, Cache: true, Date: "2026-12-01"}
	}
	least := func() (int, *int) {
		t.Helper()
		open, err := s.LoadOpen()
		if err != nil || len(open) != 1 {
			t.Fatalf("%+v %v", open, err)
		}
		return open[0].EGDBSeeds, open[0].EGDBSeedsLeast
	}
	for _, egdb := range []int{20, 20} {
		if err := s.PutOpen(run(egdb)); err != nil {
			t.Fatal(err)
		}
	}
	if last, l := least(); last != 20 || l != nil {
		t.Fatalf("two runs with 20 seeds: egdb_seeds %d, least %v", last, l)
	}
	for _, egdb := range []int{22, 22} {
		if err := s.PutOpen(run(egdb)); err != nil {
			t.Fatal(err)
		}
		if last, l := least(); last != 22 || l == nil || *l != 20 {
			t.Fatalf("runs with 20 and then 22 seeds: egdb_seeds %d, least %v", last, l)
		}
	}
	rep, err := Report(s)
	if err != nil || !strings.Contains(string(rep), "| 20-22 | yes |") {
		t.Errorf("the open cells' table shows the depths 20-22: %v\n%s", err, rep)
	}
	bad := run(20)
	bad.EGDBSeedsLeast = &bad.EGDBSeeds
	if err := bad.Check(); err == nil {
		t.Error("egdb_seeds_least equal to egdb_seeds: no error")
	}
}

// TestPutOpenChains: the opening chains' bounds of an open cell's runs
// intersect by chain, in the chains' order, and the report lists them; a
// chain that is not one of the game's pits, or worth more than the cell,
// is refused.
func TestPutOpenChains(t *testing.T) {
	s := Archive{Dir: t.TempDir()}
	run := func(chains ...ChainBounds) Open {
		return Open{Rule: "no-empty-capture", Pits: 7, Seeds: 4, Lower: 10, Upper: 10, Stage: "openings", Reason: "time limit 2h0m0s",
			Runs: 1, Nodes: 100, Seconds: 10, Threads: 2, Date: "2026-12-05", Chains: chains}
	}
	if err := s.PutOpen(run(ChainBounds{"4-2", -20, 10}, ChainBounds{"4-1", -16, -16})); err != nil {
		t.Fatal(err)
	}
	if err := s.PutOpen(run(ChainBounds{"4-2", -12, 56}, ChainBounds{"4-5", 10, 10})); err != nil {
		t.Fatal(err)
	}
	open, err := s.LoadOpen()
	if err != nil || len(open) != 1 {
		t.Fatalf("%+v %v", open, err)
	}
	want := []ChainBounds{{"4-1", -16, -16}, {"4-2", -12, 10}, {"4-5", 10, 10}}
	if o := open[0]; o.Runs != 2 || !slices.Equal(o.Chains, want) {
		t.Fatalf("two runs' chains: %+v, want %+v", o.Chains, want)
	}
	rep, err := Report(s)
	if err != nil || !strings.Contains(string(rep), "- Kalah(7,4) no-empty-capture: 4-1 = -16, 4-2 -12..+10, 4-5 = +10.") {
		t.Errorf("the report's chains of the open cell: %v\n%s", err, rep)
	}
	for _, c := range []ChainBounds{{"4-9", 0, 0}, {"4-x", 0, 0}, {"4-3", 12, 12}, {"4-3", 4, 2}} {
		if err := s.PutOpen(run(c)); err == nil {
			t.Errorf("chain %+v accepted", c)
		}
	}
}

// An open cell beyond the target cells (a larger board begun) is listed
// in the open cells' table, after those of the targets, and the section
// says every target is solved when none is missing.
func TestReportOpenBeyondTargets(t *testing.T) {
	s := Archive{Dir: t.TempDir()}
	o := Open{Rule: "no-empty-capture", Pits: 8, Seeds: 4, Lower: 2, Upper: 64, Stage: "value", Reason: "time limit 45m0s",
		Runs: 1, Nodes: 5, Seconds: 1, Threads: 2, Date: "2026-12-05"}
	if err := s.PutOpen(o); err != nil {
		t.Fatal(err)
	}
	rep := reportHas(t, s, "then the\nlarger cells begun.", "| no-empty-capture | 8,4 | >= +2 | the value |")
	if strings.Contains(rep, "(8,4)") {
		t.Errorf("the summary counts Kalah(8,4) among the targets:\n%s", rep)
	}
}

func TestCellRanges(t *testing.T) {
	for _, c := range []struct {
		cells [][2]int
		want  string
	}{
		{nil, ""},
		{[][2]int{{5, 7}}, "(5,7)"},
		{[][2]int{{1, 7}, {1, 8}, {1, 9}, {2, 7}, {2, 9}, {3, 8}, {3, 9}}, "(1,7..9), (2,7), (2,9), (3,8..9)"},
	} {
		if got := cellRanges(c.cells); got != c.want {
			t.Errorf("cellRanges(%v) = %q, want %q", c.cells, got, c.want)
		}
	}
}

// TestReportBeyondTargets: a record of a cell past the target cells (more
// seeds a pit) gets its column in the value table, its openings, line
// and run, and a line in the summary.
func TestReportBeyondTargets(t *testing.T) {
	rec, err := Archive{Dir: DefaultDir[len("results/"):]}.Get("no-empty-capture", 2, 8)
	if err != nil || rec == nil {
		t.Fatalf("the committed record of Kalah(2,8): %v", err)
	}
	s := Archive{Dir: t.TempDir()}
	if err := s.Put(*rec); err != nil {
		t.Fatal(err)
	}
	reportHas(t, s,
		"no-empty-capture, 1 cell: (2,8).",
		"| m \\ n | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 |\n|---|---|---|---|---|---|---|---|---|\n",
		"| 2 | - | - | - | - | - | - |  | +10 W |",
		"| 2,8 | +10 | 1: +2, **2: +10** |",
		"| no-empty-capture | 2,8 | ")
}
