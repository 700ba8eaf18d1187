package solvecmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/internal/reference"
	"github.com/kalah-solver/kalah/results"
)

// execute runs kalah solve in-process with stdin as standard input. The
// data directory is a fresh temporary one, so neither an installed
// endgame database nor the user's cache is used.
func execute(t *testing.T, ctx context.Context, stdin string, args ...string) (string, string, error) {
	t.Helper()
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	io, out, errOut := cmdutil.Test()
	io.In = strings.NewReader(stdin)
	cmd := NewCmdSolve(io)
	cmd.SetArgs(append([]string{"--table-size", "16MiB", "--threads", "2"}, args...))
	cmd.SetOut(io.Out)
	cmd.SetErr(io.ErrOut)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true // as under the root command
	err := cmd.ExecuteContext(ctx)
	return out.String(), errOut.String(), err
}

// brute asks the shared slow reference (internal/reference: seed-by-seed
// sowing, plain memoized recursion) for values with the stores counted,
// for the side to move of the position it was made for.
type brute struct {
	ref  *reference.Solver
	game reference.Game
	diff int // the mover's store minus the opponent's
}

func newBrute(r engine.Variant, p engine.Position) *brute {
	rr := reference.Rules{Pits: r.Pits, EmptyCapture: r.Rule == engine.EmptyCapture}
	return &brute{ref: reference.NewSolver(rr, 0), game: rr.Game(p.Holes(), p.ToMove == engine.North), diff: p.Board.StoreDiff()}
}

// value is the position's value; move is pit i's.
func (br *brute) value() int     { return br.diff + br.ref.Value(br.game) }
func (br *brute) move(i int) int { return br.diff + br.ref.MoveValue(br.game, i) }

// checkRecord compares a JSON record with the reference and replays its
// principal variation, in both notations, to the value.
func checkRecord(t *testing.T, rec map[string]any, r engine.Variant, p engine.Position) {
	t.Helper()
	br := newBrute(r, p)
	want := br.value()
	if rec["value"] != float64(want) || rec["solved"] != true {
		t.Fatalf("%v at %v: value %v, reference %d", r, p, rec["value"], want)
	}
	moves := list(rec, "moves")
	if len(moves) != p.Board.NumMoves() {
		t.Fatalf("%d moves, want %d", len(moves), p.Board.NumMoves())
	}
	for k, m := range moves {
		mv := m.(map[string]any)
		i := p.Board.MoveList()[k] // pit order
		if mv["pit"] != float64(i+1) || mv["move"] != engine.MoveLetter(p.ToMove, i) || mv["value"] != float64(br.move(i)) {
			t.Errorf("move %d: %v, want pit %d value %d", k, mv, i+1, br.move(i))
		}
	}
	paper, err := r.ParsePaper(p, rec["pv"].(string))
	if err != nil {
		t.Fatal(err)
	}
	letters, err := r.ParseLetters(p, rec["pv_letters"].(string))
	if err != nil {
		t.Fatal(err)
	}
	if engine.FormatLetters(paper) != rec["pv_letters"] || len(letters) != len(paper) {
		t.Errorf("pv %q and pv_letters %q differ", rec["pv"], rec["pv_letters"])
	}
	end, err := r.PlayLine(p, paper)
	if err != nil {
		t.Fatal(err)
	}
	final := end.SouthDiff()
	if p.ToMove == engine.North {
		final = -final
	}
	if !end.Board.Over() || final != want {
		t.Errorf("pv %q ends at %v with %+d for the mover, value %+d", rec["pv"], end, final, want)
	}
}

func decode(t *testing.T, out string) []map[string]any {
	t.Helper()
	var recs []map[string]any
	dec := json.NewDecoder(strings.NewReader(out))
	for dec.More() {
		var rec map[string]any
		if err := dec.Decode(&rec); err != nil {
			t.Fatalf("%v in %q", err, out)
		}
		recs = append(recs, rec)
	}
	return recs
}

func TestSolveText(t *testing.T) {
	// Kalah(4,2) under empty-capture is +6 (Irving, Donkers & Uiterwijk
	// 2000, table 9).
	out, _, err := execute(t, context.Background(), "", "--pits", "4", "--seeds", "2", "--rule", "empty-capture", "--no-cache")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"solve Kalah(4,2), rule empty-capture", "position 2,2,2,2,0,2,2,2,2,0, south to move",
		"value +6 W", "   c    3     +4  extra turn\n", "best d\n", "pv (paper) ", "nodes ", "2 threads", "table 16 MiB", "egdb none"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestSolveJSON(t *testing.T) {
	for _, c := range []struct {
		m, n int
		rule engine.Rule
	}{{4, 2, engine.EmptyCapture}, {3, 3, engine.NoEmptyCapture}, {3, 3, engine.EmptyCapture}} {
		r := engine.Variant{Pits: c.m, Rule: c.rule}
		p, _ := r.StartPosition(c.n)
		out, _, err := execute(t, context.Background(), "", "--pits", itoa(c.m), "--seeds", itoa(c.n), "--rule", c.rule.String(), "--json", "--no-cache")
		if err != nil {
			t.Fatal(err)
		}
		recs := decode(t, out)
		if len(recs) != 1 {
			t.Fatalf("%d records", len(recs))
		}
		rec := recs[0]
		checkRecord(t, rec, r, p)
		for _, k := range []string{"pits", "seeds", "rule", "position", "to_move", "value", "result", "moves", "best", "pv", "pv_letters",
			"nodes", "seconds", "nps", "threads", "table_size", "egdb_seeds", "stats", "version", "vcs_revision", "go", "cpu"} {
			if _, ok := rec[k]; !ok {
				t.Errorf("record lacks %q", k)
			}
		}
		if rec["seeds"] != float64(c.n) || rec["rule"] != c.rule.String() || rec["threads"] != 2.0 || rec["table_size"] != float64(16<<20) || rec["egdb_seeds"] != -1.0 {
			t.Errorf("record %v", rec)
		}
	}
}

func TestSolvePublished(t *testing.T) {
	// Irving, Donkers & Uiterwijk (2000), table 9, empty-capture.
	for n, want := range map[int]float64{1: 2, 2: 6, 3: 8, 4: 2} {
		out, _, err := execute(t, context.Background(), "", "--pits", "4", "--seeds", itoa(n), "--rule", "empty-capture", "--json", "--no-cache")
		if err != nil {
			t.Fatal(err)
		}
		if rec := decode(t, out)[0]; rec["value"] != want || rec["result"] != "W" {
			t.Errorf("Kalah(4,%d): value %v, published %+v", n, rec["value"], want)
		}
	}
}

func TestSolveBatch(t *testing.T) {
	in := `# three positions of Kalah(4)
2,2,2,2,0,2,2,2,2,0
1,0,2,0,5,0,3,1,0,4 north

0,0,0,1,8,1,0,0,0,6 south
`
	out, _, err := execute(t, context.Background(), in, "--position", "-", "--rule", "empty-capture", "--json", "--no-cache")
	if err != nil {
		t.Fatal(err)
	}
	recs := decode(t, out)
	if len(recs) != 3 {
		t.Fatalf("%d records for 3 positions:\n%s", len(recs), out)
	}
	r := engine.Variant{Pits: 4, Rule: engine.EmptyCapture}
	for k, line := range []string{"2,2,2,2,0,2,2,2,2,0", "1,0,2,0,5,0,3,1,0,4 north", "0,0,0,1,8,1,0,0,0,6 south"} {
		pos, side, _ := strings.Cut(line, " ")
		s, _ := engine.ParseSide(side)
		p, err := engine.ParsePosition(pos, s)
		if err != nil {
			t.Fatal(err)
		}
		if recs[k]["position"] != pos || recs[k]["to_move"] != s.String() {
			t.Errorf("record %d is for %v %v, want %s", k, recs[k]["position"], recs[k]["to_move"], line)
		}
		checkRecord(t, recs[k], r, p)
	}
	// Text: one line each.
	out, _, err = execute(t, context.Background(), in, "--position", "-", "--rule", "empty-capture", "--no-cache")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[1], "position=1,0,2,0,5,0,3,1,0,4 to_move=north rule=empty-capture value=") {
		t.Errorf("text batch output:\n%s", out)
	}
}

func TestSolveBadInput(t *testing.T) {
	cases := [][]string{
		{"--position", "1,2,3"},
		{"--position", "0,0,0,0,0,0,5,1,1,1,1,1,1,0"}, // South empty, North not
		{"--pits", "9"},
		{"--rule", "capture-all"},
		{"--to-move", "north"},
		{"--table-size", "lots"},
		{"--table-size", "12KiB"},
		{"--threads", "-1"},
		{"--egdb", "/x", "--no-egdb"},
		{"--cache", "/x", "--no-cache"},
		{"--store", "/x", "--no-store"},
		{"extra"},
	}
	for _, args := range cases {
		out, _, err := execute(t, context.Background(), "", args...)
		if cmdutil.ExitCode(err) != 2 || out != "" {
			t.Errorf("%v: err %v (exit %d), output %q; want exit 2 and no output", args, err, cmdutil.ExitCode(err), out)
		}
	}
	// A bad line in a batch fails before anything is solved.
	out, _, err := execute(t, context.Background(), "3,3,3,3,0,3,3,3,3,0\n3,3,x\n", "--position", "-")
	if cmdutil.ExitCode(err) != 2 || out != "" || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("bad batch line: err %v, output %q", err, out)
	}
	if _, _, err := execute(t, context.Background(), "\n# nothing\n", "--position", "-"); cmdutil.ExitCode(err) != 2 {
		t.Errorf("empty batch: %v", err)
	}
}

func TestSolveInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out, _, err := execute(t, ctx, "", "--pits", "6", "--seeds", "3", "--json", "--no-cache")
	if !errors.Is(err, cmdutil.ErrInterrupted) || cmdutil.ExitCode(err) != 130 {
		t.Fatalf("err %v, want an interruption (exit 130)", err)
	}
	rec := decode(t, out)[0]
	if rec["solved"] != false || rec["interrupted"] != true || rec["lower"].(float64) > rec["upper"].(float64) {
		t.Errorf("interrupted record %v", rec)
	}
}

func TestSolveGameOver(t *testing.T) {
	out, _, err := execute(t, context.Background(), "", "--position", "0,0,0,0,20,0,0,0,0,16", "--json", "--no-cache")
	if err != nil {
		t.Fatal(err)
	}
	rec := decode(t, out)[0]
	if rec["value"] != 4.0 || rec["result"] != "W" || rec["pv"] != "" || len(list(rec, "moves")) != 0 {
		t.Errorf("finished game: %v", rec)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestSolveCache(t *testing.T) {
	dir := t.TempDir()
	args := []string{"--pits", "4", "--seeds", "2", "--rule", "empty-capture", "--json", "--cache", dir}
	out, _, err := execute(t, context.Background(), "", args...)
	if err != nil {
		t.Fatal(err)
	}
	first := decode(t, out)[0]
	if first["from_cache"] != false || first["cache"] != dir || first["from_store"] != nil || first["store"] != nil || first["value"] != 6.0 {
		t.Fatalf("first solve: %v", first)
	}
	out, _, err = execute(t, context.Background(), "", args...)
	if err != nil {
		t.Fatal(err)
	}
	again := decode(t, out)[0]
	if again["from_cache"] != true || again["from_store"] != nil || again["value"] != 6.0 || again["pv"] != first["pv"] || again["nodes"] != first["nodes"] {
		t.Errorf("repeated solve: %v", again)
	}
	// The cost is the first solve's, nodes per second included.
	if nps, _ := again["nps"].(float64); nps <= 0 || nps != first["nps"] || nps != first["nodes"].(float64)/first["seconds"].(float64) {
		t.Errorf("repeated solve: nps %v, first solve's %v nodes in %v s", again["nps"], first["nodes"], first["seconds"])
	}
	r := engine.Variant{Pits: 4, Rule: engine.EmptyCapture}
	p, _ := r.StartPosition(2)
	checkRecord(t, again, r, p)
	out, _, err = execute(t, context.Background(), "", append(args[:len(args)-2:len(args)-2], "--force", "--cache", dir)...)
	if err != nil {
		t.Fatal(err)
	}
	forced := decode(t, out)[0]
	if forced["from_cache"] != false || forced["value"] != 6.0 {
		t.Errorf("--force: %v", forced)
	}
	text, _, err := execute(t, context.Background(), "", "--pits", "4", "--seeds", "2", "--rule", "empty-capture", "--cache", dir)
	cost := fmt.Sprintf("solved originally with: nodes %s in %.3f s, %.1f M nodes/s, ", results.Group(int64(forced["nodes"].(float64))), forced["seconds"], forced["nps"].(float64)/1e6)
	if err != nil || !strings.Contains(text, "from cache "+dir) || !strings.Contains(text, cost) {
		t.Errorf("text from the cache (%v) lacks %q:\n%s", err, cost, text)
	}
}

// TestReportFromCache: an answer from the cache reports the cost of the
// solve that made it, from its record, not this run's (no search: zero).
func TestReportFromCache(t *testing.T) {
	rec := &output{Record: results.Record{Rule: "no-empty-capture", Pits: 5, Position: "0,5,5,5,5,0,4,4,4,4,4,0", ToMove: "north", Value: 2,
		Nodes: 13820464, Seconds: 70.035, Threads: 2, TableSize: 1 << 30, EGDBSeeds: -1, CacheHits: 657},
		Solved: true, FromCache: true, NPS: 13820464 / 70.035, Cache: "/s"}
	var b strings.Builder
	if err := printReport(&b, rec); err != nil {
		t.Fatal(err)
	}
	want := "solved originally with: nodes 13,820,464 in 70.035 s, 0.2 M nodes/s, 2 threads, table 1 GiB, egdb none, cache 657 hits\n"
	if !strings.HasSuffix(b.String(), want) {
		t.Errorf("report:\n%s\nwant it to end with\n%s", b.String(), want)
	}
}

func TestSolveInterruptedCache(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := t.TempDir()
	_, _, err := execute(t, ctx, "", "--pits", "6", "--seeds", "2", "--cache", dir, "-q")
	if cmdutil.ExitCode(err) != 130 || !strings.Contains(err.Error(), "run the same command again to resume") {
		t.Fatalf("err %v", err)
	}
	// The cache was closed: it opens again.
	if _, _, err := execute(t, context.Background(), "", "--pits", "2", "--seeds", "2", "--cache", dir); err != nil {
		t.Fatal(err)
	}
}

// TestSolveValueOnly: --value-only gives the reference value, one optimal
// move and a PV, no per-move values, and saves no root record.
func TestSolveValueOnly(t *testing.T) {
	for _, c := range engine.AllRules {
		r := engine.Variant{Pits: 4, Rule: c}
		for n := 1; n <= 3; n++ {
			p, _ := r.StartPosition(n)
			br := newBrute(r, p)
			out, _, err := execute(t, context.Background(), "", "--pits", "4", "--seeds", itoa(n), "--rule", c.String(), "--json", "--no-cache", "--value-only")
			if err != nil {
				t.Fatal(err)
			}
			rec := decode(t, out)[0]
			want := br.value()
			best, _ := rec["best"].([]any)
			if rec["value"] != float64(want) || rec["value_only"] != true || len(list(rec, "moves")) != 0 || len(best) != 1 {
				t.Fatalf("%v n=%d: %v, reference value %d", r, n, rec, want)
			}
			pit, err := engine.ParseMove(p, best[0].(string))
			if err != nil || br.move(pit) != want {
				t.Errorf("%v n=%d: best move %v is not optimal (%v)", r, n, best[0], err)
			}
			line, err := r.ParseLetters(p, rec["pv_letters"].(string))
			if err != nil {
				t.Fatal(err)
			}
			if end, err := r.PlayLine(p, line); err != nil || !end.Board.Over() || end.SouthDiff() != want {
				t.Errorf("%v n=%d: pv %v does not reach %d (%v)", r, n, rec["pv"], want, err)
			}
		}
	}
	// With a cache: the answer is not saved as a root record, so a full
	// solve afterwards searches and prints every move.
	dir := t.TempDir()
	if _, _, err := execute(t, context.Background(), "", "--pits", "4", "--seeds", "2", "--rule", "empty-capture", "--json", "--cache", dir, "--value-only"); err != nil {
		t.Fatal(err)
	}
	out, _, err := execute(t, context.Background(), "", "--pits", "4", "--seeds", "2", "--rule", "empty-capture", "--json", "--cache", dir)
	if err != nil {
		t.Fatal(err)
	}
	if rec := decode(t, out)[0]; rec["from_cache"] != false || len(list(rec, "moves")) != 4 {
		t.Errorf("full solve after --value-only: %v", rec)
	}
}

// list is a JSON array field, empty when absent (omitted when empty).
func list(rec map[string]any, key string) []any {
	a, _ := rec[key].([]any)
	return a
}

// TestSolveFullBoard: the largest games that fit the packed board open a
// session and solve to the reference value: the start with 2mn = 254
// seeds, and a position of 255 seeds on eight pits (a position's session
// is opened for one seed a pit, whatever it holds). One seed more is bad
// input, refused before any session opens.
func TestSolveFullBoard(t *testing.T) {
	r1 := engine.Variant{Pits: 1, Rule: engine.NoEmptyCapture}
	start, err := r1.StartPosition(127)
	if err != nil {
		t.Fatal(err)
	}
	r8 := engine.Variant{Pits: 8, Rule: engine.NoEmptyCapture}
	full, err := engine.ParsePosition("0,0,0,0,0,0,0,1,120,0,0,0,0,0,0,0,1,133", engine.South)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		r    engine.Variant
		p    engine.Position
	}{
		{[]string{"--pits", "1", "--seeds", "127"}, r1, start},
		{[]string{"--pits", "8", "--position", full.String()}, r8, full},
	} {
		out, _, err := execute(t, context.Background(), "", append(c.args, "--json", "--no-cache")...)
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		checkRecord(t, decode(t, out)[0], c.r, c.p)
	}
	for _, args := range [][]string{
		{"--pits", "1", "--seeds", "128"},
		{"--position", "0,0,0,0,0,0,0,1,120,0,0,0,0,0,0,0,1,134"},
	} {
		if out, _, err := execute(t, context.Background(), "", args...); cmdutil.ExitCode(err) != 2 || out != "" || !strings.Contains(err.Error(), "255") {
			t.Errorf("%v: err %v, output %q; want bad input naming the 255-seed limit", args, err, out)
		}
	}
}

// TestSolveDeprecatedFlags: the old names of the cache's flags still set
// the same options (each is bound to the new flag's variable), warn on
// standard error, and leave standard output to the record.
func TestSolveDeprecatedFlags(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ old, now, arg, want string }{
		{"store", "cache", dir, dir},
		{"no-store", "no-cache", "", "true"},
		{"store-min-seeds", "cache-min-seeds", "33", "33"},
		{"store-min-work", "cache-min-work", "9", "9"},
	} {
		io, _, _ := cmdutil.Test()
		cmd := NewCmdSolve(io)
		args := []string{"--" + c.old}
		if c.arg != "" {
			args = append(args, c.arg)
		}
		if err := cmd.ParseFlags(args); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if got := cmd.Flags().Lookup(c.now).Value.String(); got != c.want {
			t.Errorf("%v: --%s is %q, want %q", args, c.now, got, c.want)
		}
		if old := cmd.Flags().Lookup(c.old); !old.Hidden || old.Deprecated == "" {
			t.Errorf("--%s is not a hidden deprecated flag", c.old)
		}
	}
	out, errOut, err := execute(t, context.Background(), "", "--pits", "3", "--seeds", "2", "--json", "--store", dir)
	if err != nil {
		t.Fatal(err)
	}
	if rec := decode(t, out)[0]; rec["cache"] != dir {
		t.Errorf("--store %s: cache %v", dir, rec["cache"])
	}
	if !strings.Contains(errOut, "--store has been deprecated, use --cache") {
		t.Errorf("no deprecation warning on standard error: %q", errOut)
	}
	if _, _, err := execute(t, context.Background(), "", "--store", "/x", "--no-cache"); cmdutil.ExitCode(err) != 2 {
		t.Errorf("--store with --no-cache: %v, want exit 2", err)
	}
}

// TestLoadingNote: the progress line names the database read from disk
// while it is, and adds nothing once it is in memory.
func TestLoadingNote(t *testing.T) {
	if got := loadingNote(3<<30, 3<<30); got != "" {
		t.Errorf("loadingNote with everything read = %q, want nothing", got)
	}
	if got, want := loadingNote(1<<30, 3<<30), "; reading the endgame database into memory, 1 GiB of 3 GiB"; got != want {
		t.Errorf("loadingNote(1 GiB, 3 GiB) = %q, want %q", got, want)
	}
}
