package analyzecmd

import (
	"bufio"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/egdb"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/internal/reference"
	"github.com/spf13/cobra"
)

// randomGames returns n random whole games of Kalah(pits,seeds) under
// no-empty-capture in pit letters, one a line.
func randomGames(pits, seeds, n int, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 1))
	r := engine.Variant{Pits: pits}
	var lines []string
	for range n {
		p, _ := r.StartPosition(seeds)
		var line []engine.Ply
		for !p.Board.Over() {
			moves := p.Board.MoveList()
			pit := moves[rng.IntN(len(moves))]
			line = append(line, engine.Ply{Side: p.ToMove, Pit: pit})
			p, _ = r.PlayPosition(p, pit)
		}
		lines = append(lines, engine.FormatLetters(line))
	}
	return strings.Join(lines, "\n") + "\n"
}

// analyzeDeepening runs analyze on Kalah(3,3) with a fresh data
// directory whose first database build goes to 4 seeds; it returns each
// game's analysis and standard error.
func analyzeDeepening(t *testing.T, games string, wait bool, args ...string) ([]kalah.Analysis, string) {
	t.Helper()
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	newCmd := func(io *cmdutil.IOStreams) *cobra.Command {
		return newCmdAnalyze(&Options{IO: io, autoEGDBSeeds: 4, waitDeepening: wait})
	}
	out, errOut, err := cmdutil.RunTest(newCmd, games, append([]string{"--no-cache", "--threads", "1", "--json", "--pits", "3", "--seeds", "3"}, args...)...)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	var as []kalah.Analysis
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var a kalah.Analysis
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Fatal(err)
		}
		as = append(as, a)
	}
	return as, errOut
}

// TestDeepening: a run of several games deepens the default database in
// the background to --egdb-target, capped by the board, says so on
// standard error, and analyses the games after the build with the deeper
// database, to the brute-force reference's values.
func TestDeepening(t *testing.T) {
	as, errOut := analyzeDeepening(t, randomGames(3, 3, 3, 1), true)
	k, err := kalah.Open(kalah.Config{Pits: 3, Seeds: 3, NoCache: true, NoEGDB: true})
	if err != nil {
		t.Fatal(err)
	}
	deep := k.DeepenDepth(kalah.DefaultDeepenSeeds)
	k.Close()
	if deep <= 4 {
		t.Fatalf("Kalah(3,3) deepens to %d seeds: nothing to test", deep)
	}
	if len(as) != 3 || as[0].EGDBSeeds != 4 || as[1].EGDBSeeds != deep || as[2].EGDBSeeds != deep {
		t.Errorf("%d games; databases of %v seeds, want 4, then %d", len(as), egdbSeeds(as), deep)
	}
	for _, want := range []string{"deepening the endgame database of Kalah(3) no-empty-capture to", "is deepened to"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("standard error lacks %q:\n%s", want, errOut)
		}
	}
	dir, _ := egdb.DefaultDir()
	if m := egdb.Missing(dir, engine.Variant{Pits: 3}, deep); len(m) != 0 {
		t.Errorf("slices %v missing after the deepening", m)
	}
	rr := reference.Rules{Pits: 3}
	ref := reference.NewSolver(rr, 0)
	for n := range as {
		checkValues(t, ref, rr, n+1, &as[n])
	}
}

func egdbSeeds(as []kalah.Analysis) []int {
	var s []int
	for _, a := range as {
		s = append(s, a.EGDBSeeds)
	}
	return s
}

// TestNoDeepening: one game, or --egdb-target 0, deepens nothing; a run
// that does not wait for its deepening either sees it built or stops it.
func TestNoDeepening(t *testing.T) {
	for _, c := range []struct {
		games int
		args  []string
	}{{1, nil}, {2, []string{"--egdb-target", "0"}}} {
		as, errOut := analyzeDeepening(t, randomGames(3, 3, c.games, 2), true, c.args...)
		if len(as) != c.games || strings.Contains(errOut, "deepen") {
			t.Errorf("%d games %v: %d analysed, standard error:\n%s", c.games, c.args, len(as), errOut)
		}
		dir, _ := egdb.DefaultDir()
		if egdb.Covered(dir, engine.Variant{Pits: 3}) != 4 {
			t.Errorf("%d games %v: database of %d seeds, want 4", c.games, c.args, egdb.Covered(dir, engine.Variant{Pits: 3}))
		}
	}
	_, errOut := analyzeDeepening(t, randomGames(3, 3, 2, 3), false)
	if !strings.Contains(errOut, "is deepened to") && !strings.Contains(errOut, "ended before the deepening") {
		t.Errorf("the deepening neither ended nor was stopped:\n%s", errOut)
	}
}

// TestEGDBTargetBad: a negative --egdb-target is bad input.
func TestEGDBTargetBad(t *testing.T) {
	if _, _, err := execute(t, "c\n", "--egdb-target", "-1"); cmdutil.ExitCode(err) != 2 {
		t.Errorf("--egdb-target -1: %v, want exit code 2", err)
	}
}
