package perftcmd

import (
	"encoding/json"
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
	// multi's perft table (multi/sow_test.go).
	if rec.Players != 4 || len(rec.Counts) != 8 || rec.Counts[7] != 24822 {
		t.Errorf("record %+v", rec)
	}
}
