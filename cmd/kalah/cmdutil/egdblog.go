package cmdutil

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/results"
)

// EGDBLogWords are what a command's database log says of it.
type EGDBLogWords struct {
	Prefix   string // each line's start, e.g. "kalah serve"
	NoEGDB   string // how to go without a database, e.g. "--no-egdb serves without"
	Waiting  string // what waits for a first build ("the page"); "" says nothing
	NoDeepen string // how to turn the deepening off, e.g. "--egdb-target 0 turns this off"
	Deepened string // from when a deepened database is used, e.g. "the next search"
}

// EGDBLogger returns a reporter of a session's database builds
// (kalah.Config.OnEGDBBuild) that writes lines to w: one when a build
// starts, one at every tenth of it, and one when it ends. The first build
// (the default database, which searches wait for) and the background
// deepening (kalah.Session.DeepenEGDB) are told apart, each with its own
// count. It is safe for concurrent use.
func EGDBLogger(w io.Writer, words EGDBLogWords) func(kalah.EGDBBuild) {
	var mu sync.Mutex
	type count struct {
		t0     time.Time
		tenths func(done, total int64) (int, bool)
	}
	var first, deep count
	return func(ev kalah.EGDBBuild) {
		mu.Lock()
		defer mu.Unlock()
		c, verb := &first, "building"
		if ev.Background {
			c, verb = &deep, "deepening"
		}
		switch {
		case ev.Finished && ev.Err != nil:
			fmt.Fprintf(w, "%s: %s the endgame database in %s failed: %v", words.Prefix, verb, ev.Dir, ev.Err)
			if ev.Background {
				fmt.Fprintf(w, " (searches go on with the one there)")
			}
			fmt.Fprintln(w)
		case ev.Finished && ev.Background:
			fmt.Fprintf(w, "%s: the endgame database of %v is deepened to %d seeds (%v); %s on uses it\n",
				words.Prefix, ev.Variant, ev.MaxSeeds, time.Since(c.t0).Round(100*time.Millisecond), words.Deepened)
		case ev.Finished:
			fmt.Fprintf(w, "%s: the endgame database of %v up to %d seeds is built (%v)\n",
				words.Prefix, ev.Variant, ev.MaxSeeds, time.Since(c.t0).Round(100*time.Millisecond))
		case ev.Done == 0 && ev.Background:
			*c = count{time.Now(), Tenths()}
			fmt.Fprintf(w, "%s: deepening the endgame database of %v to %d seeds in the background in %s (%s positions, about %s more on disk; %s); searches go on meanwhile\n",
				words.Prefix, ev.Variant, ev.MaxSeeds, ev.Dir, results.Group(ev.Positions), FormatBytes(ev.Bytes), words.NoDeepen)
		case ev.Done == 0:
			*c = count{time.Now(), Tenths()}
			fmt.Fprintf(w, "%s: building the endgame database of %v up to %d seeds in %s (%s positions, about %s; once, later runs reuse it; %s)",
				words.Prefix, ev.Variant, ev.MaxSeeds, ev.Dir, results.Group(ev.Positions), FormatBytes(ev.Bytes), words.NoEGDB)
			if words.Waiting != "" {
				fmt.Fprintf(w, "; %s waits for it", words.Waiting)
			}
			fmt.Fprintln(w)
		case c.tenths != nil:
			if pct, ok := c.tenths(ev.Done, ev.Positions); ok {
				fmt.Fprintf(w, "%s: %s the endgame database %d%% (%s of %s positions, %v)\n", words.Prefix, verb, pct,
					results.Group(ev.Done), results.Group(ev.Positions), time.Since(c.t0).Round(100*time.Millisecond))
			}
		}
	}
}
