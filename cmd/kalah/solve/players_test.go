package solvecmd

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/results"
)

func executePlayers(t *testing.T, args ...string) (string, error) {
	t.Helper()
	io, out, _ := cmdutil.Test()
	cmd := NewCmdSolve(io)
	cmd.SetArgs(args)
	cmd.SetOut(io.Out)
	cmd.SetErr(io.ErrOut)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.Execute()
	return out.String(), err
}

func TestSolvePlayers(t *testing.T) {
	out, err := executePlayers(t, "--players", "3", "--pits", "4", "--seeds", "1", "--table-size", "1MiB")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"3-player Kalah(4,1), capture from next, rule no-empty-capture, concept paranoid",
		"value: P1's final store 4, guaranteed",
		"  1d      4   P1 4, P2 2, P3 6",
		"guarantees (each seat against all the others): P1 4, P2 3, P3 3",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	dir := t.TempDir()
	out, err = executePlayers(t, "--players", "4", "--pits", "3", "--seeds", "1", "--concept", "maxn", "--capture-target", "all", "--json", "--save", dir)
	if err != nil {
		t.Fatal(err)
	}
	var rec map[string]any
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatal(err)
	}
	if rec["concept"] != "maxn" || rec["value"] != 5.0 || rec["pv"] != "1c 1b 2c 2b" {
		t.Errorf("record %v", rec)
	}
	recs, err := results.Archive{Dir: dir}.LoadPlayers()
	if err != nil || len(recs) != 1 || recs[0].Concept != "maxn" || recs[0].Stores[0] != 5 || filepath.Base(results.Archive{Dir: dir}.PlayersPath()) != "players.jsonl" {
		t.Errorf("saved %+v, %v", recs, err)
	}
}

func TestSolvePlayersBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"--players", "3", "--concept", "nash"},
		{"--players", "3", "--position", "-"},
		{"--players", "3", "--position", "1,0/1,0/1,0", "--save", "x"},
		{"--concept", "maxn", "--players", "5"},
		{"--capture-target", "all"},
	} {
		if _, err := executePlayers(t, args...); cmdutil.ExitCode(err) != 2 {
			t.Errorf("solve %v: err %v, want exit code 2", args, err)
		}
	}
}

// TestSolvePlayersMaxnTable: --table-size bounds the max^n table, which is
// reported as table_size; a table too small stops the solve with exit code 1.
func TestSolvePlayersMaxnTable(t *testing.T) {
	out, err := executePlayers(t, "--players", "3", "--pits", "3", "--seeds", "2", "--concept", "maxn", "--table-size", "2MiB", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rec map[string]any
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatal(err)
	}
	if tb, _ := rec["table_size"].(float64); rec["value"] != 9.0 || rec["positions"] != 86130.0 || tb <= 0 || tb > 2<<20 {
		t.Errorf("record %v", rec)
	}
	_, err = executePlayers(t, "--players", "3", "--pits", "3", "--seeds", "3", "--concept", "maxn", "--table-size", "1MiB")
	if cmdutil.ExitCode(err) != 1 || !strings.Contains(err.Error(), "max^n table full") {
		t.Errorf("3-player Kalah(3,3) in 1 MiB: %v, want exit code 1, table full", err)
	}
}
