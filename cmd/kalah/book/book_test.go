package bookcmd

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/internal/reference"
)

func execute(t *testing.T, ctx context.Context, args ...string) (string, error) {
	t.Helper()
	io, out, _ := cmdutil.Test()
	cmd := NewCmdBuild(io)
	cmd.SetArgs(append([]string{"--threads", "1", "--tt-mem", "16MiB", "--no-egdb", "-q"}, args...))
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
	k, err := kalah.Open(kalah.Config{Pits: 3, Seeds: 3, Rule: kalah.EmptyCapture, CacheDir: dir, NoEGDB: true, TableBytes: 16 << 20})
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
	if sum.FromCache != sum.Positions || sum.FromStore != sum.Positions || sum.Cache != dir || sum.Store != dir {
		t.Errorf("second build: %d (from_cache) and %d (from_store) of %d positions from the cache %q (store %q)", sum.FromCache, sum.FromStore, sum.Positions, sum.Cache, sum.Store)
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
