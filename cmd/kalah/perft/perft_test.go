package perftcmd

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
)

func execute(t *testing.T, args ...string) (string, error) {
	t.Helper()
	io, out, _ := cmdutil.Test()
	cmd := NewCmdPerft(io)
	cmd.SetArgs(args)
	cmd.SetOut(io.Out)
	cmd.SetErr(io.ErrOut)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true // as under the root command
	err := cmd.Execute()
	return out.String(), err
}

func TestPerftText(t *testing.T) {
	out, err := execute(t, "--pits", "6", "--seeds", "4", "--depth", "8")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Kalah(6,4)", "no-empty-capture", "    8               563055\n", "total 706576 nodes", "nodes/s"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestPerftJSON(t *testing.T) {
	out, err := execute(t, "--pits", "4", "--seeds", "3", "--rule", "empty-capture", "--depth", "7", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rec map[string]any
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&rec); err != nil {
		t.Fatalf("%v in %q", err, out)
	}
	if dec.More() {
		t.Errorf("more than one JSON value: %q", out)
	}
	want := []float64{4, 15, 50, 158, 488, 1507, 4621}
	counts, _ := rec["counts"].([]any)
	if len(counts) != len(want) {
		t.Fatalf("counts %v, want %v", rec["counts"], want)
	}
	for d := range want {
		if counts[d] != want[d] {
			t.Errorf("depth %d: %v, want %v", d+1, counts[d], want[d])
		}
	}
	if rec["rule"] != "empty-capture" || rec["pits"] != 4.0 || rec["seeds"] != 3.0 ||
		rec["position"] != "3,3,3,3,0,3,3,3,3,0" || rec["to_move"] != "south" || rec["nodes"] != 6843.0 {
		t.Errorf("record %v", rec)
	}
	for _, k := range []string{"seconds", "nodes_per_second", "version", "vcs_revision", "go", "cpu"} {
		if _, ok := rec[k]; !ok {
			t.Errorf("record lacks %q: %v", k, rec)
		}
	}
}

func TestPerftPosition(t *testing.T) {
	// North to move with one legal move, which ends the game.
	out, err := execute(t, "--position", "1,0,0,0,0,0,0,0,0,0,0,0,1,0", "--to-move", "north", "--depth", "3", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Counts []uint64 `json:"counts"`
		ToMove string   `json:"to_move"`
	}
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatal(err)
	}
	if rec.ToMove != "north" || len(rec.Counts) != 3 || rec.Counts[0] != 1 || rec.Counts[1] != 0 {
		t.Errorf("got %+v", rec)
	}
}

func TestPerftBadDepth(t *testing.T) {
	for _, d := range []string{"0", "-3", "201"} {
		if _, err := execute(t, "--depth", d); cmdutil.ExitCode(err) != 2 {
			t.Errorf("--depth %s: %v, want exit code 2", d, err)
		}
	}
}
