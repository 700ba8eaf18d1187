package bench

import (
	"context"
	"strings"
	"testing"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/internal/reference"
	"github.com/kalah-solver/kalah/solver"
)

// byName returns the quick-suite cases with the given names.
func byName(t testing.TB, names []string) []Case {
	t.Helper()
	all := map[string]Case{}
	for _, c := range Full() {
		all[c.Name] = c
	}
	var out []Case
	for _, n := range names {
		c, ok := all[n]
		if !ok {
			t.Fatalf("no case %q", n)
		}
		out = append(out, c)
	}
	return out
}

func TestSuites(t *testing.T) {
	quick, full := Quick(), Full()
	if len(quick) < 30 {
		t.Errorf("quick suite has %d positions, want at least 30", len(quick))
	}
	if len(full) != len(quick)+4 {
		t.Errorf("full suite has %d positions, want the quick suite's %d and 4 starts", len(full), len(quick))
	}
	names := map[string]bool{}
	games := map[string]int{}
	for _, c := range full {
		if names[c.Name] {
			t.Errorf("duplicate case name %q", c.Name)
		}
		names[c.Name] = true
		p, err := c.Position()
		if err != nil {
			t.Error(err)
			continue
		}
		if p.Board.NumMoves() < 2 && !c.Start() {
			t.Errorf("%s: %d legal moves; a benchmark position should offer a choice", c.Name, p.Board.NumMoves())
		}
		games[c.Game()+" "+c.Variant.Rule.String()]++
	}
	for _, n := range []int{4, 5, 6} {
		for _, r := range engine.AllRules {
			if k := games[Case{Variant: engine.Variant{Pits: 6}, Seeds: n}.Game()+" "+r.String()]; k < 3 {
				t.Errorf("Kalah(6,%d) %s: %d mid-game positions, want at least 3", n, r, k)
			}
		}
	}
	for _, c := range full[:4] {
		if !c.Start() || c.TableSize != StartTableSize || (Config{}).tableSize(c) != StartTableSize || (Config{TableSize: 1 << 20}).tableSize(c) != 1<<20 {
			t.Errorf("%s: table %d, want StartTableSize unless the run sets one", c.Name, c.TableSize)
		}
	}
	if got := (Config{}).tableSize(quick[0]); got != DefaultTableSize {
		t.Errorf("a mid-game case gets a table of %d bytes, want DefaultTableSize", got)
	}
	if _, err := Suite("slow"); err == nil || !strings.Contains(err.Error(), "quick or full") {
		t.Errorf("Suite(slow) = %v", err)
	}
}

func TestCaseErrors(t *testing.T) {
	r := engine.Variant{Pits: 6, Rule: engine.NoEmptyCapture}
	for _, c := range []Case{
		{Name: "x", Variant: r, Seeds: 4, Moves: "A"},   // North's pit, South to move
		{Name: "x", Variant: r, Seeds: 4, Moves: "c C"}, // c ends in the store: South moves again
		{Name: "x", Variant: r, Seeds: 40},              // too many seeds
	} {
		if _, err := c.Position(); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
}

// TestSignature runs the reduced suite with one thread and the default
// table and compares its node count with Signature, then runs the quick
// suite against QuickSignature (under a second). See signature.go.
func TestSignature(t *testing.T) {
	check := func(name string, cases []Case, want int64) {
		rep, err := Run(context.Background(), cases, Config{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !rep.Deterministic || rep.Threads != 1 || rep.TableSize != DefaultTableSize {
			t.Fatalf("report %+v is not the deterministic configuration", rep)
		}
		if rep.Nodes != want {
			t.Errorf("%s: %d nodes, want %d. If the search changed on purpose, set %s = %d in bench/signature.go in the same commit and say so in its message.",
				name, rep.Nodes, want, name, rep.Nodes)
		}
	}
	check("Signature", byName(t, SignatureCases), Signature)
	check("QuickSignature", Quick(), QuickSignature)
}

// TestValues checks the values the runner reports, the root's and the
// best moves, against internal/reference, a plain memoized negamax over
// seed-by-seed sowing that shares no code with the engine or the solver. The brute force is exponential in the seeds:
// it checks the positions it can finish within a budget of positions, a
// small one under -short.
func TestValues(t *testing.T) {
	maxSeeds, limit := 16, 1_500_000
	if !testing.Short() {
		maxSeeds, limit = 22, 12_000_000
	}
	checked := 0
	for _, c := range Quick() {
		p, err := c.Position()
		if err != nil {
			t.Fatal(err)
		}
		if p.Board.Seeds() > maxSeeds {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			ref := reference.NewSolver(reference.Rules{Pits: c.Variant.Pits, EmptyCapture: c.Variant.Rule == engine.EmptyCapture}, limit)
			g := ref.Game(p.Holes(), p.ToMove == engine.North)
			base := p.Board.StoreDiff()
			want := base + ref.Value(g)
			if ref.Overflow {
				t.Skipf("%d seeds: the reference needs more than %d positions", p.Board.Seeds(), limit)
			}
			checked++
			var best []string
			for i := 0; i < c.Variant.Pits; i++ {
				if p.Board.Pit(i) > 0 && base+ref.MoveValue(g, i) == want {
					best = append(best, engine.MoveLetter(p.ToMove, i))
				}
			}
			res, err := RunCase(context.Background(), c, Config{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Value != want {
				t.Errorf("value %+d, reference %+d (%s, %s to move)", res.Value, want, res.Position, res.ToMove)
			}
			if strings.Join(res.Best, " ") != strings.Join(best, " ") {
				t.Errorf("best moves %v, reference %v (%s, %s to move)", res.Best, best, res.Position, res.ToMove)
			}
			t.Logf("%d seeds, value %+d, best %v; the reference searched %d positions", p.Board.Seeds(), want, best, ref.Positions())
		})
	}
	if checked < 5 {
		t.Errorf("the reference checked %d positions, want at least 5", checked)
	}
}

// BenchmarkSolveSmall solves one mid-game Kalah(6,5) position, every
// move's value included, with a fresh one-thread solver and 64 MiB table
// each time; the table's allocation and first touch are not timed.
func BenchmarkSolveSmall(b *testing.B) {
	c := byName(b, []string{"6x5-n-01"})[0]
	p, err := c.Position()
	if err != nil {
		b.Fatal(err)
	}
	var nodes int64
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s, err := solver.New(c.Variant, solver.Options{TableSize: DefaultTableSize, Threads: 1})
		if err != nil {
			b.Fatal(err)
		}
		s.Table().Clear()
		b.StartTimer()
		res, err := s.SolveEveryMove(context.Background(), p)
		if err != nil {
			b.Fatal(err)
		}
		nodes += res.Stats.Nodes
		b.StopTimer()
		s.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkSolveQuick solves every position of the quick suite (what
// "kalah bench" runs by default), every move's value included, each with
// a fresh one-thread solver and 64 MiB table; the tables' allocation and
// first touch are not timed. An op searches QuickSignature nodes.
func BenchmarkSolveQuick(b *testing.B) {
	ctx := context.Background()
	var nodes int64
	for b.Loop() {
		for _, c := range Quick() {
			b.StopTimer()
			p, err := c.Position()
			if err != nil {
				b.Fatal(err)
			}
			s, err := solver.New(c.Variant, solver.Options{TableSize: DefaultTableSize, Threads: 1})
			if err != nil {
				b.Fatal(err)
			}
			s.Table().Clear()
			b.StartTimer()
			res, err := s.SolveEveryMove(ctx, p)
			if err != nil {
				b.Fatal(err)
			}
			nodes += res.Stats.Nodes
			b.StopTimer()
			s.Close()
			b.StartTimer()
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// TestRunThreadsInterleaved checks the order of RunThreads: each case at
// every thread count before the next case, the counts reversed on every
// other case, and a report per count holding every case in suite order,
// the one-thread report as Run's.
func TestRunThreadsInterleaved(t *testing.T) {
	cases := byName(t, []string{"6x4-n-01", "6x4-e-02", "6x5-n-03"})
	cfg := Config{TableSize: 16 << 20}
	var order []string
	reps, err := RunThreads(context.Background(), cases, cfg, []int{1, 2}, func(i int, r Result) {
		order = append(order, r.Case+"/"+string(rune('0'+r.Threads)))
		if want := []int{1, 2}[i]; r.Threads != want {
			t.Errorf("%s: index %d with %d threads", r.Case, i, r.Threads)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(order, " "), "6x4-n-01/1 6x4-n-01/2 6x4-e-02/2 6x4-e-02/1 6x5-n-03/1 6x5-n-03/2"; got != want {
		t.Errorf("order %q, want %q", got, want)
	}
	if len(reps) != 2 || reps[0].Threads != 1 || reps[1].Threads != 2 || !reps[0].Deterministic || reps[1].Deterministic {
		t.Fatalf("reports %+v", reps)
	}
	one, err := Run(context.Background(), cases, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if reps[0].Nodes != one.Nodes {
		t.Errorf("one thread interleaved: %d nodes, alone %d", reps[0].Nodes, one.Nodes)
	}
	for i, c := range cases {
		for _, rep := range reps {
			if len(rep.Cases) != len(cases) || rep.Cases[i].Case != c.Name || rep.Cases[i].Value != one.Cases[i].Value {
				t.Fatalf("%d threads: cases %+v", rep.Threads, rep.Cases)
			}
		}
	}
}
