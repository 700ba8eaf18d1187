package campaign

import (
	"context"
	"errors"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// The watch over the units the search waits for, so that none waits for
// ever. A unit's copy leaves the queue when a worker acks it: after
// publishing its answer, after a cancellation, or unsolved when the
// results bucket already holds an answer to it (given to another
// campaign, or taken by this run before the unit was asked again). Once
// in a while the coordinator looks up each unit out:
//
//   - its copy queued or held: a worker has it or will. When no worker
//     that may take it (not quarantined) has answered or sent a
//     heartbeat (Coordinator.alive) for a minute
//     (heardRecently), the unit is stalled: the log says so once and the
//     status counts it (units_stalled) until one answers;
//   - its copy gone for a few seconds and its answer not taken: an
//     answer in the results bucket that the campaign accepts answers the
//     unit; otherwise the unit is queued again under a new message id
//     (units_recovered counts both). A quarantined worker's answer found
//     there is deleted first, so that workers solve the unit instead of
//     skipping it.
//
// Nothing is done while 'campaign stop' holds the campaign (its purge of
// the queue is not undone).

// watchTimes are the watch's periods.
type watchTimes struct {
	// every is how often the watch runs.
	every time.Duration
	// gone is how long a unit's copy must be gone from the queue, with
	// its answer not taken, before the watch acts: an answer is
	// published before its unit is acked and is taken soon after.
	gone time.Duration
	// lookMax bounds the time between two looks at one unit (a unit out
	// for long is looked at less often).
	lookMax time.Duration
	// backlog: while the coordinator's consumer of answers has answers
	// not taken yet, a gone unit gets this long for its answer.
	backlog time.Duration
	// stalled: a unit waited for this long, with no worker that may take
	// it heard from for as long, is stalled.
	stalled time.Duration
}

var defaultWatch = watchTimes{every: time.Second, gone: 3 * time.Second, lookMax: 30 * time.Second,
	backlog: 30 * time.Second, stalled: heardRecently}

// watchLoop runs the watch until the returned function is called.
func (co *Coordinator) watchLoop(ctx context.Context) func() {
	ctx, cancel := context.WithCancel(ctx)
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(co.watchT.every)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				co.watch(ctx)
			}
		}
	}()
	return func() { cancel(); <-finished }
}

// watched is a unit out, as the watch saw it.
type watched struct {
	key string
	p   *pend
	seq uint64
}

// watch looks at the units out that are due.
func (co *Coordinator) watch(ctx context.Context) {
	now := time.Now()
	co.mu.Lock()
	var due []watched
	wt := co.watchT
	waiting := 0 // units waited for longer than wt.stalled
	for key, p := range co.pending {
		if p.closed || p.msgID == "" {
			continue
		}
		if now.Sub(p.since) > wt.stalled {
			waiting++
		}
		if now.After(p.look) {
			due = append(due, watched{key, p, p.seq})
		}
	}
	stalled := 0
	if waiting > 0 && !co.workerEligible(wt.stalled) {
		stalled = waiting
	}
	was := co.st.Stalled
	co.st.Stalled = int64(stalled)
	quarantined := len(co.quarantined)
	co.mu.Unlock()
	switch {
	case stalled > 0 && was == 0:
		co.logf("STALLED: %d units have waited more than %s, and no worker that may take them (%d quarantined) has answered or sent a heartbeat for as long: they wait for one ('kalah worker')",
			stalled, wt.stalled, quarantined)
	case stalled == 0 && was > 0:
		co.logf("no unit stalled any more: a worker answers")
	}
	if len(due) == 0 || co.stopping() {
		return
	}
	st, err := co.c.JS.Stream(ctx, unitStream)
	if err != nil {
		return
	}
	var gone []watched
	for _, w := range due {
		_, err := st.GetMsg(ctx, w.seq)
		co.mu.Lock()
		if w.p.closed || w.p.seq != w.seq {
			co.mu.Unlock()
			continue
		}
		switch {
		case err == nil:
			w.p.gone = time.Time{}
			w.p.look = now.Add(min(max(now.Sub(w.p.since)/4, wt.every), wt.lookMax))
		case errors.Is(err, jetstream.ErrMsgNotFound):
			if w.p.gone.IsZero() {
				w.p.gone = now
			}
			w.p.look = now.Add(wt.every)
			if now.Sub(w.p.gone) >= wt.gone {
				gone = append(gone, w)
			}
		}
		co.mu.Unlock()
	}
	if len(gone) == 0 {
		return
	}
	if _, err := co.c.State.Get(ctx, co.p.Name+".stop"); err == nil || !errors.Is(err, jetstream.ErrKeyNotFound) {
		return // stopped by 'campaign stop', or the cluster cannot tell
	}
	backlog := co.results == nil
	if co.results != nil {
		info, err := co.results.Info(ctx)
		backlog = err != nil || info.NumPending+uint64(info.NumAckPending) > 0
	}
	for _, w := range gone {
		co.mu.Lock()
		wait := backlog && now.Sub(w.p.gone) < wt.backlog
		co.mu.Unlock()
		if !wait {
			co.recover(ctx, w.key, w.p)
		}
	}
}

// workerEligible reports that a worker not quarantined has answered or
// sent a heartbeat within d; co.mu held.
func (co *Coordinator) workerEligible(d time.Duration) bool {
	for id, at := range co.heard {
		if _, q := co.quarantined[id]; !q && time.Since(at) < d {
			return true
		}
	}
	return false
}

// recover answers the unit key, whose copy left the queue unanswered,
// from the results bucket, or queues it again.
func (co *Coordinator) recover(ctx context.Context, key string, p *pend) {
	if co.fromBucket(ctx, key, p) {
		co.logf("unit %s left the queue unanswered; its answer in the results bucket is taken", key)
		return
	}
	co.mu.Lock()
	open := !p.closed
	if open {
		co.st.Recovered++
	}
	co.mu.Unlock()
	if open {
		co.logf("unit %s left the queue without an answer: it goes out again", key)
		co.reissue(key)
	}
}

// fromBucket answers the unit key, waited for by p, with the answer the
// results bucket holds, when the campaign accepts it (its signature, and
// not a quarantined worker's: such an answer is deleted, so that workers
// solve the unit instead of skipping it). It reports whether p is
// answered.
func (co *Coordinator) fromBucket(ctx context.Context, key string, p *pend) bool {
	e, err := co.c.Results.Get(ctx, key)
	if err != nil {
		return false
	}
	res, b, gamma, perr := parseResult(e.Value(), co.rules)
	co.mu.Lock()
	_, q := co.quarantined[res.Identity().ID()]
	ok := perr == nil && res.Key == key && co.p.mismatch(res.Rule, res.Build, res.EGDBSeeds) == "" && !q
	answered := p.closed
	var crossed []string
	if ok {
		crossed = co.note(b, gamma, res.Value, key)
		if !p.closed {
			p.v, p.closed = res.Value, true
			close(p.done)
			if co.pending[key] == p {
				delete(co.pending, key)
			}
			co.st.Recovered++
		}
		answered = true
	}
	co.mu.Unlock()
	if q && perr == nil {
		co.c.Results.Delete(ctx, key)
	}
	co.checkContradicted(ctx, crossed)
	return answered
}
