package movecmd

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/spf13/cobra"
)

func executePlayers(t *testing.T, args ...string) (string, error) {
	t.Helper()
	io, out, _ := cmdutil.Test()
	var cmd *cobra.Command = NewCmdMove(io)
	cmd.SetArgs(args)
	cmd.SetOut(io.Out)
	cmd.SetErr(io.ErrOut)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.Execute()
	return out.String(), err
}

func TestMovePlayers(t *testing.T) {
	// P1's a reaches the empty b; its mirror, P2's and P3's c, go with it.
	out, err := executePlayers(t, "--players", "3", "--capture-target", "all", "--position", "1,0,1,1,0/1,1,5,1,0/2,2,2,2,9", "--json", "1a")
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Plies []struct {
			Move     string   `json:"move"`
			Captured int      `json:"captured"`
			From     []string `json:"captured_from"`
			ToMove   string   `json:"to_move"`
			Position string   `json:"position"`
		} `json:"plies"`
		Stores []int `json:"stores"`
	}
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatal(err)
	}
	pl := rec.Plies[0]
	if pl.Move != "1a" || pl.Captured != 8 || strings.Join(pl.From, ",") != "P2,P3" || pl.ToMove != "P2" || pl.Position != "0,0,1,1,8/1,1,0,1,0/2,2,0,2,9" {
		t.Errorf("ply %+v", pl)
	}
	out, err = executePlayers(t, "--players", "3", "--pits", "4", "--seeds", "3", "b", "1d", "2a")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "3. P2 plays 2a (pit 1); last seed in the store: extra turn, P2 moves again") ||
		!strings.Contains(out, "P2 to move; stores so far P1 2, P2 1, P3 0") {
		t.Errorf("output:\n%s", out)
	}
	if _, err := executePlayers(t, "--players", "3", "--pits", "4", "--seeds", "3", "2a"); cmdutil.ExitCode(err) != 2 {
		t.Errorf("P2's move at P1's turn: err %v, want exit code 2", err)
	}
}
