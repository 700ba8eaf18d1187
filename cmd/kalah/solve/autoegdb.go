package solvecmd

import (
	"fmt"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/results"
)

// egdbBuild shows the session's automatic database build (kalah.Config.
// AutoEGDB): one line saying what is built where, then, when progress is
// shown, a progress bar on a terminal, or elsewhere (a file, a pipe) a
// line at every tenth and one at the end. With --quiet it shows nothing.
func (s *solveRun) egdbBuild(ev kalah.EGDBBuild) {
	if s.opts.Quiet {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.opts.IO.ErrOut
	switch {
	case ev.Finished:
		s.bar.End(ev.Err)
		s.bar = nil
	case ev.Done == 0:
		fmt.Fprintf(w, "kalah: building the endgame database of %v up to %d seeds in %s (%s positions, about %s; once, later solves reuse it; --no-egdb solves without)\n",
			ev.Variant, ev.MaxSeeds, ev.Dir, results.Group(ev.Positions), cmdutil.FormatBytes(ev.Bytes))
		if s.progress {
			s.bar = cmdutil.NewBar(w, ev.Positions, "egdb")
		}
	case s.bar != nil:
		s.bar.Set64(ev.Done)
	}
}
