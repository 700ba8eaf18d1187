package campaign

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Waiting out the cluster. When every NATS server is down, or the
// cluster has no leader for a stream for a while (a node lost and a new
// election under way), a call to JetStream times out or finds nobody to
// answer it. The coordinator and the workers then wait and try again,
// saying once in their logs that they wait and once that the cluster is
// back; the clients reconnect by themselves (nats.MaxReconnects(-1)).
// Nothing is lost meanwhile: units stay on the queue, answers on the
// results stream, and a unit whose worker could not publish its answer
// goes to a worker again when its ack wait runs out.

// opTimeout bounds one try of a call to the cluster.
const opTimeout = 10 * time.Second

// retryPause is the pause between tries while the cluster does not answer.
const retryPause = time.Second

// unavailable says whether err means that the cluster cannot answer now
// (no connection, no reply in time, no leader), as opposed to an answer
// that says no.
func unavailable(err error) bool {
	var api *jetstream.APIError
	if errors.As(err, &api) && api.Code == 503 {
		return true
	}
	return errors.Is(err, nats.ErrTimeout) || errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, nats.ErrNoResponders) || errors.Is(err, jetstream.ErrNoStreamResponse) ||
		errors.Is(err, nats.ErrConnectionReconnecting) || errors.Is(err, nats.ErrDisconnected)
}

// outage notes when the cluster stops answering and when it answers
// again, logging each once; its methods may be called from many
// goroutines.
type outage struct {
	mu    sync.Mutex
	since time.Time // the start of the current wait; zero when the cluster answers
}

// down notes a call tried at t that failed; it returns true when it
// starts a wait.
func (o *outage) down(t time.Time) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.since.IsZero() {
		return false
	}
	o.since = t
	return true
}

// up notes a call that went through; it returns how long the wait it ends
// lasted, 0 when there was none.
func (o *outage) up() time.Duration {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.since.IsZero() {
		return 0
	}
	d := time.Since(o.since)
	o.since = time.Time{}
	return d
}

// retry runs op, each try within opTimeout, until it succeeds, fails for
// another reason than the cluster being unavailable, or ctx or the
// coordinator's run ends; it returns op's last error.
func (co *Coordinator) retry(ctx context.Context, what string, op func(context.Context) error) error {
	for {
		t0 := time.Now()
		octx, cancel := context.WithTimeout(ctx, opTimeout)
		err := op(octx)
		cancel()
		if err == nil {
			co.clusterUp()
			return nil
		}
		if !unavailable(err) || ctx.Err() != nil || co.stopping() {
			return err
		}
		if co.outage.down(t0) {
			co.mu.Lock()
			co.st.Outages++
			co.mu.Unlock()
			co.logf("the NATS cluster does not answer (%v while %s): waiting for it", err, what)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(retryPause):
		}
	}
}

// clusterUp ends a wait for the cluster, if any.
func (co *Coordinator) clusterUp() {
	if d := co.outage.up(); d > 0 {
		co.mu.Lock()
		co.st.OutageSeconds += d.Seconds()
		co.mu.Unlock()
		co.logf("the NATS cluster answers again after %.1f s", d.Seconds())
	}
}

// saveStatus writes the status, one try: the status loop tries again
// soon anyway, and its tries tell when the cluster stops answering and
// when it is back even while no unit goes out.
func (co *Coordinator) saveStatus(ctx context.Context, st *Status) {
	t0 := time.Now()
	octx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	err := SaveStatus(octx, co.c, st)
	switch {
	case err == nil:
		co.clusterUp()
	case unavailable(err) && ctx.Err() == nil && co.outage.down(t0):
		co.mu.Lock()
		co.st.Outages++
		co.mu.Unlock()
		co.logf("the NATS cluster does not answer (%v while writing the status): waiting for it", err)
	}
}

// late says whether an answer to the unit key comes late: nobody waits
// for the unit, and inBucket, its answer in the results bucket, is one
// the coordinator takes (well formed, for its rule and of its signature).
func (co *Coordinator) late(key string, inBucket []byte) bool {
	co.mu.Lock()
	p := co.pending[key]
	co.mu.Unlock()
	if p != nil && !p.closed {
		return false
	}
	res, _, _, err := parseResult(inBucket, co.rules)
	return err == nil && co.p.mismatch(res.Rule, res.Build, res.EGDBSeeds) == ""
}
