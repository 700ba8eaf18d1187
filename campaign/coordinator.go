package campaign

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/results"
	"github.com/kalah-solver/kalah/solver"
	"github.com/nats-io/nats.go/jetstream"
)

// Params define a campaign; a campaign name, once created, always means
// the same parameters.
type Params struct {
	Name     string `json:"name"`
	Rule     string `json:"rule"`
	Pits     int    `json:"pits"`
	Seeds    int    `json:"seeds,omitempty"` // n when the root is the start of Kalah(m,n)
	Position string `json:"position"`        // the root, engine notation
	ToMove   string `json:"to_move"`
	// Split is how many plies below each root move's position the
	// coordinator splits a null-window test before shipping the subtrees
	// as units (1: units are the positions two plies below the root).
	Split int `json:"split"`
	// LocalSeeds: boards with at most this many seeds are tested by the
	// coordinator itself (shipping them costs more than solving them).
	LocalSeeds int `json:"local_seeds"`
	// Build and EGDBSeeds are the campaign's signature with Rule
	// (signature.go): the build that computes it (BuildID) and the depth
	// of the endgame database every worker uses (-1: none).
	Build     string `json:"build"`
	EGDBSeeds int    `json:"egdb_seeds"`
}

// ErrConflict is returned when a campaign name exists with other
// parameters; nothing is changed then.
var ErrConflict = errors.New("campaign exists with other parameters")

// CoordinatorConfig configures a coordinator's own resources.
type CoordinatorConfig struct {
	Log *log.Logger
	// StatusEvery is how often the status record is written (default 2 s).
	StatusEvery time.Duration
	// GuessDepth is the depth of the deepening that guesses each root
	// move's value (guess.go); 0 means DefaultGuessDepth, a negative value
	// none (the guess is 0). It changes the cost, never a value.
	GuessDepth int
	// EGDBDir and NoEGDB: the endgame database of the coordinator's own
	// solver (its guesses and its tests of small boards), as for a worker.
	// It is used only when its depth is the campaign's (Params.EGDBSeeds);
	// otherwise the coordinator goes without one.
	EGDBDir string
	NoEGDB  bool
	// VerifyShare is the share (0..1) of accepted answers checked by
	// another worker (check.go); 0: none. 'campaign start' defaults to
	// DefaultVerifyShare.
	VerifyShare float64
	// VerifySeed seeds the choice of the answers checked; 0: a seed from
	// the clock.
	VerifySeed uint64
	// Affinity: a board's next test goes first to the worker that answered
	// its last one (affinity.go). 'campaign start' sets it for workers
	// with tables of their own (not with --local, whose workers share
	// one).
	Affinity bool
	// onResult, for tests: called after each accepted result.
	onResult func(Result)
	// afterLoad, for tests: called after each reading of the results
	// bucket into the table.
	afterLoad func()
	// watch, for tests: the watch's periods (default defaultWatch).
	watch *watchTimes
}

// Coordinator runs the top of the search of one campaign (search.go) and
// takes in the workers' answers.
type Coordinator struct {
	c     *Conn
	p     Params
	cfg   CoordinatorConfig
	rules engine.Variant
	root  engine.Position
	start time.Time

	localMu sync.Mutex
	local   *kalah.Session // the front end's own small solver
	// localStop ends the checks the coordinator runs itself (their
	// context, localCtx), which no run's end stops; localClosed: Close
	// has closed local (under localMu).
	localCtx    context.Context
	localStop   context.CancelFunc
	localClosed bool
	// localDB is the depth of its endgame database (-1: none): boards it
	// covers are answered here at once, not shipped.
	localDB int

	// issueMu orders the queueing of units and their cancelling, so that
	// a unit given up and asked again at once is not lost between them.
	issueMu sync.Mutex

	mu      sync.Mutex
	table   map[engine.Key]bounds // every bound known on a board (relative value)
	pending map[string]*pend      // units asked and not answered, by key
	st      Status
	rate    rateMeter       // the counters at each status write, for the rate
	runCtx  context.Context // Run's context: when it ends, units stay queued
	stopRun context.CancelFunc
	results jetstream.Consumer // the run's consumer of answers
	outage  outage             // waits for the cluster (outage.go)

	// Cross-checks (check.go), under mu.
	id           Identity                // the coordinator's own, for its third tests
	rng          *rand.Rand              // picks the answers checked
	draws        map[string]*checkDraw   // each worker's draw of them, by Identity.ID
	checks       map[string]*crossCheck  // by the key of the answer checked
	quarantined  map[string]Quarantine   // by Identity.ID
	answeredBy   map[string][]string     // keys in the results bucket, by Identity.ID
	heard        map[string]time.Time    // when each worker was last heard from, by Identity.ID
	persistMu    sync.Mutex              // one check write at a time (persistCheck)
	restart      bool                    // a quarantine voided the search
	issued       map[string]issueInfo    // units out, by key, for their traces (trace.go)
	lastTest     map[engine.Key]lastTest // who answered each board's last test (affinity.go)
	searchCancel context.CancelFunc      // ends the current search
	watchT       watchTimes              // the watch over units out (watch.go)
}

type bounds struct {
	lo, hi int
	// loKey, hiKey: the answers (results bucket keys) that set lo and hi;
	// "" for a bound the search derived or the coordinator's own test.
	loKey, hiKey string
}

// pend is a unit in flight: the goroutines waiting for it, its stream
// sequence (to delete it when no longer needed) and its answer.
type pend struct {
	refs  int
	seq   uint64
	msgID string
	// cause and parent: for its trace (trace.go).
	cause  string
	parent string
	done   chan struct{}
	v      int
	err    error
	closed bool
	// For the watch over units out (watch.go): when it was asked, when
	// its copy was first seen gone from the queue, when to look next.
	since, gone, look time.Time
}

// mark is an issued unit's record in the state bucket: the count of its
// issues (the last one's message id is <campaign>.<key>.<n>) and whether
// the coordinator gave it up.
type mark struct {
	N         int  `json:"n"`
	Cancelled bool `json:"cancelled,omitempty"`
}

func (p Params) root() (engine.Variant, engine.Position, error) {
	c, err := engine.ParseRule(p.Rule)
	if err != nil {
		return engine.Variant{}, engine.Position{}, err
	}
	side, err := engine.ParseSide(p.ToMove)
	if err != nil {
		return engine.Variant{}, engine.Position{}, err
	}
	pos, err := engine.ParsePosition(p.Position, side)
	if err != nil {
		return engine.Variant{}, engine.Position{}, err
	}
	if pos.Pits != p.Pits {
		return engine.Variant{}, engine.Position{}, fmt.Errorf("position has %d pits, campaign %d", pos.Pits, p.Pits)
	}
	r, err := engine.NewVariant(p.Pits, c)
	return r, pos, err
}

// NewParams fills in a campaign's parameters for the start of Kalah(m,n)
// (position "") or for a position, with the default split, this binary's
// build and no endgame database.
func NewParams(name string, r engine.Variant, seeds int, pos engine.Position) Params {
	return Params{Name: name, Rule: r.Rule.String(), Pits: r.Pits, Seeds: seeds, Position: pos.String(),
		ToMove: pos.ToMove.String(), Split: 1, LocalSeeds: 12, Build: CurrentBuild(), EGDBSeeds: -1}
}

// describe lists the parameters, for messages.
func (p Params) describe() string {
	return fmt.Sprintf("Kalah(%d) %s, position %s %s, split %d, local %d, build %q, database %s",
		p.Pits, p.Rule, p.Position, p.ToMove, p.Split, p.LocalSeeds, p.Build, depthName(p.EGDBSeeds))
}

// Create records a campaign's parameters, or checks them against those
// already recorded under its name (ErrConflict when they differ).
func Create(ctx context.Context, c *Conn, p Params) error {
	if err := CheckName(p.Name); err != nil {
		return err
	}
	if _, _, err := p.root(); err != nil {
		return err
	}
	if p.Split < 0 || p.Split > 4 {
		return fmt.Errorf("split %d: want 0..4 plies", p.Split)
	}
	if p.Build == "" || p.EGDBSeeds < -1 {
		return fmt.Errorf("campaign %q: no build or a bad database depth %d declared", p.Name, p.EGDBSeeds)
	}
	data, _ := json.Marshal(p)
	if _, err := c.State.Create(ctx, p.Name+".params", data); err == nil {
		return nil
	} else if !errors.Is(err, jetstream.ErrKeyExists) {
		return err
	}
	old, err := LoadParams(ctx, c, p.Name)
	if err != nil {
		return err
	}
	if old != p {
		return fmt.Errorf("%w: %q is %s, not %s", ErrConflict, p.Name, old.describe(), p.describe())
	}
	return nil
}

// ErrNoCampaign is returned for a name no campaign has.
var ErrNoCampaign = errors.New("no such campaign")

// LoadParams reads a campaign's parameters.
func LoadParams(ctx context.Context, c *Conn, name string) (Params, error) {
	var p Params
	e, err := c.State.Get(ctx, name+".params")
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return p, fmt.Errorf("%w: %q", ErrNoCampaign, name)
	}
	if err != nil {
		return p, err
	}
	return p, json.Unmarshal(e.Value(), &p)
}

// NewCoordinator prepares the coordinator of the campaign p (created with
// Create).
func NewCoordinator(c *Conn, p Params, cfg CoordinatorConfig) (*Coordinator, error) {
	r, pos, err := p.root()
	if err != nil {
		return nil, err
	}
	if cfg.StatusEvery == 0 {
		cfg.StatusEvery = 2 * time.Second
	}
	// The coordinator's own session uses the campaign's database when the
	// one found is of the campaign's depth, and none otherwise: opened
	// once, and again without a database only on a mismatch.
	open := func(noEGDB bool) (*kalah.Session, error) {
		return kalah.Open(kalah.Config{Pits: r.Pits, Seeds: 1, Rule: r.Rule, Threads: 1, TableSize: coordinatorTable(r, pos, p.EGDBSeeds),
			EGDBDir: cfg.EGDBDir, NoEGDB: noEGDB, NoCache: true})
	}
	noEGDB := cfg.NoEGDB || p.EGDBSeeds < 0
	k, err := open(noEGDB)
	if err != nil {
		return nil, err
	}
	localDB := -1
	if !noEGDB {
		if db, err := k.EGDB(); err == nil && db != nil && db.MaxSeeds() == p.EGDBSeeds {
			localDB = p.EGDBSeeds
		} else {
			k.Close()
			if k, err = open(true); err != nil {
				return nil, err
			}
		}
	}
	seed := cfg.VerifySeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	co := &Coordinator{c: c, p: p, cfg: cfg, rules: r, root: pos, local: k, localDB: localDB,
		table: map[engine.Key]bounds{}, pending: map[string]*pend{},
		id: processIdentity("coordinator", p.Build), rng: rand.New(rand.NewPCG(seed, 0x6b616c6168)),
		checks: map[string]*crossCheck{}, issued: map[string]issueInfo{}, quarantined: map[string]Quarantine{}, answeredBy: map[string][]string{}, heard: map[string]time.Time{},
		lastTest: map[engine.Key]lastTest{}, draws: map[string]*checkDraw{}}
	co.localCtx, co.localStop = context.WithCancel(context.Background())
	co.watchT = defaultWatch
	if cfg.watch != nil {
		co.watchT = *cfg.watch
	}
	co.st = Status{Params: p, State: "running"}
	co.st.Lower, co.st.Upper = p.wholeRange()
	return co, nil
}

// wholeRange is what is known of the root's value before any test: its
// stores' difference plus or minus every seed on the board (0, 0 when the
// parameters do not hold up).
func (p Params) wholeRange() (lo, hi int) {
	_, pos, err := p.root()
	if err != nil {
		return 0, 0
	}
	b := pos.Board
	return b.StoreDiff() - b.Seeds(), b.StoreDiff() + b.Seeds()
}

// coordinatorTable is the size of the coordinator's own table: a quarter
// of the session policy's for the root's board and the campaign's
// database of dbSeeds seeds (negative for none), at least 32 MiB. Its
// guesses deepen to DefaultGuessDepth on every root move's board, as
// 'kalah solve' does in its table of the policy's size.
func coordinatorTable(r engine.Variant, pos engine.Position, dbSeeds int) int64 {
	return max(solver.DefaultTableSizeFor(r.Pits, pos.Board.Seeds(), max(dbSeeds, 0))/4, 32<<20)
}

func (co *Coordinator) logf(format string, a ...any) {
	if co.cfg.Log != nil {
		co.cfg.Log.Printf(co.p.Name+": "+format, a...)
	}
}

// Close releases the coordinator's own session, once the search on it
// has stopped: a check the coordinator runs itself may outlast the run
// (its worker's answer settled it meanwhile), and closing the session
// unmaps the table and database it reads.
func (co *Coordinator) Close() {
	co.localStop()
	co.localMu.Lock()
	defer co.localMu.Unlock()
	if !co.localClosed {
		co.localClosed = true
		co.local.Close()
	}
}

// Run drives the campaign to its end and returns its record, also kept in
// the state bucket. A finished campaign returns its record at once. When
// ctx ends first, the units in flight stay on the queue and their answers
// wait on the results stream for the next run.
func (co *Coordinator) Run(ctx context.Context) (*results.Record, error) {
	if rec, err := LoadRecord(ctx, co.c, co.p.Name); err == nil {
		return rec, nil
	}
	ctx, stopRun := context.WithCancel(ctx)
	defer stopRun()
	co.stopRun = stopRun
	co.c.State.Delete(ctx, co.p.Name+".stop") // a new start undoes 'campaign stop'
	co.start, co.runCtx = time.Now(), ctx
	if old, err := LoadStatus(ctx, co.c, co.p.Name); err == nil {
		co.st = *old // counters go on from the last run
		co.st.State, co.st.Runs = "running", old.Runs+1
	} else {
		co.st.Runs = 1
	}
	co.st.Restarts = co.st.Runs - 1
	co.st.VerifyShare = co.cfg.VerifyShare
	prevSeconds := co.st.Seconds
	for _, w := range co.st.Workers {
		if t, err := time.Parse(time.RFC3339, w.LastHeard); err == nil {
			co.heard[w.ID()] = t
		}
	}
	for _, q := range loadQuarantine(ctx, co.c, co.p.Name) {
		co.quarantined[q.Worker.ID()] = q
	}
	if err := co.loadTable(ctx); err != nil {
		return nil, fmt.Errorf("reading the results bucket: %w", err)
	}
	co.loadChecks(ctx)
	alive, err := co.c.NC.Subscribe(aliveSubject(co.p.Name), co.alive)
	if err != nil {
		return nil, fmt.Errorf("heartbeats: %w", err)
	}
	defer alive.Unsubscribe()
	cons, err := co.c.JS.CreateOrUpdateConsumer(ctx, resultStream, jetstream.ConsumerConfig{
		Durable: "coord-" + co.p.Name, FilterSubject: resultSubject(co.p.Name),
		AckPolicy: jetstream.AckExplicitPolicy, AckWait: 10 * time.Second, MaxDeliver: -1,
	})
	if err != nil {
		return nil, fmt.Errorf("results stream: %w", err)
	}
	co.results = cons
	// Answers that came while no coordinator ran go in first.
	for {
		batch, err := cons.FetchNoWait(100)
		if err != nil {
			return nil, err
		}
		n := 0
		for msg := range batch.Messages() {
			co.take(ctx, msg)
			n++
		}
		if n == 0 {
			break
		}
	}
	co.reissueChecks(ctx)
	cc, err := cons.Consume(func(msg jetstream.Msg) { co.take(context.Background(), msg) }, jetstream.PullMaxMessages(50))
	if err != nil {
		return nil, err
	}
	stopStatus := co.statusLoop(ctx, prevSeconds)
	stopWatch := co.watchLoop(ctx)
	rec, err := co.searchChecked(ctx)
	stopWatch()
	stopStatus()
	// On the way out, the answers already fetched are taken in too, so
	// that none waits out its ack wait before the next run sees it.
	cc.Drain()
	<-cc.Closed()
	co.mu.Lock()
	co.st.Seconds = prevSeconds + time.Since(co.start).Seconds()
	co.st.Stalled = 0
	if err != nil {
		co.st.State = "stopped"
	} else {
		co.st.State = "done"
	}
	st := co.st
	co.mu.Unlock()
	wctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err != nil {
		SaveStatus(wctx, co.c, &st)
		return nil, err
	}
	rec.Seconds = float64(int64(st.Seconds*1000)) / 1000
	data, _ := json.Marshal(rec)
	if _, err := co.c.State.Put(wctx, co.p.Name+".record", data); err != nil {
		return rec, err
	}
	return rec, SaveStatus(wctx, co.c, &st)
}

// searchChecked runs the search and settles its checks (check.go),
// starting the search again, from the answers left, each time a
// quarantine voids it.
func (co *Coordinator) searchChecked(ctx context.Context) (*results.Record, error) {
	for {
		sctx, cancel := context.WithCancel(ctx)
		co.mu.Lock()
		co.searchCancel = cancel
		co.mu.Unlock()
		rec, err := co.search(sctx)
		if ctx.Err() == nil && (err == nil || !errors.Is(err, context.Canceled)) {
			// Even a search that failed waits for its checks: they may
			// name the cause. A search that found the answers
			// inconsistent (a wrong answer can make the line
			// unfollowable) has every answer of the run checked.
			serr := co.settle(sctx)
			if err != nil && serr == nil && co.cfg.VerifyShare > 0 {
				co.logf("the search failed (%v): every answer of this run is checked", err)
				co.checkEverything(sctx)
				serr = co.settle(sctx)
			}
			if err == nil {
				err = serr
			}
		}
		cancel()
		co.mu.Lock()
		again := co.restart && ctx.Err() == nil
		co.restart = false
		if again {
			co.st.SearchRestarts++
			co.table = map[engine.Key]bounds{}
		}
		co.mu.Unlock()
		if !again {
			return rec, err
		}
		if err := co.loadTable(ctx); err != nil {
			return nil, fmt.Errorf("reading the results bucket: %w", err)
		}
	}
}

// loadTable reads every answer of the campaign's rules from the results
// bucket: what earlier runs and other campaigns proved.
func (co *Coordinator) loadTable(ctx context.Context) error {
	kl, err := co.c.Results.ListKeysFiltered(ctx, keyPrefix(co.rules)+">")
	if err != nil {
		return err
	}
	var keys, crossed []string
	other := 0
	for k := range kl.Keys() {
		keys = append(keys, k)
	}
	for _, k := range keys {
		e, err := co.c.Results.Get(ctx, k)
		if err != nil {
			continue
		}
		res, b, gamma, err := parseResult(e.Value(), co.rules)
		if err != nil {
			co.logf("ignoring bucket entry %s: %v", k, err)
			continue
		}
		if co.p.mismatch(res.Rule, res.Build, res.EGDBSeeds) != "" {
			other++
			continue
		}
		id := res.Identity().ID()
		co.mu.Lock()
		_, q := co.quarantined[id]
		if !q {
			crossed = append(crossed, co.note(b, gamma, res.Value, k)...)
			co.answeredBy[id] = append(co.answeredBy[id], k)
		}
		co.mu.Unlock()
		if q {
			co.c.Results.Delete(ctx, k) // a quarantined worker's, left by a run cut short
		}
	}
	co.logf("%d answers of %v in the results bucket, %d of them of another build or database depth (not used)", len(keys), co.rules, other)
	co.checkContradicted(ctx, crossed)
	if co.cfg.afterLoad != nil {
		co.cfg.afterLoad()
	}
	return nil
}

// note adds the answer v of the test (b, gamma) to the table, as the
// answer key ("" for a bound the search derived); co.mu held. Exact
// answers never contradict each other: when the new bound crosses the
// opposite one, one of them is wrong, and note counts it and returns the
// answers on either side, for checks (checkContradicted).
func (co *Coordinator) note(b engine.Board, gamma, v int, key string) []string {
	k := b.Key()
	t, ok := co.table[k]
	if !ok {
		s := b.Seeds()
		t = bounds{lo: -s, hi: s}
	}
	var other string
	crossed := false
	if v >= gamma {
		crossed, other = v > t.hi, t.hiKey
		if v > t.lo {
			t.lo, t.loKey = v, key
		}
	} else {
		crossed, other = v < t.lo, t.loKey
		if v < t.hi {
			t.hi, t.hiKey = v, key
		}
	}
	co.table[k] = t
	if !crossed {
		return nil
	}
	co.st.BoundsCrossed++
	var keys []string
	for _, x := range []string{key, other} {
		if x != "" {
			keys = append(keys, x)
		}
	}
	co.logf("the bounds on %s cross (%d above %d): answers %v are checked", k, t.lo, t.hi, keys)
	return keys
}

// checkContradicted checks the answers of keys (note), unless checks are
// off (a share of 0) or they are checked already.
func (co *Coordinator) checkContradicted(ctx context.Context, keys []string) {
	if len(keys) > 0 && co.cfg.VerifyShare > 0 {
		co.checkKeys(ctx, keys)
	}
}

// lookup answers the test (b, gamma) from the table when the bounds
// known decide it; co.mu held.
func (co *Coordinator) lookup(b engine.Board, gamma int) (int, bool) {
	t, ok := co.table[b.Key()]
	switch {
	case !ok:
		return 0, false
	case t.lo >= gamma:
		return t.lo, true
	case t.hi < gamma:
		return t.hi, true
	}
	return 0, false
}

// take handles one message of the results stream: a result is trusted
// only when it is well formed, for this campaign's rules, within its
// board's seeds, for a unit the campaign issued, and computed with the
// campaign's signature (rule, build, database depth); anything else is
// logged and dropped, and a unit whose answer had another signature is
// queued again.
func (co *Coordinator) take(ctx context.Context, msg jetstream.Msg) {
	received := time.Now()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	res, b, gamma, err := parseResult(msg.Data(), co.rules)
	if err == nil && res.Campaign != co.p.Name {
		err = fmt.Errorf("%w: result for campaign %q on %s", ErrBadResult, res.Campaign, msg.Subject())
	}
	if err == nil && res.Check != "" {
		if d := co.p.mismatch(res.Rule, res.Build, res.EGDBSeeds); d != "" {
			co.logf("REJECTED the check answer to %s from worker %q: it was computed with %s", res.Key, res.Worker, d)
			co.mu.Lock()
			co.st.Mismatched++
			c := co.checks[res.Check]
			co.mu.Unlock()
			msg.Term()
			if c != nil {
				co.issueCheck(c)
			}
			return
		}
		co.takeCheck(msg, res)
		return
	}
	if err == nil {
		if _, gerr := co.c.State.Get(ctx, co.p.Name+".unit."+res.Key); unavailable(gerr) {
			msg.Nak() // taken when the cluster answers again
			return
		} else if gerr != nil {
			err = fmt.Errorf("%w: unit %s was never issued by %q (%v)", ErrBadResult, res.Key, co.p.Name, gerr)
		}
	}
	if err == nil {
		if d := co.p.mismatch(res.Rule, res.Build, res.EGDBSeeds); d != "" {
			co.logf("REJECTED the answer to %s from worker %q: it was computed with %s; the unit goes out again", res.Key, res.Worker, d)
			co.mu.Lock()
			co.st.Mismatched++
			co.mu.Unlock()
			msg.Term()
			co.reissue(res.Key)
			return
		}
	}
	if err != nil {
		co.logf("rejected: %v", err)
		co.mu.Lock()
		co.st.Rejected++
		co.mu.Unlock()
		msg.Term()
		return
	}
	id := res.Identity().ID()
	co.mu.Lock()
	_, quarantined := co.quarantined[id]
	if quarantined {
		co.st.RefusedResults++
		co.st.workerRow(res).Refused++
	}
	co.mu.Unlock()
	if quarantined {
		co.logf("REFUSED the answer to %s from quarantined worker %s; the unit goes out again without it", res.Key, id)
		msg.Term()
		co.reissue(res.Key)
		return
	}
	// The same result message again (the coordinator held it past the
	// consumer's ack wait, or acked it just before a crash): its answer
	// is in the bucket byte for byte. It is noted (a no-op unless the
	// crash came between the bucket and the table) but not counted twice.
	// So is a late answer to a unit answered already and waited for no
	// more (its worker was cut off past the ack wait, and the unit went
	// to another): the first answer taken stays.
	repeated := false
	if e, gerr := co.c.Results.Get(ctx, res.Key); gerr == nil && (bytes.Equal(e.Value(), msg.Data()) || co.late(res.Key, e.Value())) {
		repeated = true
	} else if gerr != nil && !errors.Is(gerr, jetstream.ErrKeyNotFound) {
		co.logf("results bucket: %v (the result stays on the stream)", gerr)
		msg.Nak()
		return
	} else if _, err := co.c.Results.Put(ctx, res.Key, msg.Data()); err != nil {
		co.logf("results bucket: %v (the result stays on the stream)", err)
		msg.Nak()
		return
	}
	co.mu.Lock()
	crossed := co.note(b, gamma, res.Value, res.Key)
	var tr *Trace
	if ti, ok := co.issued[res.Key]; ok && !repeated {
		tr = &Trace{ID: ti.id, Key: res.Key, Parent: ti.parent, Cause: ti.cause, Issued: unixSeconds(ti.at), Received: unixSeconds(received), Finished: unixSeconds(time.Now()),
			Nodes: res.Nodes, Seconds: res.Seconds, Worker: res.Identity().ID(), Threads: res.Threads, Prefer: ti.prefer}
		delete(co.issued, res.Key)
	}
	if p := co.pending[res.Key]; p != nil && !p.closed {
		p.v, p.closed = res.Value, true
		close(p.done)
		delete(co.pending, res.Key)
	}
	if repeated {
		co.st.Repeated++
		co.mu.Unlock()
		msg.Ack()
		return
	}
	co.answeredBy[id] = append(co.answeredBy[id], res.Key)
	co.heardFrom(res)
	co.st.Done++
	co.st.Nodes += res.Nodes
	co.st.SharedHits += res.SharedHits
	if res.Stats != nil {
		co.st.Stats.Add(*res.Stats)
	}
	co.st.CPUSeconds += res.Seconds
	if res.Attempt > 1 && (tr == nil || tr.Prefer == "") {
		co.st.Redelivered++ // a preferred unit's hand-backs are deliveries too
	}
	if tr != nil && tr.Prefer != "" {
		co.st.Affine++
		if tr.Prefer == id {
			co.st.AffineKept++
		}
	}
	co.lastTest[b.Key()] = lastTest{id: id, seconds: res.Seconds}
	co.st.addWorker(res)
	co.mu.Unlock()
	if tr != nil {
		co.saveTrace(ctx, *tr)
	}
	msg.Ack()
	co.checkContradicted(ctx, crossed)
	co.maybeCheck(res, b, gamma)
	if co.cfg.onResult != nil {
		co.cfg.onResult(res)
	}
}
