package solvecmd

import (
	"errors"
	"strings"
	"testing"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/engine"
)

// An automatic database build shown where standard error is not a
// terminal (here a buffer) is a line at the start, one at every tenth
// reached and one at the end, with no progress bar's redrawing; with
// --quiet nothing, and a failed build no end line (its error is the
// solve's).
func TestEGDBBuildLines(t *testing.T) {
	rules := engine.Variant{Pits: 6, Rule: engine.NoEmptyCapture}
	build := func(quiet bool, fail bool) string {
		io, _, errOut := cmdutil.Test()
		s := newSolveRun(&Options{IO: io, Quiet: quiet}, 0, 48, false)
		ev := kalah.EGDBBuild{Dir: "/d", Variant: rules, MaxSeeds: 20, Positions: 1000, Bytes: 500}
		s.egdbBuild(ev)
		for _, done := range []int64{50, 99, 100, 150, 250, 260, 990, 1000} {
			ev.Done = done
			s.egdbBuild(ev)
		}
		ev.Finished = true
		if fail {
			ev.Err = errors.New("disk full")
		}
		s.egdbBuild(ev)
		return errOut.String()
	}
	got := build(false, false)
	if strings.Contains(got, "\r") {
		t.Errorf("a bar was drawn:\n%q", got)
	}
	var pcts []string
	for l := range strings.Lines(got) {
		if p, ok := strings.CutPrefix(l, "egdb: "); ok {
			pcts = append(pcts, strings.Fields(p)[0])
		}
	}
	if want := "10% 20% 90% done,"; strings.Join(pcts, " ") != want {
		t.Errorf("lines %q, want %q, in\n%s", pcts, want, got)
	}
	if !strings.HasPrefix(got, "kalah: building the endgame database of ") {
		t.Errorf("no start line:\n%s", got)
	}
	if got := build(true, false); got != "" {
		t.Errorf("--quiet: %q", got)
	}
	if got := build(false, true); strings.Contains(got, "done") {
		t.Errorf("a failed build said it was built:\n%s", got)
	}
}
