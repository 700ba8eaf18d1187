package analyzecmd

import (
	"context"
	"fmt"

	"github.com/kalah-solver/kalah"
)

// Deepening in the background, as 'kalah serve' does. The default
// endgame database the first run builds (Kalah(6,4): 20 seeds) makes an
// analysis possible; a deeper one (28 seeds) makes it fast. A run of more
// than one game of a board therefore, once that board's database is
// ready, builds the deeper slices in a goroutine (kalah.Session.
// DeepenEGDB, which reads only the session's configuration and writes only
// the database directory) while the games are analysed with the database
// there, and switches to the deeper one before the first game after the
// build (kalah.Session.RefreshEGDB, between two games, never during a
// search). A single game never starts one: it would wait for nothing of
// it. One deepening runs a run; when the analysis ends first it stops,
// keeping the slices built, and the next run resumes it.

// deepening is a run's background deepening of one board's database.
type deepening struct {
	key    sessionKey
	seeds  int // the depth it builds to
	cancel context.CancelFunc
	done   chan struct{} // closed when the build has returned
	built  bool          // DeepenEGDB's answers, set before done is closed
	err    error
	looked bool // refresh has looked at the built database
}

// deepens reports whether a run deepens the database of a board it
// analyses games games of.
func (opts *Options) deepens(games int) bool {
	return games > 1 && opts.EGDBTarget > 0 && !opts.NoEGDB && opts.EGDB == ""
}

// startDeepening starts deepening the database of k, the session of
// board key, whose database is ready, to seeds.
func startDeepening(ctx context.Context, k *kalah.Session, key sessionKey, seeds int) *deepening {
	ctx, cancel := context.WithCancel(ctx)
	d := &deepening{key: key, seeds: k.DeepenDepth(seeds), cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(d.done)
		d.built, d.err = k.DeepenEGDB(ctx, seeds)
	}()
	return d
}

// refresh switches k, the session of d's board, to the deeper database
// once the deepening has built it; k must not be searching.
func (d *deepening) refresh(k *kalah.Session, opts *Options) {
	if d.looked {
		return
	}
	if opts.waitDeepening {
		<-d.done
	}
	select {
	case <-d.done:
	default:
		return
	}
	d.looked = true
	if !d.built || d.err != nil {
		return // nothing built, or the failure is logged
	}
	if _, err := k.RefreshEGDB(); err != nil && !opts.Quiet {
		fmt.Fprintf(opts.IO.ErrOut, "kalah analyze: %v (the analysis goes on with the database it has)\n", err)
	}
}

// stop ends the deepening, if any, keeping the slices built, and waits
// for it; when the analysis ended first it says so.
func (d *deepening) stop(ctx context.Context, opts *Options) {
	if d == nil {
		return
	}
	select {
	case <-d.done:
		return
	default:
	}
	d.cancel()
	<-d.done
	if ctx.Err() == nil && !opts.Quiet {
		fmt.Fprintf(opts.IO.ErrOut, "kalah analyze: the analysis ended before the deepening of the endgame database, which stops: "+
			"the slices built are kept, and the next run goes on (or 'kalah egdb build --pits %d --rule %v --max-seeds %d' builds them all)\n",
			d.key.pits, d.key.rule, d.seeds)
	}
}
