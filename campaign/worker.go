package campaign

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/egdb"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/results"
	"github.com/kalah-solver/kalah/solver"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// WorkerConfig configures a worker: the local session it solves units
// with (the same kalah.Session as 'kalah solve', without a cache: the
// results bucket keeps what the campaign proves).
type WorkerConfig struct {
	Name    string // shown in results and logs
	Threads int    // search threads; 0 means all cores
	// TableSize is the table's size; 0 means the session's policy for
	// the game the unit comes from.
	TableSize int64
	EGDBDir   string
	NoEGDB    bool
	Log       *log.Logger // nil: no log
	// Shared puts the worker's large entries in the campaign's shared
	// table and reads the others' there (shared.go). Off, the worker's
	// solver has its own table only, and checks other workers' answers
	// in it (ruleSolver.checks).
	Shared bool
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
	// echo, for tests: publishes each result message twice, as a result
	// delivered to the coordinator again would arrive.
	echo bool
	// sharedMinSeeds and sharedMinWork, for tests: the shared table's
	// thresholds (default the constants of shared.go).
	sharedMinSeeds, sharedMinWork int
	// pool, when set, is the search this worker shares with others (the
	// local workers of one process); nil: its own.
	pool *pool
	// lie and lieSeed: the lying-worker fault (identity.go), set by the
	// tests and by the kalahfault build's hook (fault.go); 0: none.
	lie     float64
	lieSeed uint64
}

// A unit a worker refuses waits refuseDelay before it is delivered again
// (to any worker). The refusing worker then waits before it fetches
// again, 1 s after its first refusal, twice as long after each refusal in
// a row, at most refuseBackoffMax, so that a worker that matches none of
// the campaigns on the queue does not hold up their units.
const (
	refuseDelay      = 200 * time.Millisecond
	refuseBackoffMax = time.Minute
	handBackMax      = 10 * time.Second
)

// handBackDelay is how long a unit this worker hands back (Unit.Exclude
// names it) waits before it is delivered again: refuseDelay, twice as
// long after each delivery, at most handBackMax. JetStream delivers a unit
// due again before a new one, so that with a fixed delay a worker alone
// with more such units than it hands back in that time would never reach
// the units behind them.
func handBackDelay(msg jetstream.Msg) time.Duration {
	n := 1
	if md, err := msg.Metadata(); err == nil {
		n = int(md.NumDelivered)
	}
	return min(refuseDelay<<min(max(n-1, 0), 8), handBackMax)
}

// Worker pulls units from the work queue, solves each with a local
// session and publishes the answer. Any number of workers may run, on any
// machines; each unit goes to one of them, and to another when its holder
// goes silent for longer than the ack wait.
type Worker struct {
	c       *Conn
	cfg     WorkerConfig
	p       *pool
	threads int             // its share of the pool's threads (0: all of them)
	refused map[string]bool // campaigns refused (logged once each)
	backoff time.Duration   // the wait after the next refusal
	id      Identity

	mu        sync.Mutex
	current   string             // Nats-Msg-Id of the unit being solved
	stopUnit  context.CancelFunc // cancels it
	cancelled map[string]time.Time

	Solved  atomic.Int64 // units answered by this worker
	Nodes   atomic.Int64
	Refused atomic.Int64 // units handed back: the campaign's signature is not this worker's
	lied    atomic.Int64 // units' answers (not checks') made wrong by the lying-worker fault (WorkerConfig.lie)
}

// NewWorker returns a worker on c, with its own sessions (cfg.Threads
// search threads).
func NewWorker(c *Conn, cfg WorkerConfig) *Worker {
	if cfg.build == "" {
		cfg.build = CurrentBuild()
	}
	if applyFault != nil {
		applyFault(&cfg)
	}
	p, threads := cfg.pool, 0
	if p == nil {
		p = newPool(cfg, cfg.Threads)
	} else {
		threads = max(cfg.Threads, 1)
	}
	p.users++
	return &Worker{c: c, cfg: cfg, p: p, threads: threads, refused: map[string]bool{}, cancelled: map[string]time.Time{},
		id: processIdentity(cfg.Name, cfg.build)}
}

// pool is the search a worker's units run on: for each rule a session
// (its database and table, as 'kalah solve' opens them, with the shared
// table as its second level) whose solver's threads form a solver.Team.
// A worker process has a pool of its own. The local workers of 'kalah
// campaign start --local N' share one: one table instead of N, and a
// thread whose worker has no unit helps the units that run (lazy SMP),
// as in a campaign's tail, where one unit runs at a time.
type pool struct {
	cfg     WorkerConfig
	threads int
	mu      sync.Mutex
	solvers map[engine.Variant]*ruleSolver
	mirrors map[string]*mirror     // the shared table of each campaign served
	depths  map[engine.Variant]int // the endgame database depth of each rule
	dbs     []*egdb.DB             // the databases read for depths, open while the pool is (their sessions share the mappings)
	users   int                    // workers on it; the last to stop closes it
	local   bool                   // the one pool of 'campaign start --local' (StartLocal)
}

func newPool(cfg WorkerConfig, threads int) *pool {
	return &pool{cfg: cfg, threads: threads, solvers: map[engine.Variant]*ruleSolver{},
		mirrors: map[string]*mirror{}, depths: map[engine.Variant]int{}}
}

// depth is the depth of the endgame database the pool solves units of r
// with (-1: none), read once per rule.
func (p *pool) depth(r engine.Variant) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if d, ok := p.depths[r]; ok {
		return d, nil
	}
	d := -1
	if !p.cfg.NoEGDB {
		db, err := kalah.OpenEGDB(p.cfg.EGDBDir, r)
		if err != nil {
			return 0, err
		}
		if db != nil {
			d = db.MaxSeeds()
			p.dbs = append(p.dbs, db)
		}
	}
	p.depths[r] = d
	return d, nil
}

// mismatch says how this worker differs from a unit's campaign ("" when
// it does not).
func (w *Worker) mismatch(u Unit, r engine.Variant) (string, error) {
	d, err := w.p.depth(r)
	if err != nil {
		return "", err
	}
	p := Params{Rule: u.Rule, Build: u.Build, EGDBSeeds: u.EGDBSeeds}
	return p.mismatch(r.Rule.String(), w.cfg.build, d), nil
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
// campaign's signature by a worker the unit does not exclude (a
// quarantined one's answer is solved again).
func answered(data []byte, u Unit) bool {
	var res Result
	if json.Unmarshal(data, &res) != nil {
		return false
	}
	p := Params{Rule: u.Rule, Build: u.Build, EGDBSeeds: u.EGDBSeeds}
	return res.Key == u.Key && p.mismatch(res.Rule, res.Build, res.EGDBSeeds) == "" && !slices.Contains(u.Exclude, res.Identity().ID())
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
	var out outage // the cluster not answering: said once, and its end
	cons, err := w.consumer(ctx, &out)
	if err != nil || cons == nil {
		return err // nil: ctx ended while the cluster did not answer
	}
	sub, err := w.c.NC.Subscribe("kalah.cancel.>", w.onCancel)
	if err != nil {
		return err
	}
	defer sub.Unsubscribe()
	for ctx.Err() == nil {
		// A pull waits for a unit up to a second, and ends at once when
		// ctx does, so that a worker stops without waiting out the pull.
		t0 := time.Now()
		fctx, cancel := context.WithTimeout(ctx, time.Second)
		batch, err := cons.Fetch(1, jetstream.FetchContext(fctx))
		if err != nil {
			cancel()
			if ctx.Err() != nil {
				return nil
			}
			w.fetchFailed(&out, t0, err)
			time.Sleep(200 * time.Millisecond)
			continue
		}
		for msg := range batch.Messages() {
			if err := w.handle(ctx, msg); err != nil {
				if errors.Is(err, errCrashed) {
					cancel()
					return err
				}
				w.logf("%v", err)
			}
		}
		if err := batch.Error(); err != nil && ctx.Err() == nil && !errors.Is(err, context.DeadlineExceeded) {
			w.fetchFailed(&out, t0, err)
		} else if d := out.up(); d > 0 {
			w.logf("the NATS cluster answers again after %.1f s", d.Seconds())
		}
		cancel()
	}
	return nil
}

// consumer opens the workers' durable consumer, waiting while the cluster
// does not answer (a stream leader being elected after a node died, every
// node down); nil, nil when ctx ends first.
func (w *Worker) consumer(ctx context.Context, out *outage) (jetstream.Consumer, error) {
	for {
		t0 := time.Now()
		cons, err := w.c.workerConsumer(ctx)
		switch {
		case err == nil:
			if d := out.up(); d > 0 {
				w.logf("the NATS cluster answers again after %.1f s", d.Seconds())
			}
			return cons, nil
		case ctx.Err() != nil:
			return nil, nil
		case !unavailable(err):
			return nil, fmt.Errorf("work queue: %w", err)
		case out.down(t0):
			w.logf("the NATS cluster does not answer (work queue: %v): waiting for it", err)
		}
		select {
		case <-ctx.Done():
			return nil, nil
		case <-time.After(time.Second):
		}
	}
}

// fetchFailed logs a failed pull: once for a wait for the cluster.
func (w *Worker) fetchFailed(out *outage, t0 time.Time, err error) {
	switch {
	case !unavailable(err):
		w.logf("fetch: %v", err)
	case out.down(t0):
		w.logf("the NATS cluster does not answer (fetch: %v): waiting for it", err)
	}
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

func (w *Worker) close() { w.p.release() }

// release closes the pool's sessions when its last worker stops.
func (p *pool) release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.users--; p.users > 0 {
		return
	}
	for _, rs := range p.solvers {
		rs.k.Close()
		if rs.checks != nil && rs.checks != &rs.search {
			rs.checks.k.Close()
		}
	}
	p.solvers = map[engine.Variant]*ruleSolver{}
	for _, db := range p.dbs {
		db.Close()
	}
	p.dbs = nil
	for _, m := range p.mirrors {
		m.close()
	}
	p.mirrors = map[string]*mirror{}
}

// ruleSolver is a pool's search for one rule: the session (its endgame
// database and table policy, as 'kalah solve' opens them), whose table
// has the shared table as its second level, and the team of its threads;
// and, opened at the first check unit, the session checks run on.
type ruleSolver struct {
	search
	shared *sharedTable // nil without WorkerConfig.Shared
	cfg    kalah.Config
	// checks is the search a worker checks other workers' answers on: a
	// session of its own, a quarter of the units' table and no shared
	// table. The units' table holds entries the shared table passed on,
	// some of them written by the worker whose answer is checked (a
	// unit's root among them); a check looked up there would repeat that
	// worker's claim instead of testing it. A worker without the shared
	// table (the default) and alone on its pool checks in its units'
	// table: every entry there is its own, and warm.
	checks *search
}

// search is a session and the team of its threads.
type search struct {
	k    *kalah.Session
	team *solver.Team
}

// openSearch opens a session of cfg and its team.
func openSearch(cfg kalah.Config) (search, error) {
	k, err := kalah.Open(cfg)
	if err != nil {
		return search{}, err
	}
	team, err := k.Team()
	if err != nil {
		k.Close()
		return search{}, err
	}
	return search{k: k, team: team}, nil
}

// checkTableDivisor: a check's table is the units' table over this.
const checkTableDivisor = 4

// checker returns rs's check search, opened on first use (under p.mu).
func (p *pool) checker(rs *ruleSolver) (*search, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if rs.checks != nil {
		return rs.checks, nil
	}
	if rs.shared == nil && !p.local {
		rs.checks = &rs.search
		return rs.checks, nil
	}
	cfg := rs.cfg
	cfg.Shared = nil
	cfg.TableSize = max(rs.k.TableSize()/checkTableDivisor, 1<<20)
	s, err := openSearch(cfg)
	if err != nil {
		return nil, err
	}
	rs.checks = &s
	return rs.checks, nil
}

// solver returns the search of r, opened on first use; with the shared
// table, pointed at the campaign's mirror.
func (p *pool) solver(ctx context.Context, c *Conn, r engine.Variant, gameSeeds int, campaign string) (*ruleSolver, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	rs := p.solvers[r]
	if rs == nil {
		cfg := kalah.Config{Pits: r.Pits, Seeds: 1, Rule: r.Rule, Threads: p.threads,
			TableSize: p.cfg.TableSize, TableSeeds: gameSeeds, EGDBDir: p.cfg.EGDBDir, NoEGDB: p.cfg.NoEGDB, NoCache: true, Log: p.cfg.Log}
		rs = &ruleSolver{}
		if p.cfg.Shared {
			// The shared table where 'kalah solve' has its cache.
			rs.shared = &sharedTable{minSeeds: sharedMinSeeds, minWork: sharedMinWork}
			if p.cfg.sharedMinWork > 0 {
				rs.shared.minSeeds, rs.shared.minWork = p.cfg.sharedMinSeeds, p.cfg.sharedMinWork
			}
			cfg.Shared = rs.shared
		}
		s, err := openSearch(cfg)
		if err != nil {
			return nil, err
		}
		rs.search, rs.cfg = s, cfg
		p.solvers[r] = rs
	}
	if rs.shared != nil {
		m := p.mirrors[campaign]
		if m == nil {
			var err error
			if m, err = openMirror(ctx, c.Table, campaign, r.Pits); err != nil {
				return nil, err
			}
			p.mirrors[campaign] = m
		}
		rs.shared.use(m)
	}
	return rs, nil
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
	if err != nil || gamma != u.Gamma || r.Rule.String() != u.Rule || r.Pits != u.Pits {
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
	if slices.Contains(u.Exclude, w.id.ID()) {
		// A check of this worker's own answer, or a unit of a campaign
		// that quarantined it: another worker takes it.
		msg.NakWithDelay(handBackDelay(msg))
		return nil
	}
	if d, ok := handsBack(u, w.id.ID(), time.Now(), handBackDelay(msg)); ok {
		msg.NakWithDelay(d) // another worker's table holds the board's last test
		return nil
	}
	if u.Check == "" {
		if e, err := w.c.Results.Get(ctx, u.Key); err == nil && answered(e.Value(), u) {
			return msg.Ack() // answered already, by an earlier delivery or campaign
		}
	}
	if why, err := w.mismatch(u, r); err != nil {
		// No database of the unit's rule where this worker was told to
		// look (one of the other rule only), or a damaged one: it cannot
		// serve the campaign.
		return w.refuse(ctx, msg, u, fmt.Sprintf("no usable endgame database of the campaign's rule (%v)", err))
	} else if why != "" {
		return w.refuse(ctx, msg, u, why)
	}
	if w.cfg.crash != nil && w.cfg.crash(u) {
		w.c.NC.Close()
		return errCrashed
	}
	rs, err := w.p.solver(ctx, w.c, r, max(u.GameSeeds, b.Seeds()), u.Campaign)
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
	// Heartbeats: a long unit tells JetStream it is still being worked
	// on, and the coordinator that its worker lives (it hears from a
	// worker otherwise only when an answer comes).
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
				w.c.NC.Publish(aliveSubject(u.Campaign), []byte(w.id.ID()))
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
	team, tableSize := rs.team, rs.k.TableSize()
	if u.Check != "" {
		cs, err := w.p.checker(rs)
		if err != nil {
			msg.Nak()
			return err
		}
		team, tableSize = cs.team, cs.k.TableSize()
	}
	v, st, err := team.NullWindow(uctx, b, gamma)
	nodes := st.Nodes
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
	threads := w.threads
	if threads == 0 {
		threads = rs.k.Threads()
	}
	if lies(w.cfg.lie, w.cfg.lieSeed, u.Key) {
		v = wrongAnswer(v, gamma)
		if u.Check == "" {
			w.lied.Add(1)
		}
	}
	res := Result{Campaign: u.Campaign, Key: u.Key, Value: v, Nodes: nodes, Check: u.Check,
		Seconds: math.Round(time.Since(t0).Seconds()*1000) / 1000, Worker: w.cfg.Name, Host: w.id.Host, PID: w.id.PID,
		Threads: threads, TableSize: tableSize, Rule: r.Rule.String(), EGDBSeeds: rs.k.EGDBSeeds(),
		Build: w.cfg.build, Version: results.Current().Version, Revision: results.Current().VCSRevision, Attempt: attempt,
		SharedHits: st.CacheHits, Stats: &st}
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
	if w.cfg.echo {
		w.c.JS.Publish(pctx, resultSubject(u.Campaign), data)
	}
	w.Solved.Add(1)
	w.backoff = 0
	w.Nodes.Add(nodes)
	if !w.cfg.Quiet {
		w.logf("unit %s: %d (gamma %d), %d nodes, %.3f s", u.Key, v, gamma, nodes, res.Seconds)
	}
	return msg.DoubleAck(pctx)
}
