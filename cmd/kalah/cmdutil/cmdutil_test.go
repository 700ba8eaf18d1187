package cmdutil

import (
	"errors"
	"fmt"
	"testing"

	"github.com/spf13/cobra"
)

func TestExitCode(t *testing.T) {
	cases := []struct {
		err  error
		want int
	}{
		{nil, 0},
		{errors.New("disk full"), 1},
		{BadInputf("bad %s", "move"), 2},
		{fmt.Errorf("wrapped: %w", BadInputf("bad")), 2},
		{ErrInterrupted, 130},
		{fmt.Errorf("solve: %w", ErrInterrupted), 130},
		{FlagError(&cobra.Command{Use: "x"}, errors.New("unknown flag: --y")), 2},
	}
	for _, c := range cases {
		if got := ExitCode(c.err); got != c.want {
			t.Errorf("ExitCode(%v) = %d, want %d", c.err, got, c.want)
		}
	}
}

func TestCheckConflicts(t *testing.T) {
	start := GameFlags{Pits: 6, Seeds: 4, Rule: "no-empty-capture", ToMove: "south"}
	pos := start
	pos.Position = "1,1,1,1,0,1,1,1"
	cases := []struct {
		f       GameFlags
		changed []string
		bad     bool
	}{
		{start, nil, false},
		{start, []string{"pits", "seeds"}, false},
		{start, []string{"to-move"}, true},
		{pos, []string{"to-move"}, false},
		{pos, []string{"seeds"}, true},
		{pos, []string{"pits"}, true}, // --pits 6, position has 3
	}
	for _, c := range cases {
		changed := func(name string) bool {
			for _, n := range c.changed {
				if n == name {
					return true
				}
			}
			return false
		}
		err := c.f.CheckConflicts(changed)
		if (err != nil) != c.bad || (err != nil && ExitCode(err) != 2) {
			t.Errorf("%+v with %v: err %v, want bad=%v", c.f, c.changed, err, c.bad)
		}
	}
}

func TestOutcome(t *testing.T) {
	for diff, want := range map[int]string{3: "south wins", 1: "south wins", 0: "draw", -1: "north wins", -48: "north wins"} {
		if got := Outcome(diff); got != want {
			t.Errorf("Outcome(%d) = %q, want %q", diff, got, want)
		}
	}
}
