package analyzecmd

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/internal/reference"
)

func execute(t *testing.T, stdin string, args ...string) (string, string, error) {
	t.Helper()
	return cmdutil.RunTest(NewCmdAnalyze, stdin, append([]string{"--no-egdb", "--no-cache", "--threads", "1"}, args...)...)
}

// refSouth is the brute-force value of p for South, stores counted.
func refSouth(ref *reference.Solver, rr reference.Rules, p engine.Position) int {
	h := p.Holes()
	m := p.Pits
	v := h[m] - h[2*m+1]
	if p.ToMove == engine.North {
		v = -v
	}
	v += ref.Value(rr.Game(h, p.ToMove == engine.North))
	if p.ToMove == engine.North {
		v = -v
	}
	return v
}

// checkValues checks every value of game n's analysis against the
// brute-force reference.
func checkValues(t *testing.T, ref *reference.Solver, rr reference.Rules, n int, a *kalah.Analysis) {
	t.Helper()
	ps, err := a.Game.Positions()
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range a.Moves {
		if m.Before != refSouth(ref, rr, ps[i]) || m.After != refSouth(ref, rr, ps[i+1]) {
			t.Errorf("game %d ply %d: %+v", n, m.Ply, m)
		}
	}
}

// TestJSON: games in every form, with a header, give one JSON object each
// whose values are the brute-force reference's, whose losses add up, and
// which name where each game was read.
func TestJSON(t *testing.T) {
	in := strings.Join([]string{
		"# Kalah(4,3) empty-capture",
		"bd-B-adc-C-d-A-bdca-D-a-C",
		"",
		"a-A-b",
		`{"moves":["d","A"]}`,
		"# format=openspiel",
		"[1, 9]",
	}, "\n")
	out, _, err := execute(t, in, "--json", "--all-best")
	if err != nil {
		t.Fatal(err)
	}
	rr := reference.Rules{Pits: 4, EmptyCapture: true}
	ref := reference.NewSolver(rr, 0)
	sc := bufio.NewScanner(strings.NewReader(out))
	lines := []int{2, 4, 5, 7}
	n := 0
	for sc.Scan() {
		var rec struct {
			kalah.Analysis
			File     string `json:"file"`
			FileLine int    `json:"file_line"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		if n >= len(lines) || rec.FileLine != lines[n] || rec.File != "standard input" || rec.Pits != 4 || rec.Rule != "empty-capture" {
			t.Fatalf("game %d: %s line %d, Kalah(%d) %s", n+1, rec.File, rec.FileLine, rec.Pits, rec.Rule)
		}
		if rec.Line != engine.FormatLetters(rec.Game.Moves) {
			t.Errorf("game %d: line %q, moves %v", n+1, rec.Line, rec.Game.Moves)
		}
		checkValues(t, ref, rr, n+1, &rec.Analysis)
		if rec.Value-rec.End != rec.South.Loss-rec.North.Loss {
			t.Errorf("game %d: %d - %d != %d - %d", n+1, rec.Value, rec.End, rec.South.Loss, rec.North.Loss)
		}
		n++
	}
	if n != len(lines) {
		t.Fatalf("%d games, want %d:\n%s", n, len(lines), out)
	}
}

// TestText: the table names every move, its class and the best move of a
// losing one, and each side's sums.
func TestText(t *testing.T) {
	// Kalah(3,3) under no-empty-capture: the reference says which of
	// South's first moves lose; the text must say so.
	rr := reference.Rules{Pits: 3}
	ref := reference.NewSolver(rr, 0)
	r := engine.Variant{Pits: 3}
	start, _ := r.StartPosition(3)
	best := refSouth(ref, rr, start)
	var losing string
	var loss int
	for _, i := range start.Board.MoveList() {
		next, _ := r.PlayPosition(start, i)
		if v := refSouth(ref, rr, next); v < best {
			losing, loss = engine.MoveLetter(engine.South, i), best-v
			break
		}
	}
	if losing == "" {
		t.Skip("no losing first move in Kalah(3,3)")
	}
	out, _, err := execute(t, losing+"\n", "--pits", "3", "--seeds", "3", "--inaccuracy", "1", "--mistake", "100", "--blunder", "100")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Kalah(3,3), rule no-empty-capture, 1 move: " + losing, "inaccuracy", "south: 1 move, 0 best (accuracy 0.0%)", "north: no moves"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if !strings.Contains(out, " "+itoa(loss)+"  inaccuracy") {
		t.Errorf("loss %d not shown:\n%s", loss, out)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestBadInput: malformed games, flags and files are exit code 2, named by
// file, line and move, and nothing is analysed.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.txt")
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(good, []byte("cf-B\n"), 0o644)
	os.WriteFile(bad, []byte("# a game\ncf-B\ncf-Bx\n"), 0o644)
	for _, c := range []struct {
		stdin string
		args  []string
		want  string
	}{
		{"", []string{good, bad}, "bad.txt: line 3: move 4 (x)"},
		{"c-x\n", nil, "standard input: line 1: move 1 (c)"},
		{"[1, 7]\n", []string{"--format", "openspiel"}, "move 2 (7): action 7 is a store"},
		{`{"moves":["c","q"]}`, nil, "move 2 (q)"},
		{"", nil, "no games"},
		{"c\n", []string{"--format", "pgn"}, "unknown game format"},
		{"c\n", []string{"--mistake", "1"}, "thresholds"},
		{"c\n", []string{"--plot", filepath.Join(dir, "x.gif")}, ".svg or .png"},
		{"# Kalah(x,3)\n", nil, "Kalah(m,n)"},
	} {
		out, _, err := execute(t, c.stdin, c.args...)
		if cmdutil.ExitCode(err) != 2 && !strings.Contains(c.want, ".svg") || err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q %v: exit %d, %v; want %q", c.stdin, c.args, cmdutil.ExitCode(err), err, c.want)
		}
		if strings.Contains(out, "ply") && !strings.Contains(c.want, ".svg") {
			t.Errorf("%q %v: something was analysed:\n%s", c.stdin, c.args, out)
		}
	}
}

// TestPlot: --plot writes an SVG and a PNG.
func TestPlot(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"v.svg", "v.png"} {
		f := filepath.Join(dir, name)
		if _, _, err := execute(t, "# Kalah(3,3)\nc-A\nb-B\n", "--plot", f); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(f)
		if err != nil || len(b) < 100 {
			t.Fatalf("%s: %d bytes, %v", name, len(b), err)
		}
		if name == "v.svg" && !strings.Contains(string(b), "<svg") || name == "v.png" && !strings.HasPrefix(string(b), "\x89PNG") {
			t.Errorf("%s is no %s", name, filepath.Ext(name))
		}
	}
}
