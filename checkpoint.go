package kalah

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/persist"
	"github.com/kalah-solver/kalah/tt"
)

// Checkpoints. While a solve runs with a store, a goroutine beside the
// search copies the table's valuable proven entries into the store every
// Config.CheckpointEvery, as the resume records of the position being
// solved (persist/resume.go), and once more when the solve is interrupted.
// A solve of the same position started later, after a Ctrl-C or after the
// process was killed outright, first loads them back into its table: it
// starts with most of what the interrupted one knew, the exact values of
// the root moves it had finished included, instead of a cold table. When a
// solve finishes, its resume records are deleted (the root record answers
// the position from then on).
//
// The search never waits for a checkpoint: the checkpointer reads the
// table with atomic loads (tt.Table.Range) while the workers write it, and
// the store's writer goroutine commits what it hands over.

// DefaultCheckpointEvery is how often a running solve's table is
// checkpointed, and DefaultCheckpointWork is log2 of the fewest nodes an
// entry must have cost to be checkpointed (docs/benchmarks.md,
// "Persistent store").
const (
	DefaultCheckpointEvery = 30 * time.Second
	DefaultCheckpointWork  = 8
)

// checkpointer runs the checkpoints of one solve.
type checkpointer struct {
	k     *Session
	root  engine.Position
	tab   *tt.Table
	work  int
	prior persist.ResumeInfo // of the run that was resumed, if any
	start time.Time

	stopOnce sync.Once
	stop     chan struct{}
	done     chan struct{}
	abandon  atomic.Bool // the solve finished: stop adding entries
	count    int         // checkpoints written by this run
}

func (k *Session) checkpointWork() int {
	if k.cfg.CheckpointWork > 0 {
		return k.cfg.CheckpointWork
	}
	return DefaultCheckpointWork
}

// resume loads the resume records of p, if any, into the table, and
// starts the checkpoints of p's solve; nil when the session has no store.
func (k *Session) resume(p engine.Position, tab *tt.Table) *checkpointer {
	if k.cache == nil {
		return nil
	}
	c := &checkpointer{k: k, root: p, tab: tab, work: k.checkpointWork(), start: time.Now(),
		stop: make(chan struct{}), done: make(chan struct{})}
	t0 := time.Now()
	n := 0
	info, ok, err := k.cache.Resume(p, func(key engine.Key, e tt.Entry) {
		b := engine.Board{Own: key.Own, Opp: key.Opp}
		tab.Put(tab.SlotOf(key, b.Seeds()), e)
		n++
	})
	switch {
	case err != nil:
		k.logf("not resuming %v: %v", p, err)
	case ok:
		c.prior = info
		k.resumed = int64(n)
		k.logf("resuming %v: %d entries of checkpoint %d (%s, %d nodes and %.1f s of search so far) loaded in %.2f s",
			p, n, info.Checkpoints, info.Time, info.Nodes, info.Seconds, time.Since(t0).Seconds())
	}
	every := k.cfg.CheckpointEvery
	if every == 0 {
		every = DefaultCheckpointEvery
	}
	if every < 0 {
		close(c.done)
		return c
	}
	go c.loop(every)
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
			// At most a twentieth of the time goes into checkpoints.
			t.Reset(max(every, 20*took))
		}
	}
}

// save writes one checkpoint and returns how long it took.
func (c *checkpointer) save() time.Duration {
	t0 := time.Now()
	cp := c.k.cache.NewCheckpoint(c.root, c.prior.Generation+uint32(c.count)+1)
	c.tab.RangeIf(func(e tt.Entry) bool {
		return e.Solved() && e.Work() >= c.work && !c.abandon.Load()
	}, cp.Add)
	if c.abandon.Load() {
		return time.Since(t0)
	}
	c.count++
	n, err := cp.Close(persist.ResumeInfo{
		Checkpoints: c.prior.Checkpoints + c.count,
		Nodes:       c.prior.Nodes + c.k.nodes.Load(),
		Seconds:     c.prior.Seconds + time.Since(c.start).Seconds(),
	})
	if err != nil {
		c.k.logf("checkpoint of %v: %v", c.root, err)
	} else {
		c.k.logf("checkpoint %d of %v: %d entries in %.2f s", c.prior.Checkpoints+c.count, c.root, n, time.Since(t0).Seconds())
	}
	return time.Since(t0)
}

// finish ends the checkpoints. A finished solve's resume records are
// deleted; an interrupted one is checkpointed a last time.
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
		return c.k.cache.DropResume(c.root)
	}
	c.save()
	return nil
}
