package cmdutil

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/players"
	"github.com/spf13/cobra"
)

// runGame runs RunGame under a command with the game and players flags
// and returns the head it handed on and which game took it.
func runGame(t *testing.T, args ...string) (h GameHead, k int, err error) {
	t.Helper()
	var g GameFlags
	var f PlayersFlags
	cmd := &cobra.Command{Use: "x", Args: NoArgs, RunE: func(cmd *cobra.Command, _ []string) error {
		return RunGame(cmd, &g, &f, func(r engine.Variant, p engine.Position, hd GameHead) error {
			h, k = hd, 2
			return nil
		}, func(r players.Variant, p players.Position, hd GameHead) error {
			h, k = hd, r.Players
			return nil
		})
	}}
	AddGameFlags(cmd, &g, true)
	AddPlayersFlags(cmd, &f)
	cmd.SetArgs(args)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err = cmd.Execute()
	return h, k, err
}

// The head of a record is the same in both games but for players and
// capture target, which a two-player record leaves out.
func TestRunGame(t *testing.T) {
	cases := []struct {
		args              []string
		players           int
		json, title, name string
	}{
		{[]string{"--pits", "4", "--seeds", "3"}, 2,
			`{"rule":"no-empty-capture","pits":4,"seeds":3,"position":"3,3,3,3,0,3,3,3,3,0","to_move":"south"}`,
			"Kalah(4,3), rule no-empty-capture", "Kalah(4,3)"},
		{[]string{"--rule", "empty-capture", "--position", "1,0,2,0,0,3,1,0", "--to-move", "north"}, 2,
			`{"rule":"empty-capture","pits":3,"position":"1,0,2,0,0,3,1,0","to_move":"north"}`,
			"Kalah(3), rule empty-capture", "Kalah(3)"},
		{[]string{"--players", "3", "--pits", "4", "--seeds", "2", "--capture-target", "all"}, 3,
			`{"players":3,"capture_target":"all","rule":"no-empty-capture","pits":4,"seeds":2,"position":"2,2,2,2,0/2,2,2,2,0/2,2,2,2,0","to_move":"P1"}`,
			"3-player Kalah(4,2), capture from all, rule no-empty-capture", "3-player Kalah(4,2)"},
		{[]string{"--players", "4", "--position", "1,0,1/0,1,0/2,0,0/0,1,3", "--to-move", "3"}, 4,
			`{"players":4,"capture_target":"next","rule":"no-empty-capture","pits":2,"position":"1,0,1/0,1,0/2,0,0/0,1,3","to_move":"P3"}`,
			"4-player Kalah(2), capture from next, rule no-empty-capture", "4-player Kalah(2)"},
	}
	for _, c := range cases {
		h, players, err := runGame(t, c.args...)
		if err != nil {
			t.Errorf("%v: %v", c.args, err)
			continue
		}
		b, _ := json.Marshal(h)
		if players != c.players || string(b) != c.json || h.Title() != c.title || h.Name != c.name {
			t.Errorf("%v: %d players, head %s, title %q, name %q; want %d, %s, %q, %q", c.args, players, b, h.Title(), h.Name, c.players, c.json, c.title, c.name)
		}
	}
	// Each game checks the flags its own way; every mistake is bad input.
	for args, want := range map[string]string{
		"--to-move north":                         "has South to move",
		"--players 3 --to-move 2":                 "has P1 to move",
		"--players 5":                             "--players must be 2..4",
		"--capture-target all":                    "with two players",
		"--players 3 --rule empty-capture":        "no-empty-capture only",
		"--position 1,0,1,0,1,0,1,0 --seeds 3":    "--seeds names a start position",
		"--players 3 --position 1,0/1,0 --pits 1": "contradicts --position",
	} {
		_, players, err := runGame(t, strings.Fields(args)...)
		if players != 0 || ExitCode(err) != 2 || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: ran the %d-player game, err %v; want bad input saying %q", args, players, err, want)
		}
	}
}
