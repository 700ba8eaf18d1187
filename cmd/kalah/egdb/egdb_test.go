package egdbcmd

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/egdb"
	"github.com/kalah-solver/kalah/egdb/export"
	"github.com/kalah-solver/kalah/engine"
	"github.com/parquet-go/parquet-go"
)

// execute runs "kalah egdb args..." in-process.
func execute(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	io, out, errOut := cmdutil.Test()
	cmd := NewCmdEgdb(io)
	cmd.SetArgs(args)
	cmd.SetOut(io.Out)
	cmd.SetErr(io.ErrOut)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true // as under the root command
	cmd.SetFlagErrorFunc(cmdutil.FlagError)
	err := cmd.Execute()
	return out.String(), errOut.String(), err
}

func decode(t *testing.T, out string) map[string]any {
	t.Helper()
	var rec map[string]any
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatalf("%v in %q", err, out)
	}
	return rec
}

// built returns a directory with Kalah(4) no-empty-capture up to 10 seeds.
func built(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if _, _, err := execute(t, "build", "--egdb", dir, "--pits", "4", "--max-seeds", "10", "-q"); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestBuildAndResume(t *testing.T) {
	dir := t.TempDir()
	out, errOut, err := execute(t, "build", "--egdb", dir, "--pits", "4", "--max-seeds", "8")
	if err != nil {
		t.Fatal(err)
	}
	// Standard error is no terminal here: the progress is a line a tenth.
	if !strings.Contains(out, "built 0..8; already there none") || !strings.Contains(errOut, "Kalah(4) no-empty-capture: done, 11,881 positions in ") {
		t.Errorf("first build:\n%s\nstderr:\n%s", out, errOut)
	}
	out, _, err = execute(t, "build", "--egdb", dir, "--pits", "4", "--max-seeds", "10", "--json", "-q")
	if err != nil {
		t.Fatal(err)
	}
	rec := decode(t, out)
	if b, _ := json.Marshal(rec["built"]); string(b) != "[9,10]" {
		t.Errorf("built %s, want [9,10]", b)
	}
	if rec["positions"] != float64(egdb.CumulativeSize(4, 10).Int64()) || rec["rule"] != "no-empty-capture" || rec["vcs_revision"] == nil {
		t.Errorf("record %v", rec)
	}
}

func TestBuildInterrupted(t *testing.T) {
	dir := t.TempDir()
	io, _, _ := cmdutil.Test()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := runBuild(&BuildOptions{IO: io, DB: DBFlags{Dir: dir, Pits: 4, Rule: "no-empty-capture"}, MaxSeeds: 8, Quiet: true, Ctx: ctx})
	if cmdutil.ExitCode(err) != 130 {
		t.Fatalf("err %v, exit %d", err, cmdutil.ExitCode(err))
	}
}

func TestVerify(t *testing.T) {
	dir := built(t)
	out, _, err := execute(t, "verify", "--egdb", dir, "-q")
	if err != nil || !strings.Contains(out, "0 mismatches") || !strings.Contains(out, "OK") {
		t.Fatalf("verify: %v\n%s", err, out)
	}
	out, _, err = execute(t, "verify", "--egdb", dir, "--pits", "4", "--sample", "0.5", "--json", "-q")
	if err != nil || decode(t, out)["ok"] != true {
		t.Fatalf("sampled verify: %v\n%s", err, out)
	}
	// A damaged file fails, naming it.
	path := egdb.SlicePath(dir, engine.Variant{Pits: 4}, 9)
	b, _ := os.ReadFile(path)
	b[len(b)-1] ^= 1
	os.WriteFile(path, b, 0o644)
	out, _, err = execute(t, "verify", "--egdb", dir, "-q")
	if err == nil || cmdutil.ExitCode(err) != 1 || !strings.Contains(out, "BAD "+path) {
		t.Fatalf("verify of a damaged file: %v\n%s", err, out)
	}
	if _, _, err := execute(t, "verify", "--egdb", dir, "--sample", "2"); cmdutil.ExitCode(err) != 2 {
		t.Errorf("--sample 2: %v", err)
	}
	if _, _, err := execute(t, "verify", "--egdb", t.TempDir()); cmdutil.ExitCode(err) != 1 {
		t.Errorf("empty directory: %v", err)
	}
}

func TestProbe(t *testing.T) {
	dir := built(t)
	out, _, err := execute(t, "probe", "--egdb", dir, "--position", "1,2,3,0,5,0,1,1,0,9", "--to-move", "north", "--json")
	if err != nil {
		t.Fatal(err)
	}
	rec := decode(t, out)
	db, _ := egdb.Open(dir, engine.Variant{Pits: 4})
	defer db.Close()
	p, _ := engine.ParsePosition("1,2,3,0,5,0,1,1,0,9", engine.North)
	g, _ := db.Probe(p.Board)
	if rec["gain"] != float64(g) || rec["margin"] != float64(p.Board.StoreDiff()+2*g-8) || rec["max_seeds"] != 10.0 {
		t.Errorf("probe %v, library gain %d", rec, g)
	}
	if moves, _ := rec["moves"].([]any); len(moves) != 2 {
		t.Errorf("moves %v", rec["moves"])
	}
	out, _, err = execute(t, "probe", "--egdb", dir, "--position", "1,2,3,0,5,0,1,1,0,9")
	if err != nil || !strings.Contains(out, "best") {
		t.Errorf("text probe: %v\n%s", err, out)
	}
	_, _, err = execute(t, "probe", "--egdb", dir, "--position", "9,2,3,0,5,0,1,1,4,9")
	if cmdutil.ExitCode(err) != 2 || !strings.Contains(err.Error(), "covers at most 10") {
		t.Errorf("beyond the database: %v", err)
	}
	for _, args := range [][]string{{"--position", "1,2,3"}, {}, {"--position", "1,2,3,0,5,0,1,1,0,9", "--rule", "x"}} {
		if _, _, err := execute(t, append([]string{"probe", "--egdb", dir}, args...)...); cmdutil.ExitCode(err) != 2 {
			t.Errorf("probe %v: %v", args, err)
		}
	}
}

func TestExport(t *testing.T) {
	dir := built(t)
	data, release, _ := egdb.OpenSlice(dir, engine.Variant{Pits: 4}, 7)
	defer release()
	out, _, err := execute(t, "export", "--egdb", dir, "--pits", "4", "--seeds", "7")
	if err != nil {
		t.Fatal(err)
	}
	x, _ := egdb.NewIndex(4, 7)
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Scan()
	if sc.Text() != "rank,position,to_move,seeds,gain,margin" {
		t.Fatalf("header %q", sc.Text())
	}
	rows := 0
	for ; sc.Scan(); rows++ {
		f := strings.Split(sc.Text(), "\"")
		own, opp := x.Unrank(7, int64(rows))
		want := engine.Position{Pits: 4, Board: engine.Board{Own: own, Opp: opp}}.String()
		g := int(data[rows])
		if f[0] != strconv.Itoa(rows)+"," || f[1] != want || f[2] != ",south,7,"+strconv.Itoa(g)+","+strconv.Itoa(2*g-7) {
			t.Fatalf("row %d: %q, want position %s gain %d", rows, sc.Text(), want, g)
		}
	}
	if rows != len(data) {
		t.Fatalf("%d rows, slice has %d", rows, len(data))
	}
	out, _, _ = execute(t, "export", "--egdb", dir, "--pits", "4", "--seeds", "7", "--format", "jsonl")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	o5, p5 := x.Unrank(7, 5)
	want5 := engine.Position{Pits: 4, Board: engine.Board{Own: o5, Opp: p5}}.String()
	if len(lines) != len(data) || decode(t, lines[5])["position"] != want5 {
		t.Fatalf("jsonl: %d lines, line 5 %s", len(lines), lines[5])
	}
	file := filepath.Join(t.TempDir(), "s7.parquet")
	if _, _, err := execute(t, "export", "--egdb", dir, "--pits", "4", "--seeds", "7", "--format", "parquet", "-o", file); err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(file)
	defer f.Close()
	st, _ := f.Stat()
	got, err := parquet.Read[export.Row](f, st.Size())
	if err != nil || len(got) != len(data) || got[9].Rank != 9 || got[9].Gain != int32(data[9]) || got[9].ToMove != "south" {
		t.Fatalf("parquet: %v, %d rows, row 9 %+v", err, len(got), got[min(9, len(got)-1)])
	}
	for _, args := range [][]string{{"--seeds", "7", "--format", "xml"}, {"--format", "csv"}, {"--seeds", "7", "--format", "parquet"}} {
		if _, _, err := execute(t, append([]string{"export", "--egdb", dir, "--pits", "4"}, args...)...); cmdutil.ExitCode(err) != 2 {
			t.Errorf("export %v: %v", args, err)
		}
	}
	if _, _, err := execute(t, "export", "--egdb", dir, "--pits", "4", "--seeds", "11"); cmdutil.ExitCode(err) != 1 || !strings.Contains(err.Error(), "not built") {
		t.Errorf("missing slice: %v", err)
	}
}

func TestStats(t *testing.T) {
	dir := built(t)
	png := filepath.Join(t.TempDir(), "wdl.png")
	out, _, err := execute(t, "stats", "--egdb", dir, "--pits", "4", "--json", "--plot", png)
	if err != nil {
		t.Fatal(err)
	}
	slices, _ := decode(t, out)["slices"].([]any)
	if len(slices) != 11 {
		t.Fatalf("%d slices", len(slices))
	}
	s8 := slices[8].(map[string]any)
	if s8["positions"].(float64) != s8["won"].(float64)+s8["drawn"].(float64)+s8["lost"].(float64) {
		t.Errorf("slice 8: %v", s8)
	}
	if st, err := os.Stat(png); err != nil || st.Size() < 1000 {
		t.Errorf("plot: %v", err)
	}
	if _, _, err := execute(t, "stats", "--egdb", dir, "--pits", "4", "--plot", "x.gif"); cmdutil.ExitCode(err) != 2 {
		t.Errorf("--plot x.gif: %v", err)
	}
}

func TestSize(t *testing.T) {
	out, _, err := execute(t, "size", "--pits", "6", "--max-seeds", "20")
	if err != nil || !strings.Contains(out, "225,332,381") {
		t.Fatalf("size: %v\n%s", err, out)
	}
	out, _, _ = execute(t, "size", "--pits", "6", "--max-seeds", "20", "--json")
	slices := decode(t, out)["slices"].([]any)
	if last := slices[20].(map[string]any); last["cumulative"] != 225332381.0 || last["positions"] != 84566055.0 {
		t.Errorf("slice 20: %v", last)
	}
	// The packed estimate against the files a build writes: 4 bits a
	// position and a little, under 0.6 of the byte format.
	for _, sl := range slices {
		row := sl.(map[string]any)
		if n, packed, bytes := row["cumulative"].(float64), row["packed_bytes"].(float64), row["bytes"].(float64); n > 1e6 && (packed < n/2 || packed > 0.6*bytes) {
			t.Errorf("slice %v: %v positions, packed estimate %v bytes, byte format %v", row["seeds"], n, packed, bytes)
		}
	}
	out, _, _ = execute(t, "size", "--state-space", "--pits", "6", "--seeds", "4")
	if !strings.Contains(out, "13,132,444,545,150") || !strings.Contains(out, "1.31e+13") {
		t.Errorf("state space:\n%s", out)
	}
	for _, args := range [][]string{{"--pits", "9"}, {"--max-seeds", "-1"}, {"--seeds", "4"}, {"--bogus"}} {
		if _, _, err := execute(t, append([]string{"size"}, args...)...); cmdutil.ExitCode(err) != 2 {
			t.Errorf("size %v: %v", args, err)
		}
	}
}

func TestPath(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", "/data")
	out, _, err := execute(t, "path")
	if err != nil || out != "/data/kalah/egdb\n" {
		t.Fatalf("path: %v %q", err, out)
	}
	dir := built(t)
	out, _, _ = execute(t, "path", "--egdb", dir, "--json")
	rec := decode(t, out)
	dbs := rec["databases"].([]any)
	if len(dbs) != 1 || dbs[0].(map[string]any)["pits"] != 4.0 || len(dbs[0].(map[string]any)["slices"].([]any)) != 11 {
		t.Errorf("path --json: %s", out)
	}
	if _, _, err := execute(t, "path", "extra"); cmdutil.ExitCode(err) != 2 {
		t.Errorf("stray argument: %v", err)
	}
}

// TestConvertCommand builds in the byte format, converts to packed and
// back, and probes the same value throughout; bad flags are bad input.
func TestConvertCommand(t *testing.T) {
	dir := t.TempDir()
	if _, _, err := execute(t, "build", "--egdb", dir, "--pits", "4", "--max-seeds", "10", "--format", "byte", "-q"); err != nil {
		t.Fatal(err)
	}
	probe := func() string {
		out, _, err := execute(t, "probe", "--egdb", dir, "--position", "0,1,2,1,0,2,0,1,1,5", "--json")
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	before := probe()
	out, errOut, err := execute(t, "convert", "--egdb", dir, "--pits", "4", "--to", "packed", "--json")
	if err != nil {
		t.Fatal(err)
	}
	rec := decode(t, out)
	if rec["converted"] != float64(11) || !strings.Contains(errOut, "slice 10: byte -> packed") {
		t.Errorf("convert: %v\nstderr:\n%s", rec, errOut)
	}
	h, err := egdb.ReadHeader(egdb.SlicePath(dir, engine.Variant{Pits: 4}, 10))
	if err != nil || h.Encoding != egdb.EncodingPacked {
		t.Fatalf("header after convert: %+v, %v", h, err)
	}
	if after := probe(); after != before {
		t.Errorf("probe before %s, after %s", before, after)
	}
	out, _, err = execute(t, "verify", "--egdb", dir, "--pits", "4", "-q")
	if err != nil || !strings.Contains(out, "packed 0..10") {
		t.Errorf("verify after convert: %v\n%s", err, out)
	}
	out, _, err = execute(t, "convert", "--egdb", dir, "--pits", "4", "--to", "packed", "-q")
	if err != nil || !strings.Contains(out, "0 of 11 slice files converted") {
		t.Errorf("second convert: %v\n%s", err, out)
	}
	if _, _, err := execute(t, "convert", "--egdb", dir, "--pits", "4", "--to", "byte", "-q"); err != nil {
		t.Fatal(err)
	}
	if after := probe(); after != before {
		t.Errorf("probe before %s, after the round trip %s", before, after)
	}
	for _, args := range [][]string{
		{"convert", "--egdb", dir, "--pits", "4", "--to", "zip"},
		{"build", "--egdb", dir, "--pits", "4", "--format", "zip"},
	} {
		if _, _, err := execute(t, args...); err == nil || cmdutil.ExitCode(err) != 2 {
			t.Errorf("%v: %v (exit %d), want bad input", args, err, cmdutil.ExitCode(err))
		}
	}
	if _, _, err := execute(t, "convert", "--egdb", t.TempDir(), "--pits", "4"); err == nil || !strings.Contains(err.Error(), "no endgame database") {
		t.Errorf("converting nothing: %v", err)
	}
}

// --max-memory below what a slice takes whole builds it in parts, to the
// same files; below what its largest part takes, the build stops with an
// error that says so.
func TestBuildMaxMemory(t *testing.T) {
	whole, parts := t.TempDir(), t.TempDir()
	if _, _, err := execute(t, "build", "--egdb", whole, "--max-seeds", "13", "-q"); err != nil {
		t.Fatal(err)
	}
	out, _, err := execute(t, "build", "--egdb", parts, "--max-seeds", "13", "--max-memory", "1MiB", "-q", "--json")
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(decode(t, out)["in_parts"]); string(b) != "[11,12,13]" {
		t.Errorf("built in parts: %s, want [11,12,13]", b)
	}
	rules := engine.Variant{Pits: 6}
	for s := 0; s <= 13; s++ {
		a, _ := os.ReadFile(egdb.SlicePath(whole, rules, s))
		b, err := os.ReadFile(egdb.SlicePath(parts, rules, s))
		if err != nil || string(a) != string(b) {
			t.Errorf("slice %d differs (%v)", s, err)
		}
	}
	_, _, err = execute(t, "build", "--egdb", parts, "--max-seeds", "14", "--max-memory", "1MiB", "-q")
	if cmdutil.ExitCode(err) != 1 || !strings.Contains(err.Error(), "slice 14 ") || !strings.Contains(err.Error(), "in parts") || !strings.Contains(err.Error(), "--max-memory") {
		t.Errorf("slice 14 under 1 MiB: %v (exit %d)", err, cmdutil.ExitCode(err))
	}
	if _, _, err := execute(t, "build", "--egdb", parts, "--max-memory", "lots"); cmdutil.ExitCode(err) != 2 {
		t.Errorf("--max-memory lots: %v", err)
	}
}
