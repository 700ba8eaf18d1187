package kalah

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/internal/reference"
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
		capt, _ := engine.ParseRule(c.rule)
		k, err := Open(Config{Pits: c.m, Seeds: c.n, Rule: capt, NoEGDB: true, NoCache: true, TableSize: min(solver.DefaultTableSizeFor(c.m, 2*c.m*c.n, 0), 256<<20)})
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

// A cell's run that stops after the value is proven but before every
// move's value keeps the value: the cell is open at stage "openings" with
// Lower = Upper = the value that the complete solve records, and the
// bounds it gives each first move hold the complete solve's move values.
// The interruption is a context cancel when the progress reports show the
// first move's search begin (after SolveStart's value-only stage, which
// boards of 40 seeds and more get).
func TestSolveStartKeepsValue(t *testing.T) {
	cfg := Config{Pits: 4, Seeds: 5, Rule: NoEmptyCapture, Threads: 1, NoEGDB: true, NoCache: true, TableSize: 64 << 20}
	full := solveStart(t, cfg)
	// Each first move is worth the best of the opening chains it begins.
	moveValue := map[string]int{}
	for _, o := range full.Record.Openings {
		p, err := results.ChainPits(o.Chain, cfg.Pits)
		if err != nil {
			t.Fatal(err)
		}
		m := engine.MoveLetter(engine.South, p[0])
		if v, ok := moveValue[m]; !ok || o.Value > v {
			moveValue[m] = o.Value
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	l := &stageLog{onMove: func(int) { cancel() }}
	c := cfg
	c.Progress = l.report
	part := interruptedStart(ctx, t, c)
	if part.Solved || part.Stage != "openings" || part.Lower != full.Record.Value || part.Upper != full.Record.Value {
		t.Fatalf("interrupted cell: solved %v, stage %q, bounds %+d..%+d; want open at stage openings, value %+d",
			part.Solved, part.Stage, part.Lower, part.Upper, full.Record.Value)
	}
	for _, m := range part.Moves {
		v, ok := moveValue[m.Move]
		if !ok || v < m.Lower || v > m.Upper {
			t.Errorf("move %s: bounds %+d..%+d, complete solve %+d (%v)", m.Move, m.Lower, m.Upper, v, ok)
		}
	}
	if o := part.Open("interrupted", false); o.Lower != part.Lower || len(o.Moves) != len(part.Moves) {
		t.Errorf("open record %+v does not carry the cell's bounds and moves", o)
	}
}

// solveStart solves the start of cfg's game to the end, as a cell.
func solveStart(t *testing.T, cfg Config) *results.Cell {
	t.Helper()
	k, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	cell, err := k.SolveStart(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return cell
}

// interruptedStart is solveStart with a context that ends the solve: the
// cell it returns is the unfinished one.
func interruptedStart(ctx context.Context, t *testing.T, cfg Config) *results.Cell {
	t.Helper()
	k, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	cell, err := k.SolveStart(ctx)
	if !errors.Is(err, solver.ErrInterrupted) {
		t.Fatalf("interrupted cell: err %v", err)
	}
	return cell
}

// A cell's run that stops among the opening chains keeps the chains it
// proved and the bounds of the one it was solving: Kalah(5,3), whose move
// c earns an extra turn, stopped when the second chain's first full-depth
// test reports (its bounds narrowed). Every chain's bounds hold the complete solve's value, and
// the first chain is exact.
func TestSolveStartKeepsChains(t *testing.T) {
	cfg := Config{Pits: 5, Seeds: 3, Rule: NoEmptyCapture, Threads: 1, NoEGDB: true, NoCache: true, TableSize: 64 << 20}
	rules := engine.Variant{Pits: 5, Rule: engine.NoEmptyCapture}
	full := solveStart(t, cfg)
	value := map[string]int{}
	for _, o := range full.Record.Openings {
		value[o.Chain] = o.Value
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	var chains []string
	c := cfg
	c.ProgressEvery = time.Millisecond // the ticker reports during deepenings too
	c.Progress = func(p solver.Progress) {
		mu.Lock()
		defer mu.Unlock()
		// A report before the chain's first full-depth test (the ticker's,
		// during its deepening) has the bounds of the seeds on its board.
		letters, ok := strings.CutPrefix(p.Stage, "chain ")
		if !ok {
			return
		}
		end, _ := rules.StartPosition(cfg.Seeds)
		for _, l := range letters {
			end, _ = rules.PlayPosition(end, int(l-'a'))
		}
		tested := p.Upper-p.Lower < 2*end.Board.Seeds()
		if tested && !slices.Contains(chains, p.Stage) {
			chains = append(chains, p.Stage)
			if len(chains) == 2 {
				cancel()
			}
		}
	}
	part := interruptedStart(ctx, t, c)
	if part.Solved || part.Stage != "openings" || len(part.Chains) < 2 {
		t.Fatalf("interrupted cell: solved %v, stage %q, chains %+v (progress saw %v); want open at stage openings with two chains",
			part.Solved, part.Stage, part.Chains, chains)
	}
	if ch := part.Chains[0]; ch.Lower != ch.Upper {
		t.Errorf("first chain %+v not exact", ch)
	}
	for _, ch := range part.Chains {
		v, ok := value[ch.Chain]
		if !ok || v < ch.Lower || v > ch.Upper {
			t.Errorf("chain %s: bounds %+d..%+d, complete solve %+d (%v)", ch.Chain, ch.Lower, ch.Upper, v, ok)
		}
	}
	o := part.Open("interrupted", false)
	o.Threads = 1 // the run's resources are the caller's to fill in
	if !slices.Equal(o.Chains, part.Chains) || o.Check() != nil {
		t.Errorf("open record %+v does not carry the cell's chains: %v", o, o.Check())
	}
}

// A cell's run stopped part-way with a cache leaves a checkpoint of its
// table; the next run of the cell, in a new session, starts from it
// (Cell.Resumed), searches fewer nodes than a fresh run, ends with the
// fresh run's record, and drops the checkpoint. Kalah(5,3), stopped when
// the first opening chain's search begins.
func TestSolveStartResumesFromCheckpoint(t *testing.T) {
	cfg := Config{Pits: 5, Seeds: 3, Rule: NoEmptyCapture, Threads: 1, NoEGDB: true, NoCache: true, TableSize: 64 << 20}
	fresh := solveStart(t, cfg)
	dir := filepath.Join(t.TempDir(), "cache")
	cfg.NoCache, cfg.CacheDir, cfg.CheckpointEvery = false, dir, time.Nanosecond
	checkpoints := func() []string {
		files, _ := filepath.Glob(filepath.Join(dir, "resume", "*"))
		return files
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := cfg
	c.Progress = func(p solver.Progress) {
		if strings.HasPrefix(p.Stage, "chain ") {
			cancel()
		}
	}
	part := interruptedStart(ctx, t, c)
	if part.Resumed || len(checkpoints()) != 1 {
		t.Fatalf("interrupted run: resumed %v, checkpoints %v; want one", part.Resumed, checkpoints())
	}

	got := solveStart(t, cfg)
	if !got.Resumed || !got.Solved {
		t.Fatalf("second run: resumed %v, solved %v", got.Resumed, got.Solved)
	}
	if got.Record.Value != fresh.Record.Value || !slices.Equal(got.Record.Openings, fresh.Record.Openings) {
		t.Errorf("resumed run: %+d %v; fresh %+d %v", got.Record.Value, got.Record.Openings, fresh.Record.Value, fresh.Record.Openings)
	}
	if got.Nodes >= fresh.Nodes {
		t.Errorf("resumed run searched %d nodes, a fresh one %d", got.Nodes, fresh.Nodes)
	}
	t.Logf("fresh %d nodes; interrupted after %d; resumed %d", fresh.Nodes, part.Nodes, got.Nodes)
	if files := checkpoints(); len(files) != 0 {
		t.Errorf("after the complete run: %v", files)
	}
}

// Every opening chain SolveStart records is worth what an independent
// reference (internal/reference: memoized negamax over seed-by-seed
// sowing) gives the position after it, under both rules, on cells where
// an extra-turn move begins several chains.
func TestSolveStartOpeningsMatchReference(t *testing.T) {
	for _, c := range []struct{ m, n int }{{3, 3}, {4, 1}, {4, 2}, {4, 3}} {
		for _, rule := range []engine.Rule{EmptyCapture, NoEmptyCapture} {
			cell := solveStart(t, Config{Pits: c.m, Seeds: c.n, Rule: rule, Threads: 1, NoEGDB: true, NoCache: true, TableSize: 16 << 20})
			ref := reference.NewSolver(reference.Rules{Pits: c.m, EmptyCapture: rule == EmptyCapture}, 0)
			holes := make([]int, 2*c.m+2)
			for i := range c.m {
				holes[i], holes[c.m+1+i] = c.n, c.n
			}
			chains := 0
			for _, o := range cell.Record.Openings {
				pits, err := results.ChainPits(o.Chain, c.m)
				if err != nil {
					t.Fatal(err)
				}
				g := ref.Game(holes, false)
				for _, i := range pits {
					g, _, _, _ = ref.Play(g, i)
				}
				south := g.Holes[c.m] - g.Holes[2*c.m+1]
				if v := ref.Value(g); g.North {
					south -= v
				} else {
					south += v
				}
				if o.Value != south {
					t.Errorf("Kalah(%d,%d) %s: opening %s is %+d, the reference says %+d", c.m, c.n, rule, o.Chain, o.Value, south)
				}
				if len(pits) > 1 {
					chains++
				}
			}
			if chains < 2 {
				t.Errorf("Kalah(%d,%d) %s: %d chains of more than one sowing; the test wants several", c.m, c.n, rule, chains)
			}
		}
	}
}

// A rerun of an open cell (SolveStartFrom) takes what the open record
// holds exact and searches the rest: Kalah(5,3), stopped among its opening
// chains, then run again from the open record alone (no cache, a fresh
// table), ends with the fresh run's record, in fewer nodes, counting the
// earlier run (Record.Earlier). A record holding everything exact leaves
// only the principal variation to search; a record of another cell, or
// one failing its check, is an error.
func TestSolveStartFromOpenRecord(t *testing.T) {
	cfg := Config{Pits: 5, Seeds: 3, Rule: NoEmptyCapture, Threads: 1, NoEGDB: true, NoCache: true, TableSize: 64 << 20}
	fresh := solveStart(t, cfg)
	from := func(prior *results.Open) (*results.Cell, error) {
		k, err := Open(cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer k.Close()
		return k.SolveStartFrom(context.Background(), prior)
	}
	same := func(what string, got *results.Cell) {
		t.Helper()
		if !got.Solved || got.Record.Value != fresh.Record.Value || !slices.Equal(got.Record.Openings, fresh.Record.Openings) {
			t.Fatalf("%s: solved %v, %+d %v; fresh %+d %v", what, got.Solved, got.Record.Value, got.Record.Openings, fresh.Record.Value, fresh.Record.Openings)
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := cfg
	c.Progress = func(p solver.Progress) {
		if p.Stage == "chain cd" { // the second chain of move c
			cancel()
		}
	}
	part := interruptedStart(ctx, t, c)
	o := part.Open("interrupted", false)
	o.Threads = 1
	if o.Lower != o.Upper || len(o.Moves) != 5 || len(o.Chains) == 0 {
		t.Fatalf("interrupted run: %+v; want the value, every move and a chain", o)
	}
	got, err := from(&o)
	if err != nil {
		t.Fatal(err)
	}
	same("from the open record", got)
	if e := got.Record.Earlier; e == nil || e.Runs != 1 || e.Nodes != part.Nodes {
		t.Errorf("earlier runs %+v; want the interrupted run's (%d nodes)", e, part.Nodes)
	}
	if got.Nodes >= fresh.Nodes {
		t.Errorf("from the open record: %d nodes; fresh %d", got.Nodes, fresh.Nodes)
	}

	// Everything exact: the line alone is searched.
	all := o
	all.Moves, all.Chains = nil, nil
	for _, op := range fresh.Record.Openings {
		pits, _ := results.ChainPits(op.Chain, cfg.Pits)
		if len(pits) > 1 {
			all.Chains = append(all.Chains, results.ChainBounds{Chain: op.Chain, Lower: op.Value, Upper: op.Value})
		}
	}
	all.Moves = append(all.Moves, part.Moves...)
	got2, err := from(&all)
	if err != nil {
		t.Fatal(err)
	}
	same("everything exact", got2)
	if got2.Nodes*10 >= fresh.Nodes {
		t.Errorf("everything exact: %d nodes; fresh %d", got2.Nodes, fresh.Nodes)
	}
	t.Logf("fresh %d nodes; interrupted %d; from its open record %d; from a complete one %d", fresh.Nodes, part.Nodes, got.Nodes, got2.Nodes)

	other := o
	other.Seeds = 4
	if _, err := from(&other); err == nil || !strings.Contains(err.Error(), "not one of Kalah(5,3)") {
		t.Errorf("another cell's record: %v", err)
	}
	bad := o
	bad.Lower, bad.Upper = 5, 3
	if _, err := from(&bad); err == nil || !strings.Contains(err.Error(), "open record") {
		t.Errorf("a record failing its check: %v", err)
	}
}

// On a board whose value SolveStartFrom proves first (Kalah(4,5), 40
// seeds), the value's search starts from the bounds the open record holds:
// with the value known to be at most what it is, the rerun searches fewer
// nodes than a fresh run and ends with its record.
func TestSolveStartFromValueBounds(t *testing.T) {
	cfg := Config{Pits: 4, Seeds: 5, Rule: NoEmptyCapture, Threads: 1, NoEGDB: true, NoCache: true, TableSize: 64 << 20}
	fresh := solveStart(t, cfg)
	v := fresh.Record.Value
	prior := results.Open{Rule: "no-empty-capture", Pits: 4, Seeds: 5, Lower: -40, Upper: v, Stage: "value", Reason: "interrupted",
		Runs: 1, Nodes: 1, Threads: 1, TableSize: 64 << 20, EGDBSeeds: -1, Date: "2026-01-02"}
	k, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	got, err := k.SolveStartFrom(context.Background(), &prior)
	if err != nil {
		t.Fatal(err)
	}
	if got.Record.Value != v || !slices.Equal(got.Record.Openings, fresh.Record.Openings) || got.Record.Earlier == nil {
		t.Fatalf("from a bound: %+d %v (earlier %+v); fresh %+d %v", got.Record.Value, got.Record.Openings, got.Record.Earlier, v, fresh.Record.Openings)
	}
	if got.Nodes >= fresh.Nodes {
		t.Errorf("from the bound <= %+d: %d nodes; fresh %d", v, got.Nodes, fresh.Nodes)
	}
	t.Logf("fresh %d nodes; from the bound <= %+d %d", fresh.Nodes, v, got.Nodes)
}
