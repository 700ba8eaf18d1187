package sweepcmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/egdb"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/internal/reference"
	"github.com/kalah-solver/kalah/results"
	"github.com/kalah-solver/kalah/solver"
)

func execute(t *testing.T, _ *Options, args ...string) (string, string, error) {
	t.Helper()
	io, out, errOut := cmdutil.Test()
	cmd := NewCmdSweep(io)
	cmd.SetArgs(args)
	cmd.SetOut(io.Out)
	cmd.SetErr(io.ErrOut)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.Execute()
	return out.String(), errOut.String(), err
}

func TestSweepSolvesAndArchives(t *testing.T) {
	dir := t.TempDir()
	out, _, err := execute(t, nil, "--rule", "both", "--pits", "1-4", "--seeds", "1-3", "--data", dir, "--no-egdb", "-q")
	if err != nil {
		t.Fatal(err)
	}
	// Kalah(4,3): +8 under empty-capture (Irving et al., Table 9), +6
	// without the empty capture.
	for _, want := range []string{"Kalah(m,n), empty-capture", "Kalah(m,n), no-empty-capture", "    4  +2 W  +6 W  +8 W", "    4  +2 W  +6 W  +6 W", "solved Kalah(4,3) empty-capture: +8"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	archive := results.Archive{Dir: dir}
	for _, rule := range []string{"empty-capture", "no-empty-capture"} {
		recs, err := archive.Load(rule)
		if err != nil || len(recs) != 12 {
			t.Fatalf("%s: %d records, %v", rule, len(recs), err)
		}
		for _, r := range recs {
			if err := r.Check(); err != nil {
				t.Error(err)
			}
		}
	}
	// A second run finds every cell stored and solves nothing.
	out, _, err = execute(t, nil, "--rule", "empty-capture", "--pits", "4", "--seeds", "3", "--data", dir, "--json", "-q")
	if err != nil {
		t.Fatal(err)
	}
	var o struct {
		Cells []cellJSON `json:"cells"`
	}
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		t.Fatal(err)
	}
	if len(o.Cells) != 1 || o.Cells[0].Status != "stored" || *o.Cells[0].Value != 8 || o.Cells[0].Result != "W" {
		t.Errorf("stored cell: %+v", o.Cells)
	}
	// --force solves it again; CSV output.
	out, _, err = execute(t, nil, "--rule", "empty-capture", "--pits", "4", "--seeds", "3", "--data", dir, "--force", "--csv", "-q", "--no-egdb")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "rule,pits,seeds,status,value,result,lower,upper,seconds,nodes\nempty-capture,4,3,solved,8,W,,,") {
		t.Errorf("csv:\n%s", out)
	}
}

// An unfinished cell shows its proven bounds, is not stored as solved but
// as an open cell with its bounds, and the run goes on to the next cell.
// A second run's bounds are merged with the first's; solving the cell
// closes it.
func TestSweepUnfinished(t *testing.T) {
	dir := t.TempDir()
	io, out, _ := cmdutil.Test()
	lower, upper, resumed := 4, 20, false
	opts := &Options{IO: io, Rule: "empty-capture", Pits: "5", Seeds: "1-2", Data: dir, Quiet: true, MaxTime: time.Second,
		newSolve: func(ctx context.Context, r engine.Variant, seeds int, _ *results.Open) (*results.Cell, error) {
			if seeds == 2 {
				<-ctx.Done()
				return &results.Cell{Rule: r.Rule.String(), Pits: r.Pits, Seeds: seeds, Lower: lower, Upper: upper, Stage: "value",
						Nodes: 1000, Elapsed: time.Second, Threads: 1, TableSize: 1 << 20, EGDBSeeds: -1, Resumed: resumed},
					fmt.Errorf("%w: value in [+4, +20]", solver.ErrInterrupted)
			}
			return solveCell(ctx, r, seeds, nil)
		}}
	if err := run(opts); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "    5  0 D  >= +4") || !strings.Contains(out.String(), "unfinished Kalah(5,2) empty-capture: value >= +4") {
		t.Errorf("output:\n%s", out.String())
	}
	archive := results.Archive{Dir: dir}
	recs, _ := archive.Load("empty-capture")
	if len(recs) != 1 || recs[0].Seeds != 1 {
		t.Errorf("stored %+v, want only Kalah(5,1)", recs)
	}
	open, err := archive.LoadOpen()
	if err != nil || len(open) != 1 {
		t.Fatalf("open cells %+v, %v", open, err)
	}
	if o := open[0]; o.Pits != 5 || o.Seeds != 2 || o.Lower != 4 || o.Upper != 20 || o.Reason != "time limit 1s" || o.Runs != 1 || o.Nodes != 1000 || o.Cache || o.Check() != nil {
		t.Errorf("open cell %+v (check: %v)", o, o.Check())
	}
	lower, upper, resumed = 2, 12, true
	out.Reset()
	if err := run(opts); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "unfinished Kalah(5,2) empty-capture: value +2..+12 after 1.000 s, 1,000 nodes, resumed from the cache's checkpoint (bounds kept") {
		t.Errorf("second run's output:\n%s", out.String())
	}
	if open, _ = archive.LoadOpen(); len(open) != 1 || open[0].Lower != 4 || open[0].Upper != 12 || open[0].Runs != 2 || open[0].Nodes != 2000 {
		t.Errorf("after a second run: %+v, want bounds 4..12 over 2 runs", open)
	}
	opts.newSolve, opts.MaxTime = solveCell, 0
	if err := run(opts); err != nil {
		t.Fatal(err)
	}
	if open, _ = archive.LoadOpen(); len(open) != 0 {
		t.Errorf("solved, but still open: %+v", open)
	}
}

// Ctrl-C: the cell being solved shows its bounds, the rest are skipped,
// what was solved stays stored, and the exit code is 130.
func TestSweepInterrupted(t *testing.T) {
	dir := t.TempDir()
	io, out, _ := cmdutil.Test()
	ctx, cancel := context.WithCancel(context.Background())
	opts := &Options{IO: io, Rule: "empty-capture", Pits: "2", Seeds: "1-3", Data: dir, Quiet: true, ctx: ctx,
		newSolve: func(ctx context.Context, r engine.Variant, seeds int, _ *results.Open) (*results.Cell, error) {
			if seeds == 2 {
				cancel()
				return &results.Cell{Rule: r.Rule.String(), Pits: r.Pits, Seeds: seeds, Lower: -8, Upper: 8, Stage: "value", Threads: 1}, solver.ErrInterrupted
			}
			return solveCell(ctx, r, seeds, nil)
		}}
	err := run(opts)
	if cmdutil.ExitCode(err) != 130 {
		t.Errorf("err %v, want exit code 130", err)
	}
	if !strings.Contains(out.String(), "    2  +2 W  ?  -") {
		t.Errorf("output:\n%s", out.String())
	}
	if recs, _ := (results.Archive{Dir: dir}).Load("empty-capture"); len(recs) != 1 {
		t.Errorf("%d records stored, want 1", len(recs))
	}
	if open, _ := (results.Archive{Dir: dir}).LoadOpen(); len(open) != 1 || open[0].Seeds != 2 || open[0].Reason != "interrupted" {
		t.Errorf("open cells %+v, want Kalah(2,2), interrupted", open)
	}
}

func TestSweepBadInput(t *testing.T) {
	cases := [][]string{
		{"--rule", "sideways"},
		{"--pits", "0-3"},
		{"--pits", "9"},
		{"--seeds", "3-1"},
		{"--seeds", "x"},
		{"--json", "--csv"},
		{"--table-size", "12parsecs"},
		{"--max-time", "-1s"},
		{"--pits", "8", "--seeds", "20"}, // 320 seeds do not fit
		{"stray"},
	}
	for _, c := range cases {
		if _, _, err := execute(t, nil, append(c, "--dry-run", "--data", t.TempDir())...); cmdutil.ExitCode(err) != 2 {
			t.Errorf("%v: %v, want exit code 2", c, err)
		}
	}
}

func TestParseRange(t *testing.T) {
	got, err := parseRange("--pits", "5, 1-3,2", 1, 8)
	if err != nil || fmt.Sprint(got) != "[1 2 3 5]" {
		t.Errorf("%v %v", got, err)
	}
}

// solveCell solves a start on one thread with a small table, nothing else.
func solveCell(ctx context.Context, r engine.Variant, seeds int, _ *results.Open) (*results.Cell, error) {
	k, err := kalah.Open(kalah.Config{Pits: r.Pits, Seeds: seeds, Rule: r.Rule, Threads: 1, TableSize: 16 << 20, NoEGDB: true, NoCache: true})
	if err != nil {
		return nil, err
	}
	defer k.Close()
	return k.SolveStart(ctx)
}

// The progress bar's text: the cell, the stage and its bounds as the
// solver reports them (within the seeds from the first report on,
// solver.TestProgressBoundsHold), the cell's nodes (every stage's) in
// short.
func TestDescribe(t *testing.T) {
	r := engine.Variant{Pits: 7, Rule: engine.EmptyCapture}
	for _, c := range []struct {
		p    solver.Progress
		want string
	}{
		{solver.Progress{Stage: "value", Lower: -56, Upper: 56, Nodes: 3150000, Total: 3150000}, "Kalah(7,4) empty-capture: value in [-56, +56], 3.15M nodes"},
		{solver.Progress{Stage: "chain da", Lower: -40, Upper: 38}, "Kalah(7,4) empty-capture: chain da in [-40, +38], 0 nodes"},
		{solver.Progress{Stage: "move g", Lower: -54, Upper: -2, Nodes: 1000, Total: 74350000}, "Kalah(7,4) empty-capture: move g in [-54, -2], 74.35M nodes"},
	} {
		if got := describe(r, 4, c.p); got != c.want {
			t.Errorf("describe(%+v) = %q, want %q", c.p, got, c.want)
		}
	}
}

// TestSweepStoreFlag: --store, the old name of --cache, still names the
// cache, as a hidden deprecated flag.
func TestSweepStoreFlag(t *testing.T) {
	io, _, _ := cmdutil.Test()
	cmd := NewCmdSweep(io)
	if err := cmd.ParseFlags([]string{"--store", "/c"}); err != nil {
		t.Fatal(err)
	}
	if got := cmd.Flags().Lookup("cache").Value.String(); got != "/c" {
		t.Errorf("--store /c: --cache is %q", got)
	}
	if f := cmd.Flags().Lookup("store"); !f.Hidden || f.Deprecated == "" {
		t.Error("--store is not a hidden deprecated flag")
	}
}

// -v logs the cache each cell opens and each bound proven on standard
// error (once each), with -q, without a bar where standard error is no
// terminal (the tests' buffer), and above the progress bar, and leaves the
// table on standard output as it is.
func TestSweepVerbose(t *testing.T) {
	for _, mode := range []string{"quiet", "no terminal", "bar"} {
		dir := t.TempDir()
		io, stdout, stderr := cmdutil.Test()
		opts := &Options{IO: io, Rule: "empty-capture", Pits: "3", Seeds: "2", Data: dir, NoEGDB: true,
			Cache: filepath.Join(dir, "cache"), Verbose: true, Quiet: mode == "quiet", barAlways: mode == "bar"}
		if err := run(opts); err != nil {
			t.Fatal(err)
		}
		out, errOut := stdout.String(), stderr.String()
		if !strings.Contains(errOut, "kalah sweep: cache ") || strings.Contains(out, "kalah sweep:") || !strings.Contains(out, "solved Kalah(3,2) empty-capture") {
			t.Errorf("%s: standard error:\n%s\nstandard output:\n%s", mode, errOut, out)
		}
		if bar := strings.Contains(errOut, "(1/1)"); bar != (mode == "bar") {
			t.Errorf("%s: the bar drawn: %v:\n%s", mode, bar, errOut)
		}
		// Each first move's exact value is logged, as the slow
		// reference computes it.
		ref := reference.NewSolver(reference.Rules{Pits: 3, EmptyCapture: true}, 0)
		start := reference.Rules{Pits: 3, EmptyCapture: true}.Game([]int{2, 2, 2, 0, 2, 2, 2, 0}, false)
		seen := map[string]bool{}
		for l := range strings.Lines(errOut) {
			if _, b, ok := strings.Cut(l, "kalah sweep: Kalah(3,2) empty-capture: "); ok {
				b, _, _ = strings.Cut(b, " at ")
				if seen[b] {
					t.Errorf("%s: %q logged twice", mode, b)
				}
				seen[b] = true
			}
		}
		for i, m := range "abc" {
			v := results.Signed(ref.MoveValue(start, i))
			if want := fmt.Sprintf("move %c in [%s, %s]", m, v, v); !seen[want] {
				t.Errorf("%s: no line %q in\n%s", mode, want, errOut)
			}
		}
	}
}

// A cell that fails ends the run with its error, and the table shows "-"
// for the cells not reached: "error" for a solve that failed (here a
// locked cache), the value for a record the archive could not take (here
// its file made a directory while the cell was solved), whose
// error names it and whose line under the table says "not recorded".
// What was solved before stays stored; "records in" is said only when a
// record was written.
func TestSweepCellFails(t *testing.T) {
	for _, c := range []struct {
		name     string
		seeds    string
		before   func(dir string) error // before Kalah(2,2) is solved; an error is its solve's
		wantErr  string
		wantRow  string
		wantLine string // a line of the output, "" for none
		noLine   string // a line the output must not hold
	}{
		{"solve", "1-3", func(string) error { return errors.New("cache /c is in use by another kalah process") },
			"Kalah(2,2) empty-capture: cache /c is in use", "    2  +2 W  error  -", "records in ", ""},
		{"record", "2-3", func(dir string) error {
			// No cell is recorded before it: the archive's file is a
			// directory from the start.
			if err := os.Mkdir(filepath.Join(dir, "empty-capture.jsonl"), 0o755); err != nil {
				t.Fatal(err)
			}
			return nil
		}, "Kalah(2,2) empty-capture solved (-2) but not recorded", "    2  -2 L  -",
			"solved Kalah(2,2) empty-capture: -2 in ", "records in "},
	} {
		dir := t.TempDir()
		io, out, _ := cmdutil.Test()
		opts := &Options{IO: io, Rule: "empty-capture", Pits: "2", Seeds: c.seeds, Data: dir, Quiet: true,
			newSolve: func(ctx context.Context, r engine.Variant, seeds int, _ *results.Open) (*results.Cell, error) {
				if seeds == 2 {
					if err := c.before(dir); err != nil {
						return nil, err
					}
				}
				return solveCell(ctx, r, seeds, nil)
			}}
		err := run(opts)
		if err == nil || !strings.Contains(err.Error(), c.wantErr) {
			t.Errorf("%s: err %v", c.name, err)
		}
		if !strings.Contains(out.String(), c.wantRow) || strings.Contains(out.String(), "todo") {
			t.Errorf("%s: output:\n%s", c.name, out.String())
		}
		line := func(prefix string) string {
			for l := range strings.Lines(out.String()) {
				if strings.HasPrefix(l, prefix) {
					return strings.TrimSpace(l)
				}
			}
			return ""
		}
		if c.wantLine != "" && line(c.wantLine) == "" {
			t.Errorf("%s: no line %q in\n%s", c.name, c.wantLine, out.String())
		}
		if c.name == "record" && !strings.HasSuffix(line(c.wantLine), "(not recorded)") {
			t.Errorf("%s: %q does not say it was not recorded", c.name, line(c.wantLine))
		}
		if c.noLine != "" && line(c.noLine) != "" {
			t.Errorf("%s: %q in\n%s", c.name, line(c.noLine), out.String())
		}
		if c.name == "solve" {
			if recs, _ := (results.Archive{Dir: dir}).Load("empty-capture"); len(recs) != 1 {
				t.Errorf("%d records stored, want 1", len(recs))
			}
		}
	}
}

// TestSweepEGDBMissing: with --egdb DIR, a pit count or rule without its
// database in DIR stops the run before any cell is solved (not when the
// sweep reaches it), naming every one missing; a cell already stored
// needs none.
func TestSweepEGDBMissing(t *testing.T) {
	db := t.TempDir()
	for _, c := range []engine.Rule{engine.EmptyCapture, engine.NoEmptyCapture} {
		d, err := egdb.BuildDir(context.Background(), db, engine.Variant{Pits: 2, Rule: c}, 4, egdb.Options{Threads: 1})
		if err != nil {
			t.Fatal(err)
		}
		d.Close()
	}
	data := t.TempDir()
	// A dry run lists the cells, then says what is missing.
	out, _, err := execute(t, nil, "--rule", "both", "--pits", "2-3", "--seeds", "1-2", "--egdb", db, "--data", data, "--dry-run")
	if cmdutil.ExitCode(err) != 1 || !strings.Contains(out, "    3  todo  todo") || !strings.Contains(fmt.Sprint(err), "for Kalah(3) empty-capture") {
		t.Fatalf("a dry run without the three-pit databases: %v\n%s", err, out)
	}
	_, _, err = execute(t, nil, "--rule", "both", "--pits", "2-3", "--seeds", "1-2", "--egdb", db, "--data", data, "-q")
	if err == nil || cmdutil.ExitCode(err) != 1 || !strings.Contains(err.Error(), "for Kalah(3) empty-capture, Kalah(3) no-empty-capture:") || strings.Contains(err.Error(), "Kalah(2)") {
		t.Fatalf("a sweep without the three-pit databases: %v", err)
	}
	if recs, err := (results.Archive{Dir: data}).Load("empty-capture"); err != nil || len(recs) != 0 {
		t.Fatalf("%d records written before the error, %v", len(recs), err)
	}
	// The two-pit cells alone run with their database.
	if _, _, err := execute(t, nil, "--rule", "both", "--pits", "2", "--seeds", "1-2", "--egdb", db, "--data", data, "-q"); err != nil {
		t.Fatal(err)
	}
	// Stored cells need no database.
	if _, _, err := execute(t, nil, "--rule", "both", "--pits", "2", "--seeds", "1-2", "--egdb", t.TempDir(), "--data", data, "-q"); err != nil {
		t.Fatal(err)
	}
}

// A cell left open by earlier runs is solved from what its open record
// holds exact (here its value and the first moves that end the turn),
// logged with -v, and its record counts those runs as earlier ones;
// --force solves it from nothing.
func TestSweepResumesFromOpenRecord(t *testing.T) {
	r := engine.Variant{Pits: 4, Rule: engine.EmptyCapture}
	full, err := solveCell(context.Background(), r, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	o := results.Open{Rule: "empty-capture", Pits: 4, Seeds: 3, Lower: full.Record.Value, Upper: full.Record.Value, Stage: "openings",
		Reason: "time limit 1m0s", Runs: 2, Nodes: 123456, Seconds: 60, Threads: 1, TableSize: 1 << 20, EGDBSeeds: -1, Date: "2026-01-02"}
	for _, op := range full.Record.Openings {
		if pits, _ := results.ChainPits(op.Chain, 4); len(pits) == 1 {
			o.Moves = append(o.Moves, results.MoveBounds{Move: engine.MoveLetter(engine.South, pits[0]), Lower: op.Value, Upper: op.Value})
		}
	}
	for _, force := range []bool{false, true} {
		dir := t.TempDir()
		archive := results.Archive{Dir: dir}
		if err := archive.PutOpen(o); err != nil {
			t.Fatal(err)
		}
		// A dry run shows what the record holds.
		args := []string{"--rule", "empty-capture", "--pits", "4", "--seeds", "3", "--data", dir, "--dry-run"}
		if force {
			args = append(args, "--force")
		}
		out, _, err := execute(t, nil, args...)
		next := map[bool]string{false: "a run resumes from them", true: "--force solves it from nothing"}[force]
		if err != nil || !strings.Contains(out, "open Kalah(4,3) empty-capture: value = +8, 3 of 4 first moves and 0 opening chains exact after 2 runs, 123,456 nodes; "+next) {
			t.Errorf("dry run: %v\n%s", err, out)
		}
		out, _, err = execute(t, nil, append(args, "--json")...)
		if err != nil || !strings.Contains(out, `"status":"todo","lower":8,"upper":8,"bounds":"= +8","seconds":60,"nodes":123456`) {
			t.Errorf("dry run, JSON: %v\n%s", err, out)
		}
		io, stdout, stderr := cmdutil.Test()
		opts := &Options{IO: io, Rule: "empty-capture", Pits: "4", Seeds: "3", Data: dir, NoEGDB: true, Verbose: true, Quiet: true, Force: force}
		if err := run(opts); err != nil {
			t.Fatal(err)
		}
		rec, err := archive.Get("empty-capture", 4, 3)
		if err != nil || rec == nil {
			t.Fatalf("force=%v: record %v, %v", force, rec, err)
		}
		if rec.Value != full.Record.Value || !slices.Equal(rec.Openings, full.Record.Openings) {
			t.Errorf("force=%v: %+d %v; fresh %+d %v", force, rec.Value, rec.Openings, full.Record.Value, full.Record.Openings)
		}
		logged := strings.Contains(stderr.String(), "kalah sweep: Kalah(4,3) empty-capture: resuming from its open record (2 runs): value = +8, 3 of 4 first moves and 0 opening chains exact")
		completing := strings.Contains(stdout.String(), ", completing 2 earlier runs")
		if force {
			if logged || completing || rec.Earlier != nil {
				t.Errorf("--force: earlier %+v, log:\n%s", rec.Earlier, stderr.String())
			}
			continue
		}
		if !logged || !completing || rec.Earlier == nil || rec.Earlier.Runs != 2 || rec.Earlier.Nodes != 123456 || rec.Nodes >= full.Record.Nodes {
			t.Errorf("earlier %+v, %d nodes (fresh %d), log:\n%s", rec.Earlier, rec.Nodes, full.Record.Nodes, stderr.String())
		}
	}
}

// An open record that proves nothing yet is said to, by --dry-run and -v.
func TestSweepOpenRecordWithoutBounds(t *testing.T) {
	dir := t.TempDir()
	o := results.Open{Rule: "empty-capture", Pits: 3, Seeds: 2, Lower: -12, Upper: 12, Stage: "value",
		Reason: "interrupted", Runs: 1, Nodes: 99, Seconds: 1, Threads: 1, TableSize: 1 << 20, EGDBSeeds: -1, Date: "2026-01-02"}
	if err := (results.Archive{Dir: dir}).PutOpen(o); err != nil {
		t.Fatal(err)
	}
	out, _, err := execute(t, nil, "--rule", "empty-capture", "--pits", "3", "--seeds", "2", "--data", dir, "--dry-run")
	if err != nil || !strings.Contains(out, "open Kalah(3,2) empty-capture: no bound proven yet after 1 run, 99 nodes; a run starts again") {
		t.Errorf("dry run: %v\n%s", err, out)
	}
	_, errOut, err := execute(t, nil, "--rule", "empty-capture", "--pits", "3", "--seeds", "2", "--data", dir, "--no-egdb", "-q", "-v")
	if err != nil || !strings.Contains(errOut, "kalah sweep: Kalah(3,2) empty-capture: its open record (1 run) proves no bound yet") {
		t.Errorf("-v: %v\n%s", err, errOut)
	}
}
