package playcmd

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/engine"
)

func execute(t *testing.T, input string, args ...string) (string, error) {
	t.Helper()
	io, out, _ := cmdutil.Test()
	io.In = strings.NewReader(input)
	cmd := NewCmdPlay(io)
	cmd.SetArgs(append([]string{"--cache", t.TempDir(), "--no-egdb", "--threads", "1", "--table-size", "16MiB"}, args...))
	cmd.SetOut(io.Out)
	cmd.SetErr(io.ErrOut)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.Execute()
	return out.String(), err
}

func TestPlayMovesJSON(t *testing.T) {
	out, err := execute(t, "", "--pits", "4", "--seeds", "3", "--moves", "b,d,A", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rec record
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatalf("%v in %q", err, out)
	}
	r, _ := engine.NewVariant(4, engine.NoEmptyCapture)
	start, _ := r.StartPosition(3)
	pl, _ := r.ParseLetters(start, "bd-A")
	p, err := r.PlayLine(start, pl)
	if err != nil {
		t.Fatal(err)
	}
	k, err := kalah.Open(kalah.Config{Pits: 4, Seeds: 3, NoEGDB: true, NoCache: true, Threads: 1, TableSize: 16 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	want, err := k.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Position != p.String() || rec.ToMove != "north" || rec.Value != want.Value || rec.Line != "bd-A" || len(rec.Plies) != 3 || !rec.Solved {
		t.Errorf("record %+v; want %s north, value %d", rec, p, want.Value)
	}
	for i, m := range rec.Moves {
		if m.Value != want.Moves[i].Value {
			t.Errorf("move %s: %d, want %d", m.Move, m.Value, want.Moves[i].Value)
		}
	}
	if !rec.Plies[0].ExtraTurn || rec.Plies[0].ToMove != "south" || rec.StartPosition != start.String() {
		t.Errorf("plies %+v", rec.Plies)
	}
	if rec.Cache == "" {
		t.Errorf("cache %q, from_cache %v", rec.Cache, rec.FromCache)
	}
}

// TestPlayStoreFlags: --store and --no-store, the old names of --cache and
// --no-cache, still work.
func TestPlayStoreFlags(t *testing.T) {
	io, _, _ := cmdutil.Test()
	cmd := NewCmdPlay(io)
	if err := cmd.ParseFlags([]string{"--store", "/c", "--no-store"}); err != nil {
		t.Fatal(err)
	}
	if d, n := cmd.Flags().Lookup("cache").Value.String(), cmd.Flags().Lookup("no-cache").Value.String(); d != "/c" || n != "true" {
		t.Errorf("--store /c --no-store: --cache %q, --no-cache %s", d, n)
	}
}

func TestPlayMovesToTheEnd(t *testing.T) {
	// Kalah(1,1): a sows into the store (extra turn), then... the game ends
	// once South's side is empty.
	out, err := execute(t, "", "--pits", "1", "--seeds", "1", "--moves", "a", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rec record
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatal(err)
	}
	if !rec.Over || rec.Winner != "draw" || rec.StoreDiff != 0 || len(rec.Moves) != 0 {
		t.Errorf("record %+v", rec)
	}
}

func TestPlayBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"--pits", "4", "--seeds", "3", "--moves", "b,b"},
		{"--pits", "4", "--seeds", "3", "--moves", "z"},
		{"--level", "godlike"},
		{"--mode", "watch"},
		{"--as", "east"},
		{"--json"},
	} {
		_, err := execute(t, "", args...)
		if cmdutil.ExitCode(err) != 2 {
			t.Errorf("%v: %v (exit %d), want bad input", args, err, cmdutil.ExitCode(err))
		}
	}
}

func TestPlayInteractive(t *testing.T) {
	// South against the perfect computer in Kalah(2,1): ask for the
	// values and a hint, play, take back, play again to the end.
	out, err := execute(t, "values\nhint\nb\nundo\npv\nb\na\nboard\nquit\n", "--pits", "2", "--seeds", "1")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"you play south against the computer (perfect, seed 1)",
		"value ", "perfect game: ",
		"hint: play ",
		"south played b",
		"game over: South ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	out, err = execute(t, "a\nvalues\nundo\nundo\nquit\n", "--mode", "explore", "--pits", "3", "--seeds", "2", "--rule", "empty-capture")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "explore: you play both sides") || strings.Contains(out, "the computer") || strings.Count(out, "position 2,2,2,0,2,2,2,0\n") != 3 {
		t.Errorf("explore output:\n%s", out)
	}
}

// TestPlayCacheInUse: while another process holds the cache ('kalah
// serve'), play goes on without it and says so in one line.
func TestPlayCacheInUse(t *testing.T) {
	dir := t.TempDir()
	held, err := kalah.Open(kalah.Config{Pits: 4, Seeds: 3, NoEGDB: true, CacheDir: dir, Threads: 1, TableSize: 16 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	for _, c := range []struct {
		input string
		args  []string
	}{
		{"", []string{"--moves", "b,d,A", "--json"}},
		{"values\nquit\n", []string{"--mode", "explore"}},
	} {
		io, out, errOut := cmdutil.Test()
		io.In = strings.NewReader(c.input)
		cmd := NewCmdPlay(io)
		cmd.SetArgs(append([]string{"--cache", dir, "--no-egdb", "--threads", "1", "--table-size", "16MiB", "--pits", "4", "--seeds", "3"}, c.args...))
		cmd.SetOut(io.Out)
		cmd.SetErr(io.ErrOut)
		cmd.SilenceUsage, cmd.SilenceErrors = true, true
		if err := cmd.Execute(); err != nil {
			t.Fatalf("%v: %v (stderr %q)", c.args, err, errOut.String())
		}
		lines := strings.Split(strings.TrimSpace(errOut.String()), "\n")
		if len(lines) != 1 || !strings.Contains(lines[0], dir) || !strings.Contains(lines[0], "in use by another kalah process") || !strings.Contains(lines[0], "playing without it") {
			t.Errorf("%v: stderr %q, want one line saying the cache is in use", c.args, errOut.String())
		}
		if c.input == "" {
			var rec record
			if err := json.Unmarshal(out.Bytes(), &rec); err != nil {
				t.Fatalf("%v in %q", err, out.String())
			}
			if !rec.Solved || rec.Cache != "" || rec.FromCache || len(rec.Moves) == 0 {
				t.Errorf("record %+v: want a solved record, from no cache", rec)
			}
		} else if !strings.Contains(out.String(), "value +6 for south") {
			t.Errorf("output %q", out.String())
		}
	}
}
