package showcmd

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
)

func TestShowPlayers(t *testing.T) {
	out, err := execute(t, "--players", "3", "--pits", "4", "--seeds", "3")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"3-player Kalah(4,3), capture from next, rule no-empty-capture",
		"position 3,3,3,3,0/3,3,3,3,0/3,3,3,3,0, P1 to move",
		"> P1     3   3   3   3 |    0",
		"legal moves: 1a 1b 1c 1d",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	out, err = execute(t, "--players", "4", "--position", "0,0,0,0,5/0,0,0,0,9/0,0,0,0,9/0,0,0,0,1", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Players int    `json:"players"`
		Over    bool   `json:"over"`
		Ranks   []int  `json:"ranks"`
		Target  string `json:"capture_target"`
	}
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Players != 4 || !rec.Over || len(rec.Ranks) != 4 || rec.Ranks[0] != 3 || rec.Ranks[1] != 1 || rec.Ranks[2] != 1 || rec.Ranks[3] != 4 || rec.Target != "next" {
		t.Errorf("record %+v", rec)
	}
}

func TestShowPlayersBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"--players", "5"},
		{"--players", "3", "--rule", "empty-capture"},
		{"--capture-target", "all"},
		{"--players", "3", "--capture-target", "left"},
		{"--players", "4", "--position", "1,1,0/1,1,0/1,1,0"},
		{"--players", "3", "--position", "1,1,0/1,1,0/1,1,0", "--to-move", "4"},
		{"--players", "3", "--position", "1,1,0/0,0,0/1,1,0"},
		{"--players", "3", "--to-move", "2"},
		{"--players", "4", "--pits", "6", "--seeds", "11"},
	} {
		out, err := execute(t, args...)
		if cmdutil.ExitCode(err) != 2 || out != "" {
			t.Errorf("show %v: err %v, output %q; want exit code 2 and no output", args, err, out)
		}
	}
}
