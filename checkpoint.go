package kalah

import (
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/persist"
	"github.com/kalah-solver/kalah/tt"
)

// Checkpoints. While a solve runs with a cache, a goroutine beside the
// search saves the solver's whole table into the cache every
// Config.CheckpointEvery, as the checkpoint of the position being solved
// (persist/resume.go), and once more when the solve is interrupted after
// running that long. A solve
// of the same position started later, with a table of the same size, after
// a Ctrl-C or after the process was killed outright, first loads it: it
// starts with the table the interrupted run had at its last checkpoint,
// the exact values of the root moves it had finished included, instead of
// a cold one. When a solve finishes, its checkpoint is deleted (the root
// record answers the position from then on).
//
// The search never waits for a checkpoint: the checkpointer reads the
// table with atomic loads (tt.Table.WriteImage) while the threads write
// it, and writes the file itself.

// DefaultCheckpointEvery is the shortest time between two checkpoints of
// a running solve, and the first one's time. A checkpoint writes the
// whole table (1 GiB: about a second of a core, and a gigabyte of page
// cache that the kernel then reclaims), so a solve of under a minute, such
// as Kalah(6,4)'s with the database, writes none: killed, it loses at most
// a minute. The interval grows with the solve: it is an eighth of
// the time the solve has run, so that a solve killed at any moment loses
// the work of about an eighth of that time, and at least ten times what
// the last checkpoint took (a 1 GiB table: about a second), so that
// checkpoints take at most a tenth of the time; never more than
// maxCheckpointEvery.
const DefaultCheckpointEvery = time.Minute

const maxCheckpointEvery = 10 * time.Minute

// checkpointer runs the checkpoints of one solve.
type checkpointer struct {
	k     *Session
	root  engine.Position
	tab   *tt.Table
	nodes func() int64       // searched by this run so far
	prior persist.ResumeInfo // of the checkpoint resumed, if any
	start time.Time
	every time.Duration // the shortest interval; negative: no checkpoints

	stopOnce sync.Once
	stop     chan struct{}
	done     chan struct{}
	abandon  atomic.Bool // the solve finished: no more checkpoints
	count    int64       // checkpoints written by this run
}

// resume loads the checkpoint of p, if the cache holds one that fits,
// into the table, and starts the checkpoints of p's solve, which has
// searched nodes() so far; nil when the session has no cache.
func (k *Session) resume(p engine.Position, tab *tt.Table, nodes func() int64) *checkpointer {
	k.resumed = false
	if k.cache == nil {
		return nil
	}
	c := &checkpointer{k: k, root: p, tab: tab, nodes: nodes, start: time.Now(), stop: make(chan struct{}), done: make(chan struct{})}
	t0 := time.Now()
	info, err := k.cache.LoadCheckpoint(p, tab)
	switch {
	case errors.Is(err, persist.ErrNoCheckpoint):
	case err != nil:
		k.logf("not resuming %v: %v", p, err)
	default:
		c.prior = info
		k.resumed = true
		k.logf("resuming %v from checkpoint %d (%s; %d nodes and %.1f s of search so far): %d MiB table loaded in %.2f s",
			p, info.Checkpoints, info.Time.Format(time.RFC3339), info.Nodes, info.Seconds, info.TableSize>>20, time.Since(t0).Seconds())
	}
	c.every = k.cfg.CheckpointEvery
	if c.every == 0 {
		c.every = DefaultCheckpointEvery
	}
	if c.every < 0 {
		close(c.done)
		return c
	}
	go c.loop(c.every)
	return c
}

func (c *checkpointer) loop(every time.Duration) {
	defer close(c.done)
	t := time.NewTimer(every)
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
			took := c.save()
			t.Reset(min(max(every, time.Since(c.start)/8, 10*took), maxCheckpointEvery))
		}
	}
}

// save writes one checkpoint and returns how long it took.
func (c *checkpointer) save() time.Duration {
	t0 := time.Now()
	if c.abandon.Load() {
		return 0
	}
	c.count++
	n, err := c.k.cache.SaveCheckpoint(c.root, c.tab, persist.ResumeInfo{
		Checkpoints: c.prior.Checkpoints + c.count,
		Nodes:       c.prior.Nodes + c.nodes(),
		Seconds:     c.prior.Seconds + time.Since(c.start).Seconds(),
		Time:        time.Now(),
	})
	if err != nil {
		c.k.logf("checkpoint of %v: %v", c.root, err)
	} else {
		c.k.logf("checkpoint %d of %v: %d MiB in %.2f s", c.prior.Checkpoints+c.count, c.root, n>>20, time.Since(t0).Seconds())
	}
	return time.Since(t0)
}

// finish ends the checkpoints. A finished solve's checkpoint is deleted;
// an interrupted one is checkpointed a last time if it ran for at least
// the shortest interval (a solve stopped sooner has little to keep, and a
// checkpoint is as large as the table: a web client that gives up on many
// positions must not leave a file for each).
func (c *checkpointer) finish(solved bool) error {
	if c == nil {
		return nil
	}
	if solved {
		c.abandon.Store(true)
	}
	c.stopOnce.Do(func() { close(c.stop) })
	<-c.done
	if solved {
		return c.k.cache.DropCheckpoint(c.root)
	}
	if c.every >= 0 && time.Since(c.start) >= c.every {
		c.save()
	}
	return nil
}
