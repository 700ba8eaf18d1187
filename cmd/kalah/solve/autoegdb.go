package solvecmd

import (
	"fmt"
	"time"

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
		if s.bar != nil {
			if ev.Err == nil {
				_ = s.bar.Finish()
			} else {
				fmt.Fprintln(w)
			}
			s.bar = nil
		} else if s.tenths != nil && ev.Err == nil {
			fmt.Fprintf(w, "kalah: endgame database built (%v)\n", time.Since(s.buildT0).Round(100*time.Millisecond))
		}
		s.tenths = nil
	case ev.Done == 0:
		fmt.Fprintf(w, "kalah: building the endgame database of %v up to %d seeds in %s (%s positions, about %s; once, later solves reuse it; --no-egdb solves without)\n",
			ev.Rules, ev.MaxSeeds, ev.Dir, results.Group(ev.Positions), cmdutil.FormatBytes(ev.Bytes))
		switch {
		case !s.progress:
		case cmdutil.IsTerminal(w):
			s.bar = cmdutil.NewBar(w, ev.Positions, "egdb")
		default:
			s.tenths, s.buildT0 = cmdutil.Tenths(), time.Now()
		}
	case s.bar != nil:
		_ = s.bar.Set64(ev.Done)
	case s.tenths != nil:
		if pct, ok := s.tenths(ev.Done, ev.Positions); ok {
			fmt.Fprintf(w, "kalah: endgame database %d%% (%s of %s positions, %v)\n", pct, results.Group(ev.Done), results.Group(ev.Positions), time.Since(s.buildT0).Round(100*time.Millisecond))
		}
	}
}
