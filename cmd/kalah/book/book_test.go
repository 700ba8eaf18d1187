package bookcmd

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/book"
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/internal/reference"
)

func execute(t *testing.T, ctx context.Context, args ...string) (string, error) {
	t.Helper()
	io, out, _ := cmdutil.Test()
	cmd := NewCmdBuild(io)
	cmd.SetArgs(append([]string{"--threads", "1", "--table-size", "16MiB", "--no-egdb", "-q"}, args...))
	cmd.SetOut(io.Out)
	cmd.SetErr(io.ErrOut)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.ExecuteContext(ctx)
	return out.String(), err
}

// A book of Kalah(3,3) to 4 plies: every position in it is then answered
// from the cache, with the reference's value; a second build finds them
// all there (named with --store, the deprecated name of --cache, and read
// under the deprecated keys too).
func TestBookBuild(t *testing.T) {
	dir := t.TempDir()
	out, err := execute(t, context.Background(), "--pits", "3", "--seeds", "3", "--rule", "empty-capture", "--plies", "4", "--cache", dir, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var sum summary
	if err := json.Unmarshal([]byte(out), &sum); err != nil || sum.Positions == 0 || sum.Solved != sum.Positions || sum.FromCache != 0 || sum.Cache != dir {
		t.Fatalf("first build: %v %+v", err, sum)
	}
	k, err := kalah.Open(kalah.Config{Pits: 3, Seeds: 3, Rule: kalah.EmptyCapture, CacheDir: dir, NoEGDB: true, TableSize: 16 << 20})
	if err != nil {
		t.Fatal(err)
	}
	ps := k.BookPositions(4)
	if len(ps) != sum.Positions {
		t.Fatalf("%d positions listed, %d built", len(ps), sum.Positions)
	}
	ref := reference.NewSolver(reference.Rules{Pits: 3, EmptyCapture: true}, 0)
	for _, p := range ps {
		res, err := k.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		g := reference.Rules{Pits: 3, EmptyCapture: true}.Game(p.Holes(), p.ToMove == engine.North)
		if want := p.Board.StoreDiff() + ref.Value(g); !res.FromCache || res.Value != want {
			t.Errorf("%v %v: from the cache %v, value %d, reference %d", p, p.ToMove, res.FromCache, res.Value, want)
		}
	}
	k.Close()
	out, err = execute(t, context.Background(), "--pits", "3", "--seeds", "3", "--rule", "empty-capture", "--plies", "4", "--store", dir, "--json")
	if err != nil {
		t.Fatal(err)
	}
	sum = summary{}
	json.Unmarshal([]byte(out), &sum)
	if sum.FromCache != sum.Positions || sum.Cache != dir {
		t.Errorf("second build: %d of %d positions from the cache %q", sum.FromCache, sum.Positions, sum.Cache)
	}
	if strings.Contains(out, "from_store") || strings.Contains(out, `"store"`) {
		t.Errorf("a deprecated key written: %s", out)
	}
}

// Interrupted: exit code 130 and a message that says how to go on.
func TestBookInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	io, _, _ := cmdutil.Test()
	opts := &Options{IO: io, Game: cmdutil.GameFlags{Pits: 3, Seeds: 3, Rule: "empty-capture"}, Plies: 3, NoEGDB: true, Cache: t.TempDir(), Quiet: true, ctx: ctx}
	err := run(opts)
	if cmdutil.ExitCode(err) != 130 || !strings.Contains(err.Error(), "run the same command again") {
		t.Errorf("interrupted build: %v", err)
	}
}

func TestBookBadInput(t *testing.T) {
	for _, args := range [][]string{{"--plies", "-1"}, {"--pits", "9"}, {"--egdb", "x", "--no-egdb"}} {
		if _, err := execute(t, context.Background(), args...); cmdutil.ExitCode(err) != 2 {
			t.Errorf("%v: %v", args, err)
		}
	}
}

func executeExport(t *testing.T, args ...string) (string, error) {
	t.Helper()
	io, out, _ := cmdutil.Test()
	cmd := NewCmdExport(io)
	cmd.SetArgs(args)
	cmd.SetOut(io.Out)
	cmd.SetErr(io.ErrOut)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.ExecuteContext(context.Background())
	return out.String(), err
}

// A book built into a cache exports to a file that reads back whole and
// holds up (book.File.Check), under its usual name in a directory; a
// deeper book than the cache holds is refused, naming the build to run.
func TestBookExport(t *testing.T) {
	cache, dir := t.TempDir(), t.TempDir()
	game := []string{"--pits", "3", "--seeds", "3", "--rule", "empty-capture"}
	if _, err := execute(t, context.Background(), append(game, "--plies", "4", "--cache", cache)...); err != nil {
		t.Fatal(err)
	}
	out, err := executeExport(t, append(game, "--plies", "4", "--cache", cache, "-o", dir, "--json")...)
	if err != nil {
		t.Fatal(err)
	}
	var sum exportSummary
	if err := json.Unmarshal([]byte(out), &sum); err != nil || sum.File != filepath.Join(dir, "3-3-empty-capture.jsonl.gz") || sum.Plies != 4 || sum.Bytes == 0 {
		t.Fatalf("%v %+v", err, sum)
	}
	b, err := book.Load(os.DirFS(dir), ".")
	if err != nil {
		t.Fatal(err)
	}
	f := b.File(engine.Variant{Pits: 3, Rule: engine.EmptyCapture}, 3)
	if f == nil || len(f.Records) != sum.Positions || f.Positions != sum.Positions || sum.Positions == 0 {
		t.Fatalf("read back %+v, %d positions exported", f, sum.Positions)
	}
	ref := reference.NewSolver(reference.Rules{Pits: 3, EmptyCapture: true}, 0)
	for _, rec := range f.Records {
		side, _ := engine.ParseSide(rec.ToMove)
		p, _ := engine.ParsePosition(rec.Position, side)
		g := reference.Rules{Pits: 3, EmptyCapture: true}.Game(p.Holes(), p.ToMove == engine.North)
		if want := p.Board.StoreDiff() + ref.Value(g); rec.Value != want {
			t.Errorf("%v %v: %d, reference %d", p, p.ToMove, rec.Value, want)
		}
	}
	// The same export again writes the same bytes.
	file := filepath.Join(t.TempDir(), "again.jsonl.gz")
	if _, err := executeExport(t, append(game, "--plies", "4", "--cache", cache, "-o", file)...); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(sum.File)
	c, _ := os.ReadFile(file)
	if !bytes.Equal(a, c) {
		t.Error("two exports differ")
	}
	if _, err := executeExport(t, append(game, "--plies", "5", "--cache", cache, "-o", dir)...); err == nil || !strings.Contains(err.Error(), "kalah book build") {
		t.Errorf("a 5-ply export of a 4-ply book: %v", err)
	}
}
