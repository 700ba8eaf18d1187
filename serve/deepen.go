package serve

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/kalah-solver/kalah"
)

// Deepening in the background. The database a server builds by itself
// before its first search (Options.AutoEGDB: for Kalah(6,4), 20 seeds,
// seconds to build) makes the first answers possible; a deeper one (28
// seeds, 2.9 GB a rule, minutes to build) makes every later answer fast.
// So once a game's default database is ready, the server builds the
// deeper slices in a goroutine of its own (kalah.Session.DeepenEGDB, which
// only writes the database directory) while it goes on answering with the
// database it has, and the first search after the build switches to the
// deeper one (refreshEGDB). One game's deepening runs at a time; Close
// stops it, keeping the slices built (the next run resumes).

// deepening is the server's background deepening.
type deepening struct {
	ctx    context.Context // ended by Close
	cancel context.CancelFunc
	wg     sync.WaitGroup // the goroutines started
	run    sync.Mutex     // held by the deepening that builds
	built  atomic.Bool    // a deepening finished: refreshEGDB looks at once (set by egdbBuild)

	mu      sync.Mutex
	started map[dbKey]bool // the databases whose deepening has been started
}

// deepen starts the deepening of the database of session k (of game
// key), once per board and rule, when the server deepens; the caller
// holds the slot, after k's database is ready.
func (s *Server) deepen(k *kalah.Session, key gameKey) {
	seeds := s.opts.DeepenSeeds
	if seeds <= 0 || !s.opts.AutoEGDB || s.opts.NoEGDB || s.opts.EGDBDir != "" {
		return
	}
	dk := dbKey{pits: key.pits, rule: key.rule}
	d := &s.deep
	d.mu.Lock()
	if d.started[dk] || d.ctx.Err() != nil {
		d.mu.Unlock()
		return
	}
	if d.started == nil {
		d.started = map[dbKey]bool{}
	}
	d.started[dk] = true
	d.wg.Add(1)
	d.mu.Unlock()
	go func() {
		defer d.wg.Done()
		d.run.Lock()
		defer d.run.Unlock()
		if d.ctx.Err() != nil {
			return
		}
		// Only k's configuration is read: it may be closed meanwhile.
		if _, err := k.DeepenEGDB(d.ctx, seeds); err != nil && d.ctx.Err() == nil {
			s.logf("deepening the endgame database of Kalah(%d) %v: %v", key.pits, key.rule, err)
		}
	}()
}

// stop ends the deepening under way (the slices built so far are kept)
// and waits for it; none starts after it.
func (d *deepening) stop() {
	d.mu.Lock()
	d.cancel()
	d.mu.Unlock()
	d.wg.Wait()
}
