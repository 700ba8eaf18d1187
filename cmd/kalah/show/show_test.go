package showcmd

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
)

func execute(t *testing.T, args ...string) (string, error) {
	t.Helper()
	io, out, _ := cmdutil.Test()
	cmd := NewCmdShow(io)
	cmd.SetArgs(args)
	cmd.SetOut(io.Out)
	cmd.SetErr(io.ErrOut)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true // as under the root command
	err := cmd.Execute()
	return out.String(), err
}

func TestShowStart(t *testing.T) {
	out, err := execute(t)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Kalah(6,4), rule no-empty-capture",
		"position 4,4,4,4,4,4,0,4,4,4,4,4,4,0, south to move",
		"F   E   D   C   B   A",
		"a   b   c   d   e   f",
		"legal moves: a b c d e f",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// North on top: North's letters come before South's.
	if strings.Index(out, "A\n") > strings.Index(out, "a   b") {
		t.Errorf("North is not on top:\n%s", out)
	}
}

func TestShowPositionJSON(t *testing.T) {
	out, err := execute(t, "--position", "0,0,13,0,0,0,0,1,1,1,1,1,1,0", "--to-move", "n", "--rule", "empty-capture", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Rule     string   `json:"rule"`
		Pits     int      `json:"pits"`
		Seeds    *int     `json:"seeds"`
		Position string   `json:"position"`
		ToMove   string   `json:"to_move"`
		Moves    []string `json:"moves"`
		InPlay   int      `json:"seeds_in_play"`
		Diagram  string   `json:"diagram"`
	}
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatalf("%v in %q", err, out)
	}
	if rec.Rule != "empty-capture" || rec.Pits != 6 || rec.Seeds != nil || rec.Position != "0,0,13,0,0,0,0,1,1,1,1,1,1,0" ||
		rec.ToMove != "north" || strings.Join(rec.Moves, "") != "ABCDEF" || rec.InPlay != 19 || !strings.Contains(rec.Diagram, "north to move") {
		t.Errorf("record %+v", rec)
	}
	if strings.Count(out, "\n") != 1 {
		t.Errorf("want one JSON line, got %q", out)
	}
}

func TestShowGameOver(t *testing.T) {
	out, err := execute(t, "--position", "0,0,0,0,0,0,11,0,0,0,0,0,0,12")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "game over: South 11, North 12 (South -1): north wins") {
		t.Errorf("output:\n%s", out)
	}
}

func TestShowBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"--position", "4,4,4"},
		{"--position", "0,0,0,0,0,0,0,4,4,4,4,4,4,0"},
		{"--position", "4,4,4,4,4,4,0,4,4,4,4,4,4,0", "--to-move", "east"},
		{"--pits", "9"},
		{"--pits", "6", "--seeds", "30"},
		{"--rule", "mancala"},
		{"--to-move", "north"},
		{"extra"},
	} {
		out, err := execute(t, args...)
		if cmdutil.ExitCode(err) != 2 || out != "" {
			t.Errorf("show %v: err %v, output %q; want exit code 2 and no output", args, err, out)
		}
	}
}
