package cachecmd

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/persist"
	"github.com/kalah-solver/kalah/solver"
	"github.com/kalah-solver/kalah/tt"
	"github.com/parquet-go/parquet-go"
	"github.com/spf13/cobra"
)

func execute(t *testing.T, newCmd func(*cmdutil.IOStreams) *cobra.Command, args ...string) (string, error) {
	t.Helper()
	io, out, _ := cmdutil.Test()
	cmd := newCmd(io)
	cmd.SetArgs(args)
	cmd.SetOut(io.Out)
	cmd.SetErr(io.ErrOut)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.Execute()
	return out.String(), err
}

// fill solves Kalah(4,3) under empty-capture over a cache in dir, keeping
// every entry, and returns the number written.
func fill(t *testing.T, dir string) int64 {
	t.Helper()
	r := engine.Variant{Pits: 4, Rule: engine.EmptyCapture}
	st, err := persist.Open(dir, r, persist.Options{MinSeeds: 1, MinWork: 1})
	if err != nil {
		t.Fatal(err)
	}
	sv, err := solver.New(r, solver.Options{TableSize: 1 << 22, Threads: 1, Cache: st})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := r.StartPosition(3)
	if _, err := sv.SolveEveryMove(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	sv.Close()
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	return st.Written()
}

func TestStats(t *testing.T) {
	dir := t.TempDir()
	fill(t, dir)
	out, err := execute(t, NewCmdStats, "--cache", dir, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rec statsRecord
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Dir != dir || len(rec.Counts) != 1 || rec.Counts[0].Rule != "empty-capture" || rec.Counts[0].Pits != 4 ||
		rec.Entries == 0 || rec.DiskBytes == 0 || rec.CPU == "" {
		t.Errorf("stats %+v", rec)
	}
	text, err := execute(t, NewCmdStats, "--cache", dir)
	if err != nil || !strings.Contains(text, "empty-capture        4") || !strings.Contains(text, "on disk") {
		t.Errorf("text stats (%v):\n%s", err, text)
	}
	if _, err := execute(t, NewCmdStats, "--cache", filepath.Join(dir, "none")); err == nil || !strings.Contains(err.Error(), "no cache at") {
		t.Errorf("missing cache: %v", err)
	}
}

func TestExport(t *testing.T) {
	dir := t.TempDir()
	fill(t, dir)
	out, err := execute(t, NewCmdExport, "--cache", dir, "--format", "jsonl")
	if err != nil {
		t.Fatal(err)
	}
	r := engine.Variant{Pits: 4, Rule: engine.EmptyCapture}
	n := 0
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var row struct {
			Rule, Position, ToMove, Move string
			Pits, Lower, Upper           int
		}
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatal(err)
		}
		p, err := engine.ParsePosition(row.Position, engine.South)
		if err != nil || row.Rule != "empty-capture" || row.Pits != 4 || p.Pits != 4 {
			t.Fatalf("row %s: %v", sc.Text(), err)
		}
		if _, err := engine.ParseMove(p, row.Move); err != nil {
			t.Errorf("row %s: best move %v", sc.Text(), err)
		}
		if seeds := p.Board.Seeds(); row.Lower < -seeds || row.Lower > row.Upper || row.Upper > seeds || (row.Lower == -seeds && row.Upper == seeds) {
			t.Errorf("row %s: bounds prove nothing or are not an interval of the %d seeds", sc.Text(), seeds)
		}
		n++
		_ = r
	}
	if n == 0 {
		t.Fatal("no rows")
	}
	if out, _ := execute(t, NewCmdExport, "--cache", dir, "--pits", "6"); out != "" {
		t.Errorf("--pits 6 exported %d bytes", len(out))
	}
	pq := filepath.Join(t.TempDir(), "cache.parquet")
	if _, err := execute(t, NewCmdExport, "--cache", dir, "--format", "parquet", "-o", pq); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(pq)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	pf, err := parquet.OpenFile(f, fi.Size())
	if err != nil || pf.NumRows() != int64(n) {
		t.Errorf("parquet: %v, %d rows, want %d", err, pf.NumRows(), n)
	}
	for _, bad := range [][]string{{"--format", "csv"}, {"--format", "parquet"}, {"--rule", "x"}, {"--pits", "9"}} {
		if _, err := execute(t, NewCmdExport, append([]string{"--cache", dir}, bad...)...); cmdutil.ExitCode(err) != 2 {
			t.Errorf("%v: %v, want exit 2", bad, err)
		}
	}
}

// entries reads every entry of the cache in dir.
func entries(t *testing.T, dir string) map[engine.Key]tt.Entry {
	t.Helper()
	st, err := persist.Open(dir, engine.Variant{}, persist.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	out := map[engine.Key]tt.Entry{}
	if err := st.Range(nil, func(_ engine.Variant, k engine.Key, e tt.Entry) error {
		out[k] = e
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// gc flattens the cache and keeps every entry as it was; it deletes the
// checkpoint of a solved position and a cut-short one, keeps the
// checkpoint of an unfinished solve, and says so.
func TestGCAndPath(t *testing.T) {
	dir := t.TempDir()
	written := fill(t, dir)
	before := entries(t, dir)
	if len(before) == 0 || int64(len(before)) > written { // a key written twice is one entry
		t.Fatalf("%d entries read back, %d written", len(before), written)
	}
	r := engine.Variant{Pits: 4, Rule: engine.EmptyCapture}
	st, err := persist.Open(dir, r, persist.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tab, _ := tt.New(4, 1<<20)
	for seeds := 2; seeds <= 3; seeds++ {
		p, _ := r.StartPosition(seeds)
		if _, err := st.SaveCheckpoint(p, tab, persist.ResumeInfo{}); err != nil {
			t.Fatal(err)
		}
		if seeds == 3 {
			st.PutRoot(p, []byte(`{}`))
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "resume", "x.ckpt.tmp"), nil, 0o644)
	out, err := execute(t, NewCmdGC, "--cache", dir)
	want := "\ncheckpoints: 2 removed (1 of solved positions, 0 unreadable, 1 cut short), 1 of unfinished solves kept\n"
	if err != nil || !strings.Contains(out, "flattened") || !strings.HasSuffix(out, want) {
		t.Errorf("gc (%v): %s", err, out)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "resume", "*")); len(files) != 1 {
		t.Errorf("gc left %v", files)
	}
	after := entries(t, dir)
	if len(after) != len(before) {
		t.Errorf("gc kept %d of %d entries", len(after), len(before))
	}
	for k, e := range before {
		if after[k] != e {
			t.Errorf("entry %v: %v before gc, %v after", k, e, after[k])
			break
		}
	}
	t.Setenv("XDG_DATA_HOME", "/data")
	if out, _ := execute(t, NewCmdPath); out != "/data/kalah/cache\n" {
		t.Errorf("path %q", out)
	}
	if out, _ := execute(t, NewCmdCache, "nonsense"); out != "" {
		t.Errorf("unknown subcommand printed %q", out)
	}
	if _, err := execute(t, NewCmdCache, "nonsense"); cmdutil.ExitCode(err) != 2 {
		t.Errorf("unknown subcommand: %v", err)
	}
}

func TestInUse(t *testing.T) {
	dir := t.TempDir()
	st, err := persist.Open(dir, engine.Variant{Pits: 6}, persist.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := execute(t, NewCmdStats, "--cache", dir); !errors.Is(err, persist.ErrInUse) || cmdutil.ExitCode(err) != 1 {
		t.Errorf("cache in use: %v", err)
	}
}

// TestSIGKILL kills a real "kalah solve" while it writes the cache: the
// cache opens again, keeps what was committed, and a second solve over it
// finishes with the right value. The kill waits for events, not a clock:
// the second progress line of the full-depth search (after the
// depth-limited deepening, whose results are not proofs and so are not
// stored), two seconds or more into the proofs, by which time the cache's
// writer, which commits at least once a second, has committed.
func TestSIGKILL(t *testing.T) {
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "kalah")
	build := exec.Command("go", "build", "-o", bin, "github.com/kalah-solver/kalah/cmd/kalah")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := filepath.Join(tmp, "cache")
	// --force: a search, not the built-in book's answer for the start.
	args := []string{"solve", "--pits", "6", "--seeds", "4", "--rule", "empty-capture", "--value-only", "--force", "--no-egdb", "--cache", dir, "--table-size", "256MiB", "--threads", "2"}
	cmd := exec.Command(bin, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stderr)
	lines := 0
	for lines < 2 && sc.Scan() {
		if strings.Contains(sc.Text(), "s] value: ") { // "[    6.0s] value: value in [+8, +12]; ..."
			lines++
		}
	}
	progressed := lines == 2
	cmd.Process.Signal(syscall.SIGKILL)
	go io.Copy(io.Discard, stderr)
	err = cmd.Wait()
	if !progressed || err == nil {
		t.Fatalf("the solve ended (%v) before its second progress line of the full-depth search", err)
	}
	st, err := persist.Open(dir, engine.Variant{}, persist.Options{})
	if err != nil {
		t.Fatalf("cache after SIGKILL: %v", err)
	}
	stats, err := st.Stats()
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	var kept int64
	for _, c := range stats.Counts {
		kept += c.Entries
	}
	t.Logf("after SIGKILL the cache holds %d entries", kept)
	if kept == 0 {
		t.Error("the killed solve left nothing in the cache")
	}
	out, err := exec.Command(bin, append(args, "--json", "-q")...).Output()
	if err != nil {
		t.Fatalf("solve after SIGKILL: %v", err)
	}
	var rec struct {
		Value int `json:"value"`
	}
	if err := json.Unmarshal(out, &rec); err != nil || rec.Value != 10 { // Irving et al. (2000), table 9
		t.Errorf("solve after SIGKILL: %v, value %d, published +10", err, rec.Value)
	}
}

// TestStoreFlagAlias: --store, the old name of --cache, still names the
// directory, hidden from the help.
func TestStoreFlagAlias(t *testing.T) {
	dir := t.TempDir()
	fill(t, dir)
	io, out, errOut := cmdutil.Test()
	cmd := NewCmdStats(io)
	cmd.SetArgs([]string{"--store", dir, "--json"})
	cmd.SetOut(io.Out)
	cmd.SetErr(io.ErrOut)
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	var rec statsRecord
	if err := json.Unmarshal(out.Bytes(), &rec); err != nil || rec.Dir != dir {
		t.Errorf("--store %s: %v, dir %q", dir, err, rec.Dir)
	}
	if !strings.Contains(errOut.String(), "--store has been deprecated, use --cache") {
		t.Errorf("no deprecation warning: %q", errOut.String())
	}
	for _, newCmd := range []func(*cmdutil.IOStreams) *cobra.Command{NewCmdStats, NewCmdExport, NewCmdGC, NewCmdPath} {
		cmd := newCmd(io)
		if f := cmd.Flags().Lookup("store"); f == nil || !f.Hidden || f.Deprecated == "" || f.Value != cmd.Flags().Lookup("cache").Value {
			t.Errorf("%s: --store is not a hidden alias of --cache", cmd.Name())
		}
	}
	t.Setenv("XDG_DATA_HOME", "/data")
	if out, err := execute(t, NewCmdPath, "--store", "/x"); err != nil || out != "/x\n" {
		t.Errorf("path --store /x: %q, %v", out, err)
	}
}
