package movecmd

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/engine"
)

func execute(t *testing.T, args ...string) (string, error) {
	t.Helper()
	io, out, _ := cmdutil.Test()
	cmd := NewCmdMove(io)
	cmd.SetArgs(args)
	cmd.SetOut(io.Out)
	cmd.SetErr(io.ErrOut)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true // as under the root command
	err := cmd.Execute()
	return out.String(), err
}

func TestMoveExtraTurn(t *testing.T) {
	out, err := execute(t, "c", "6")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Kalah(6,4), rule no-empty-capture",
		"1. south plays c (pit 3); last seed in the store: extra turn, south moves again",
		"position 4,4,0,5,5,5,1,4,4,4,4,4,4,0\n",
		"2. south plays f (pit 6); north to move",
		"north to move; South's store minus North's so far +2",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestMoveLapCapture(t *testing.T) {
	out, err := execute(t, "--position", "0,0,13,0,0,0,0,1,1,1,1,1,1,0", "c")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "1. south plays c (pit 3): captures 3 seeds (2 from pit D and the last seed); north to move") {
		t.Errorf("output:\n%s", out)
	}
}

func TestMoveJSON(t *testing.T) {
	out, err := execute(t, "--position", "1,0,0,0,0,3,0,2,3,4,5,0,0,0", "--rule", "empty-capture", "--json", "a", "A")
	if err != nil {
		t.Fatal(err)
	}
	var rec record
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatalf("%v in %q", err, out)
	}
	if rec.Rule != "empty-capture" || rec.Pits != 6 || rec.Position != "1,0,0,0,0,3,0,2,3,4,5,0,0,0" || rec.ToMove != "south" || len(rec.Plies) != 2 {
		t.Fatalf("record %+v", rec)
	}
	p := rec.Plies[0]
	if p.Move != "a" || p.Captured != 1 || p.CapturedFrom != "E" || p.Position != "0,0,0,0,0,3,1,2,3,4,5,0,0,0" || p.ToMove != "north" || p.ExtraTurn {
		t.Errorf("ply 1 %+v", p)
	}
	if rec.FinalToMove != "south" || rec.FinalPosition != "0,0,0,0,0,3,1,0,4,5,5,0,0,0" || rec.Over || rec.Result != nil {
		t.Errorf("record %+v", rec)
	}
}

func TestMoveGameEnd(t *testing.T) {
	out, err := execute(t, "--position", "0,0,0,0,0,2,10,1,2,3,0,0,0,5", "--json", "f")
	if err != nil {
		t.Fatal(err)
	}
	var rec record
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatal(err)
	}
	if !rec.Over || rec.Result == nil || *rec.Result != -1 || rec.Winner != "north" || rec.FinalToMove != "" ||
		rec.FinalPosition != "0,0,0,0,0,0,11,0,0,0,0,0,0,12" || !rec.Plies[0].Over {
		t.Errorf("record %+v", rec)
	}
	out, err = execute(t, "--position", "0,0,0,0,0,2,10,1,2,3,0,0,0,5", "f")
	if err != nil || !strings.Contains(out, "game over: South 11, North 12; South's store minus North's -1: north wins") {
		t.Errorf("%v, output:\n%s", err, out)
	}
}

func TestMoveBadInput(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"z"},
		{"A"},      // North's pit, South to move
		{"c", "c"}, // c is empty after the extra turn
		{"7"},      // six pits
		{"--rule", "x", "c"},
		{"--position", "0,0,0,0,0,2,10,1,2,3,0,0,0,5", "f", "a"}, // game over
	} {
		out, err := execute(t, args...)
		if cmdutil.ExitCode(err) != 2 || out != "" || strings.Contains(err.Error(), "\n") {
			t.Errorf("move %v: err %v, output %q; want exit code 2, a one-line message and no output", args, err, out)
		}
	}
}

// TestCaptured checks the captured-seed count against the store: a capture
// that does not end the game adds exactly the captured seeds plus the seeds
// sown into the store.
func TestCaptured(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	seen := 0
	for _, c := range engine.AllRules {
		for m := 1; m <= engine.MaxPits; m++ {
			r := engine.Variant{Pits: m, Rule: c}
			for game := 0; game < 200; game++ {
				p, err := r.StartPosition(1 + rng.IntN(engine.MaxSeeds/(2*m)))
				if err != nil {
					t.Fatal(err)
				}
				for !p.Board.Over() {
					moves := p.Board.MoveList()
					i := moves[rng.IntN(len(moves))]
					s := p.Board.Pit(i)
					sown := 0 // seeds sown into the mover's store
					for k := 1; k <= s; k++ {
						if (i+k)%(2*m+1) == m {
							sown++
						}
					}
					next, res := r.PlayPosition(p, i)
					if res.Capture() && !res.Over() {
						seen++
						got, _ := captured(p, i)
						gain := next.Board.OppStore - p.Board.OwnStore // next is seen from the opponent
						if got+sown != int(gain) {
							t.Fatalf("%v %v plays %d: captured %d + sown %d, store gained %d", r, p, i, got, sown, gain)
						}
					}
					p = next
				}
			}
		}
	}
	if seen < 1000 {
		t.Errorf("only %d captures checked", seen)
	}
}
