package graphcmd

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/results"
)

func execute(t *testing.T, args ...string) (string, error) {
	t.Helper()
	io, out, _ := cmdutil.Test()
	cmd := NewCmdGraph(io)
	cmd.SetArgs(append([]string{"-q"}, args...))
	cmd.SetOut(io.Out)
	cmd.SetErr(io.ErrOut)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.Execute()
	return out.String(), err
}

func TestGraphText(t *testing.T) {
	out, err := execute(t, "--pits", "3", "--seeds", "3", "--rule", "empty-capture")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"game graph of Kalah(3,3) empty-capture", "positions      23118 (23090 unfinished, 28 finished games)", "start value    +2"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestGraphJSONSave(t *testing.T) {
	dir := t.TempDir()
	out, err := execute(t, "--pits", "2", "--seeds", "2", "--rule", "no-empty-capture", "--json", "--save", "--data", dir)
	if err != nil {
		t.Fatal(err)
	}
	var g results.GraphRecord
	if err := json.Unmarshal([]byte(out), &g); err != nil {
		t.Fatal(err)
	}
	if g.Rule != "no-empty-capture" || g.Pits != 2 || g.Seeds != 2 || g.Positions == 0 || g.StartValue != -2 || g.CPU == "" {
		t.Errorf("%+v", g)
	}
	saved, err := results.Archive{Dir: dir}.LoadGraphs()
	if err != nil || len(saved) != 1 || saved[0].Positions != g.Positions {
		t.Errorf("saved %+v, %v", saved, err)
	}
}

func TestGraphTooBig(t *testing.T) {
	_, err := execute(t, "--pits", "4", "--seeds", "3", "--max-positions", "5000")
	if err == nil || cmdutil.ExitCode(err) != 1 || !strings.Contains(err.Error(), "more than 5000 positions") {
		t.Errorf("err %v", err)
	}
}

func TestGraphBadInput(t *testing.T) {
	for _, c := range [][]string{{"--pits", "7", "--seeds", "1"}, {"--max-positions", "0"}, {"--rule", "x"}, {"extra"}} {
		if _, err := execute(t, c...); cmdutil.ExitCode(err) != 2 {
			t.Errorf("%v: %v, want exit code 2", c, err)
		}
	}
}
