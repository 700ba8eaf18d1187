package campaign

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/results"
	"github.com/kalah-solver/kalah/solver"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// WorkerConfig configures a worker: the local session it solves units
// with (the same kalah.Session as 'kalah solve', without the persistent
// store: the results bucket is the campaign's store).
type WorkerConfig struct {
	Name    string // shown in results and logs
	Threads int    // search threads; 0 means all cores
	// TableBytes is the table's size; 0 means the session's policy for
	// the game the unit comes from.
	TableBytes int64
	EGDBDir    string
	NoEGDB     bool
	Log        *log.Logger // nil: no log
	// NoShared leaves the shared table out (shared.go): the worker's
	// solver then has its own table only.
	NoShared bool
	// Quiet leaves out the log line of each unit (refusals and errors are
	// still logged).
	Quiet bool

	// crash, for tests: called before a unit is solved; when it returns
	// true the worker vanishes holding the unit (no result, no ack, its
	// connection closed), as a killed process would.
	crash func(Unit) bool
	// delay, for tests: how long to wait, heartbeats running, before
	// solving a unit, as a long unit would.
	delay func(Unit) time.Duration
	// build, for tests: the build the worker claims (default
	// CurrentBuild()).
	build string
	// forge, for tests: changes a result before it is published, as a
	// worker that does not check its units would.
	forge func(*Result)
	// sharedMinSeeds and sharedMinWork, for tests: the shared table's
	// thresholds (default the constants of shared.go).
	sharedMinSeeds, sharedMinWork int
}

// A unit a worker refuses waits refuseDelay before it is delivered again
// (to any worker). The refusing worker then waits before it fetches
// again, 1 s after its first refusal, twice as long after each refusal in
// a row, at most refuseBackoffMax, so that a worker that matches none of
// the campaigns on the queue does not hold up their units.
const (
	refuseDelay      = 200 * time.Millisecond
	refuseBackoffMax = time.Minute
)

// Worker pulls units from the work queue, solves each with a local
// session and publishes the answer. Any number of workers may run, on any
// machines; each unit goes to one of them, and to another when its holder
// goes silent for longer than the ack wait.
type Worker struct {
	c        *Conn
	cfg      WorkerConfig
	sessions map[engine.Rules]*ruleSolver
	mirrors  map[string]*mirror   // the shared table of each campaign served
	depths   map[engine.Rules]int // the endgame database depth of each rule
	refused  map[string]bool      // campaigns refused (logged once each)
	backoff  time.Duration        // the wait after the next refusal

	mu        sync.Mutex
	current   string             // Nats-Msg-Id of the unit being solved
	stopUnit  context.CancelFunc // cancels it
	cancelled map[string]time.Time

	Solved  atomic.Int64 // units answered by this worker
	Nodes   atomic.Int64
	Refused atomic.Int64 // units handed back: the campaign's signature is not this worker's
}

// NewWorker returns a worker on c.
func NewWorker(c *Conn, cfg WorkerConfig) *Worker {
	if cfg.build == "" {
		cfg.build = CurrentBuild()
	}
	return &Worker{c: c, cfg: cfg, sessions: map[engine.Rules]*ruleSolver{}, mirrors: map[string]*mirror{}, depths: map[engine.Rules]int{},
		refused: map[string]bool{}, cancelled: map[string]time.Time{}}
}

// depth is the depth of the endgame database this worker solves units of
// r with (-1: none), read once per rule.
func (w *Worker) depth(r engine.Rules) (int, error) {
	if d, ok := w.depths[r]; ok {
		return d, nil
	}
	d := -1
	if !w.cfg.NoEGDB {
		db, err := kalah.OpenEGDB(w.cfg.EGDBDir, r)
		if err != nil {
			return 0, err
		}
		if db != nil {
			d = db.MaxSeeds()
			db.Close()
		}
	}
	w.depths[r] = d
	return d, nil
}

// mismatch says how this worker differs from a unit's campaign ("" when
// it does not).
func (w *Worker) mismatch(u Unit, r engine.Rules) (string, error) {
	d, err := w.depth(r)
	if err != nil {
		return "", err
	}
	p := Params{Rule: u.Rule, Build: u.Build, EGDBSeeds: u.EGDBSeeds}
	return p.mismatch(r.Capture.String(), w.cfg.build, d), nil
}

// refuse hands a unit back: this worker cannot serve its campaign. The
// first refusal of each campaign is logged and noted in the state bucket.
func (w *Worker) refuse(ctx context.Context, msg jetstream.Msg, u Unit, why string) error {
	w.Refused.Add(1)
	msg.NakWithDelay(refuseDelay)
	if !w.refused[u.Campaign] {
		w.refused[u.Campaign] = true
		reason := "this worker has " + why + ": its units are left to workers that match"
		w.logf("campaign %s: %s", u.Campaign, reason)
		if err := noteRefusal(ctx, w.c, u.Campaign, w.cfg.Name, reason); err != nil {
			w.logf("noting the refusal: %v", err)
		}
	}
	w.backoff = min(max(2*w.backoff, time.Second), refuseBackoffMax)
	select {
	case <-ctx.Done():
	case <-time.After(w.backoff):
	}
	return nil
}

// answered reports that the bucket holds an answer to u computed with its
// campaign's signature.
func answered(data []byte, u Unit) bool {
	var res Result
	if json.Unmarshal(data, &res) != nil {
		return false
	}
	p := Params{Rule: u.Rule, Build: u.Build, EGDBSeeds: u.EGDBSeeds}
	return res.Key == u.Key && p.mismatch(res.Rule, res.Build, res.EGDBSeeds) == ""
}

func (w *Worker) logf(format string, a ...any) {
	if w.cfg.Log != nil {
		w.cfg.Log.Printf(w.cfg.Name+": "+format, a...)
	}
}

// errCrashed is returned by Run after the crash hook fired.
var errCrashed = errors.New("worker crashed (test hook)")

// Run serves units until ctx ends; it returns nil then.
func (w *Worker) Run(ctx context.Context) error {
	defer w.close()
	cons, err := w.c.workerConsumer(ctx)
	if err != nil {
		return fmt.Errorf("work queue: %w", err)
	}
	sub, err := w.c.NC.Subscribe("kalah.cancel.>", w.onCancel)
	if err != nil {
		return err
	}
	defer sub.Unsubscribe()
	for ctx.Err() == nil {
		batch, err := cons.Fetch(1, jetstream.FetchMaxWait(time.Second))
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			w.logf("fetch: %v", err)
			time.Sleep(200 * time.Millisecond)
			continue
		}
		for msg := range batch.Messages() {
			if err := w.handle(ctx, msg); err != nil {
				if errors.Is(err, errCrashed) {
					return err
				}
				w.logf("%v", err)
			}
		}
	}
	return nil
}

// onCancel records a unit that its coordinator no longer needs, and
// stops it if it is being solved here.
func (w *Worker) onCancel(m *nats.Msg) {
	id := string(m.Data)
	w.mu.Lock()
	defer w.mu.Unlock()
	now := time.Now()
	for k, t := range w.cancelled {
		if now.Sub(t) > time.Hour {
			delete(w.cancelled, k)
		}
	}
	w.cancelled[id] = now
	if w.current == id && w.stopUnit != nil {
		w.stopUnit()
	}
}

func (w *Worker) close() {
	for _, rs := range w.sessions {
		rs.k.Close()
	}
	w.sessions = map[engine.Rules]*ruleSolver{}
	for _, m := range w.mirrors {
		m.close()
	}
	w.mirrors = map[string]*mirror{}
}

// ruleSolver is a worker's search for one rule: the session (its endgame
// database and table policy, as 'kalah solve' opens them), whose solver
// has the shared table as its second level.
type ruleSolver struct {
	k      *kalah.Session
	shared *sharedCache // nil with NoShared
}

// session returns the solver of r, opened on first use; with the shared
// table, pointed at the campaign's mirror.
func (w *Worker) session(ctx context.Context, r engine.Rules, gameSeeds int, campaign string) (*solver.Solver, error) {
	rs := w.sessions[r]
	if rs == nil {
		tb := w.cfg.TableBytes
		if tb == 0 {
			tb = solver.DefaultTTBytesFor(r.Pits, gameSeeds)
		}
		cfg := kalah.Config{Pits: r.Pits, Seeds: 1, Rule: r.Capture, Threads: w.cfg.Threads,
			TableBytes: tb, EGDBDir: w.cfg.EGDBDir, NoEGDB: w.cfg.NoEGDB, NoCache: true, Log: w.cfg.Log}
		rs = &ruleSolver{}
		if !w.cfg.NoShared {
			// The shared table where 'kalah solve' has its persistent store.
			rs.shared = &sharedCache{minSeeds: sharedMinSeeds, minWork: sharedMinWork}
			if w.cfg.sharedMinWork > 0 {
				rs.shared.minSeeds, rs.shared.minWork = w.cfg.sharedMinSeeds, w.cfg.sharedMinWork
			}
			cfg.Shared = rs.shared
		}
		k, err := kalah.Open(cfg)
		if err != nil {
			return nil, err
		}
		rs.k = k
		w.sessions[r] = rs
	}
	if rs.shared != nil {
		m := w.mirrors[campaign]
		if m == nil {
			var err error
			if m, err = openMirror(ctx, w.c.Table, campaign, r.Pits); err != nil {
				return nil, err
			}
			w.mirrors[campaign] = m
		}
		rs.shared.use(m)
	}
	return rs.k.Solver()
}

// handle solves one unit. A unit that cannot be read is terminated (never
// delivered again); one already answered in the bucket is acked unsolved.
func (w *Worker) handle(ctx context.Context, msg jetstream.Msg) error {
	var u Unit
	if err := json.Unmarshal(msg.Data(), &u); err != nil {
		msg.Term()
		return fmt.Errorf("unit on %s is not JSON, dropped: %v", msg.Subject(), err)
	}
	r, b, gamma, err := ParseKey(u.Key)
	if err != nil || gamma != u.Gamma || r.Capture.String() != u.Rule || r.Pits != u.Pits {
		msg.Term()
		return fmt.Errorf("unit %q of campaign %q does not hold up, dropped: %v", u.Key, u.Campaign, err)
	}
	id := msg.Headers().Get(jetstream.MsgIDHeader)
	w.mu.Lock()
	_, gone := w.cancelled[id]
	w.mu.Unlock()
	if gone {
		return msg.Ack()
	}
	if e, err := w.c.Results.Get(ctx, u.Key); err == nil && answered(e.Value(), u) {
		return msg.Ack() // answered already, by an earlier delivery or campaign
	}
	if why, err := w.mismatch(u, r); err != nil {
		msg.NakWithDelay(refuseDelay)
		return err
	} else if why != "" {
		return w.refuse(ctx, msg, u, why)
	}
	if w.cfg.crash != nil && w.cfg.crash(u) {
		w.c.NC.Close()
		return errCrashed
	}
	sv, err := w.session(ctx, r, max(u.GameSeeds, b.Seeds()), u.Campaign)
	if err != nil {
		msg.Nak()
		return err
	}
	uctx, stop := context.WithCancel(ctx)
	defer stop()
	w.mu.Lock()
	w.current, w.stopUnit = id, stop
	w.mu.Unlock()
	defer func() {
		w.mu.Lock()
		w.current, w.stopUnit = "", nil
		w.mu.Unlock()
	}()
	// Heartbeats: a long unit tells JetStream it is still being worked on.
	hb := make(chan struct{})
	defer close(hb)
	go func() {
		t := time.NewTicker(w.c.AckWait / 3)
		defer t.Stop()
		for {
			select {
			case <-hb:
				return
			case <-t.C:
				msg.InProgress()
			}
		}
	}()
	t0 := time.Now()
	if w.cfg.delay != nil {
		select {
		case <-time.After(w.cfg.delay(u)):
		case <-uctx.Done():
		}
	}
	hits0 := sv.Stats().CacheHits
	v, nodes, err := sv.NullWindow(uctx, b, gamma)
	if err != nil {
		if ctx.Err() != nil {
			msg.Nak() // this worker stops: give the unit to another at once
			return nil
		}
		if errors.Is(err, solver.ErrInterrupted) {
			if !w.cfg.Quiet {
				w.logf("unit %s cancelled by its coordinator", u.Key)
			}
			return msg.Ack()
		}
		msg.Nak()
		return err
	}
	attempt := 1
	if md, err := msg.Metadata(); err == nil {
		attempt = int(md.NumDelivered)
	}
	res := Result{Campaign: u.Campaign, Key: u.Key, Value: v, Nodes: nodes,
		Seconds: math.Round(time.Since(t0).Seconds()*1000) / 1000, Worker: w.cfg.Name,
		Threads: sv.Threads(), TTBytes: sv.Table().Bytes(), Rule: r.Capture.String(), EGDBSeeds: sv.EGDBSeeds(),
		Build: w.cfg.build, Version: results.Current().Version, Revision: results.Current().VCSRevision, Attempt: attempt,
		SharedHits: sv.Stats().CacheHits - hits0}
	if w.cfg.forge != nil {
		w.cfg.forge(&res)
	}
	data, _ := json.Marshal(res)
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := w.c.JS.Publish(pctx, resultSubject(u.Campaign), data); err != nil {
		msg.Nak()
		return fmt.Errorf("publishing the result of %s: %w", u.Key, err)
	}
	w.Solved.Add(1)
	w.backoff = 0
	w.Nodes.Add(nodes)
	if !w.cfg.Quiet {
		w.logf("unit %s: %d (gamma %d), %d nodes, %.3f s", u.Key, v, gamma, nodes, res.Seconds)
	}
	return msg.DoubleAck(pctx)
}
