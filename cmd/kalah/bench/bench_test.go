package benchcmd

import (
	"context"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kalah-solver/kalah/bench"
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/egdb"
	"github.com/kalah-solver/kalah/engine"
)

// small is a reduced suite: two quick mid-game positions.
func small(t *testing.T) []bench.Case {
	t.Helper()
	var out []bench.Case
	for _, c := range bench.Quick() {
		if c.Name == "6x5-n-08" || c.Name == "6x4-e-07" {
			out = append(out, c)
		}
	}
	if len(out) != 2 {
		t.Fatalf("found %d of the 2 cases", len(out))
	}
	return out
}

// execute runs the command with args as under the root command; with
// cases not nil, on those cases instead of the named suite.
func execute(t *testing.T, cases []bench.Case, args ...string) (string, error) {
	t.Helper()
	out, _, err := execute2(t, cases, args...)
	return out, err
}

// execute2 is execute returning standard error too.
func execute2(t *testing.T, cases []bench.Case, args ...string) (string, string, error) {
	t.Helper()
	io, out, errOut := cmdutil.Test()
	cmd := newCmdBench(io, func(o *Options) error {
		o.Cases = cases
		return run(o)
	})
	cmd.SetArgs(args)
	cmd.SetOut(io.Out)
	cmd.SetErr(io.ErrOut)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	cmd.SetFlagErrorFunc(cmdutil.FlagError)
	err := cmd.Execute()
	return out.String(), errOut.String(), err
}

func TestBenchProgress(t *testing.T) {
	defer func(d time.Duration) { progressEvery = d }(progressEvery)
	progressEvery = 0
	_, errOut, err := execute2(t, small(t), "--table-size", "16MiB")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut, "  6x5-n-08: move ") || !strings.Contains(errOut, "nodes, value in [") {
		t.Errorf("standard error lacks progress lines:\n%s", errOut)
	}
	_, errOut, err = execute2(t, small(t), "--table-size", "16MiB", "-q")
	if err != nil || errOut != "" {
		t.Errorf("-q: %v, standard error %q", err, errOut)
	}
}

func TestBenchText(t *testing.T) {
	out, err := execute(t, small(t), "--table-size", "16MiB")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"2 positions, table 16 MiB, no endgame database", "1 thread\n", "6x5-n-08", "6x4-e-07",
		"empty-capture", "total", "deterministic", "build "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if last := lines[len(lines)-1]; !regexp.MustCompile(`^Bench: [1-9][0-9]* nodes [0-9]+ nps$`).MatchString(last) {
		t.Errorf("last line %q is not the signature", last)
	}
}

// TestBenchThreadsText: with several thread counts the rows carry the
// count, both solves of a position are adjacent (interleaved), and the
// totals and speed-ups follow.
func TestBenchThreadsText(t *testing.T) {
	out, err := execute(t, small(t), "--threads", "1,2", "--table-size", "16MiB", "-q")
	if err != nil {
		t.Fatal(err)
	}
	rows := regexp.MustCompile(`(?m)^ +([12]) (6x\S+|total) `).FindAllStringSubmatch(out, -1)
	var got []string
	for _, r := range rows {
		got = append(got, r[1]+" "+r[2])
	}
	if want := "1 6x4-e-07|2 6x4-e-07|2 6x5-n-08|1 6x5-n-08|1 total|2 total"; strings.Join(got, "|") != want {
		t.Errorf("rows %q, want %q, in:\n%s", strings.Join(got, "|"), want, out)
	}
	for _, want := range []string{"threads 1,2, interleaved", "speed-up: 1 thread ", "(1.00x), 2 threads "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestBenchThreadsJSON(t *testing.T) {
	out, err := execute(t, small(t), "--threads", "1,2", "--table-size", "16MiB", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Positions     int    `json:"positions"`
		TableSize     int64  `json:"table_size"`
		Signature     int64  `json:"signature"`
		Bench         string `json:"bench"`
		Deterministic bool   `json:"deterministic"`
		CPU           string `json:"cpu"`
		Runs          []struct {
			Threads       int     `json:"threads"`
			Deterministic bool    `json:"deterministic"`
			Nodes         int64   `json:"nodes"`
			Seconds       float64 `json:"seconds"`
			Speedup       float64 `json:"speedup"`
			Cases         []struct {
				Case    string   `json:"case"`
				Value   int      `json:"value"`
				Best    []string `json:"best"`
				Nodes   int64    `json:"nodes"`
				HitRate float64  `json:"tt_hit_rate"`
			} `json:"cases"`
		} `json:"runs"`
	}
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&rec); err != nil {
		t.Fatalf("%v in %q", err, out)
	}
	if dec.More() {
		t.Errorf("more than one JSON value: %q", out)
	}
	if rec.Positions != 2 || rec.TableSize != 16<<20 || len(rec.Runs) != 2 || !rec.Deterministic || rec.CPU == "" {
		t.Fatalf("record %+v", rec)
	}
	one, two := rec.Runs[0], rec.Runs[1]
	if one.Threads != 1 || two.Threads != 2 || !one.Deterministic || two.Deterministic {
		t.Errorf("runs %+v", rec.Runs)
	}
	if one.Speedup != 1 || two.Speedup <= 0 || rec.Signature != one.Nodes || !strings.HasPrefix(rec.Bench, "Bench: ") {
		t.Errorf("speed-ups %v %v, signature %d %q, nodes %d", one.Speedup, two.Speedup, rec.Signature, rec.Bench, one.Nodes)
	}
	for i := range one.Cases {
		a, b := one.Cases[i], two.Cases[i]
		if a.Case != b.Case || a.Value != b.Value || len(a.Best) == 0 || a.HitRate <= 0 || a.HitRate >= 1 {
			t.Errorf("case %d: %+v and %+v", i, a, b)
		}
	}
}

func TestBenchPlot(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "img")
	out, err := execute(t, small(t), "--threads", "1,2", "--table-size", "16MiB", "--plot", dir, "--plot-seeds", "2")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"bench-time.png", "bench-nodes.png", "bench-speedup.png", "bench-growth-time.png", "bench-growth-nodes.png"} {
		path := filepath.Join(dir, f)
		if !strings.Contains(out, "plot written to "+path) {
			t.Errorf("output does not name %s:\n%s", path, out)
		}
		fh, err := os.Open(path)
		if err != nil {
			t.Error(err)
			continue
		}
		img, err := png.Decode(fh)
		fh.Close()
		if err != nil || img.Bounds().Dx() < 400 {
			t.Errorf("%s: %v", f, err)
		}
	}
	for _, want := range []string{"growth series", "Kalah(6,1)", "Kalah(6,2)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestBenchGrowthSkips(t *testing.T) {
	out, err := execute(t, small(t)[:1], "--table-size", "16MiB", "--plot", t.TempDir(), "--plot-seeds", "4", "--plot-max-time", "1ms", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Growth []bench.Cell `json:"growth"`
	}
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatal(err)
	}
	if len(rec.Growth) != 8 {
		t.Fatalf("growth %+v, want 4 seed counts under 2 rules", rec.Growth)
	}
	for _, c := range rec.Growth {
		if c.Seeds >= 3 && (!c.Skipped || c.Result != nil) {
			t.Errorf("%s %s not skipped with a 1 ms limit", c.Game, c.Rule)
		}
	}
}

func TestBenchBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"--suite", "slow"},
		{"--threads", "0"},
		{"--threads", "1,x"},
		{"--table-size", "lots"},
		{"--table-size", "12KiB"},
		{"--plot-max-time", "0s"},
		{"--plot-seeds", "11"},
		{"--egdb", "/nonexistent/dir"},
		{"extra"},
	} {
		if _, err := execute(t, nil, args...); cmdutil.ExitCode(err) != 2 {
			t.Errorf("%v: %v, want exit code 2", args, err)
		}
	}
}

func TestBenchEGDB(t *testing.T) {
	dir := t.TempDir()
	for _, c := range engine.AllRules {
		db, err := egdb.BuildDir(context.Background(), dir, engine.Variant{Pits: 6, Rule: c}, 8, egdb.Options{Threads: 1})
		if err != nil {
			t.Fatal(err)
		}
		db.Close()
	}
	plain, err := execute(t, small(t), "--table-size", "16MiB", "--json")
	if err != nil {
		t.Fatal(err)
	}
	out, err := execute(t, small(t), "--table-size", "16MiB", "--egdb", dir, "--json")
	if err != nil {
		t.Fatal(err)
	}
	type rec struct {
		Deterministic bool `json:"deterministic"`
		Runs          []struct {
			EGDB      bool `json:"egdb"`
			EGDBSeeds int  `json:"egdb_seeds"`
			Cases     []struct {
				Value  int   `json:"value"`
				DBHits int64 `json:"egdb_hits"`
			} `json:"cases"`
		} `json:"runs"`
	}
	var a, b rec
	if err := json.Unmarshal([]byte(plain), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(out), &b); err != nil {
		t.Fatal(err)
	}
	if !a.Deterministic || b.Deterministic || !b.Runs[0].EGDB || b.Runs[0].EGDBSeeds != 8 || a.Runs[0].EGDBSeeds != -1 {
		t.Errorf("without: %+v; with: %+v", a, b)
	}
	for i, c := range b.Runs[0].Cases {
		if c.Value != a.Runs[0].Cases[i].Value || c.DBHits == 0 {
			t.Errorf("case %d: %+v with the database, %+v without", i, c, a.Runs[0].Cases[i])
		}
	}
	if _, err := execute(t, small(t), "--egdb", t.TempDir()); err == nil || !strings.Contains(err.Error(), "no endgame database") {
		t.Errorf("an empty --egdb directory: %v", err)
	}
}

func TestBenchInterrupted(t *testing.T) {
	run := func(ctx context.Context, args ...string) (string, error) {
		io, out, _ := cmdutil.Test()
		cmd := newCmdBench(io, func(o *Options) error {
			o.Cases, o.Context = small(t), ctx
			return run(o)
		})
		cmd.SetArgs(args)
		cmd.SilenceUsage, cmd.SilenceErrors = true, true
		err := cmd.Execute()
		return out.String(), err
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if out, err := run(ctx, "-q"); cmdutil.ExitCode(err) != 130 || out == "" || strings.Contains(out, "Bench:") {
		t.Errorf("cancelled before the start: %v, output %q", err, out)
	}
	// Stop the growth series of --plot in Kalah(6,3) or (6,4): the suite's
	// figures are still printed.
	ctx, cancel = context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	out, err := run(ctx, "-q", "--json", "--table-size", "16MiB", "--plot", t.TempDir(), "--plot-max-time", "10m")
	if cmdutil.ExitCode(err) != 130 {
		t.Fatalf("%v, want exit code 130", err)
	}
	if out == "" {
		t.Skip("the machine is too busy: stopped before the first position was solved")
	}
	var rec struct {
		Interrupted bool `json:"interrupted"`
		Runs        []struct {
			Complete bool             `json:"complete"`
			Cases    []map[string]any `json:"cases"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatalf("%v in %q", err, out)
	}
	if !rec.Interrupted || len(rec.Runs) != 1 || len(rec.Runs[0].Cases) == 0 {
		t.Errorf("record %+v", rec)
	}
}

func TestShortDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{10 * time.Minute: "10m", 90 * time.Second: "1m30s", time.Hour: "1h", 2*time.Hour + 5*time.Minute: "2h5m", 60 * time.Second: "1m", time.Millisecond: "1ms"} {
		if got := shortDuration(d); got != want {
			t.Errorf("shortDuration(%v) = %q, want %q", d, got, want)
		}
	}
}
