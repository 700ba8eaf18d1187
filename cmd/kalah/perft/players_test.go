package perftcmd

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestPerftPlayers(t *testing.T) {
	out, err := execute(t, "--players", "4", "--pits", "4", "--seeds", "3", "--capture-target", "opposite", "--depth", "8", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Players int      `json:"players"`
		Counts  []uint64 `json:"counts"`
		Nodes   uint64   `json:"nodes"`
	}
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatal(err)
	}
	// the players package's perft table (players/sow_test.go).
	if rec.Players != 4 || len(rec.Counts) != 8 || rec.Counts[7] != 24822 {
		t.Errorf("record %+v", rec)
	}
}

// One printer serves both games: the same lines, the k-player title
// naming the capture target, and a two-player record without players.
func TestPerftBothGames(t *testing.T) {
	two, err := execute(t, "--pits", "4", "--seeds", "3", "--depth", "3")
	if err != nil {
		t.Fatal(err)
	}
	k, err := execute(t, "--players", "3", "--pits", "4", "--seeds", "3", "--depth", "3")
	if err != nil {
		t.Fatal(err)
	}
	for out, want := range map[string][]string{
		two: {"perft Kalah(4,3), rule no-empty-capture\nposition 3,3,3,3,0,3,3,3,3,0, south to move\ndepth                nodes\n", "\n    3                   50\ntotal 69 nodes in "},
		k:   {"perft 3-player Kalah(4,3), capture from next, rule no-empty-capture\nposition 3,3,3,3,0/3,3,3,3,0/3,3,3,3,0, P1 to move\ndepth                nodes\n", "\ntotal "},
	} {
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("output lacks %q:\n%s", w, out)
			}
		}
	}
	out, err := execute(t, "--pits", "4", "--seeds", "3", "--depth", "3", "--json")
	if err != nil || strings.Contains(out, `"players"`) || strings.Contains(out, `"capture_target"`) || !strings.HasPrefix(out, `{"rule":"no-empty-capture","pits":4,"seeds":3,`) {
		t.Errorf("two-player record (%v): %s", err, out)
	}
}
