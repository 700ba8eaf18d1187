package campaign

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/egdb"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/results"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// The tests run an embedded server on a free loopback port, workers in
// the process, and compare with kalah.Session.Solve.

// midGame is a Kalah(6,x) position in the middle of a game, 26 seeds in
// the pits, North to move.
const midGame = "3,0,5,1,0,2,14,2,4,0,3,1,5,12"

func testLog(t *testing.T) *log.Logger {
	if testing.Verbose() {
		return log.New(os.Stderr, "", log.Lmicroseconds)
	}
	return nil
}

// bucketKeys lists the keys of kv that match filter.
func bucketKeys(t *testing.T, kv jetstream.KeyValue, filter string) []string {
	t.Helper()
	kl, err := kv.ListKeysFiltered(context.Background(), filter)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range kl.Keys() {
		keys = append(keys, k)
	}
	return keys
}

// env is a server and a connection for the coordinator.
type env struct {
	t    *testing.T
	srv  *Server
	c    *Conn
	dir  string
	opts []nats.Option // client options of the workers' connections
	urls string        // the servers' URLs, when not srv's
}

func newEnv(t *testing.T, ackWait time.Duration) *env {
	t.Helper()
	dir := t.TempDir()
	srv, err := StartServer(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	c, err := Connect(context.Background(), srv.URL(), ackWait)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return &env{t: t, srv: srv, c: c, dir: dir}
}

// workers starts n workers on their own connections; the returned
// function stops them.
func (e *env) workers(n int, cfg func(i int, c *WorkerConfig)) ([]*Worker, func()) {
	e.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var ws []*Worker
	for i := 0; i < n; i++ {
		u := e.urls
		if u == "" {
			u = e.srv.URL()
		}
		c, err := Connect(ctx, u, e.c.AckWait, e.opts...)
		if err != nil {
			e.t.Fatal(err)
		}
		wc := WorkerConfig{Name: fmt.Sprintf("w%d", i+1), Threads: 1, TableSize: 16 << 20, NoEGDB: true, Log: testLog(e.t)}
		if cfg != nil {
			cfg(i, &wc)
		}
		w := NewWorker(c, wc)
		ws = append(ws, w)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer c.Close()
			if err := w.Run(ctx); err != nil && !errors.Is(err, errCrashed) {
				e.t.Errorf("worker: %v", err)
			}
		}()
	}
	return ws, func() { cancel(); wg.Wait() }
}

func params(t *testing.T, name string, r engine.Variant, seeds int, pos string, side engine.Side) Params {
	t.Helper()
	var p engine.Position
	var err error
	if pos == "" {
		p, err = r.StartPosition(seeds)
	} else {
		p, err = engine.ParsePosition(pos, side)
		seeds = 0
	}
	if err != nil {
		t.Fatal(err)
	}
	pr := NewParams(name, r, seeds, p)
	pr.LocalSeeds = 6 // ship nearly everything
	return pr
}

// coordinate runs a coordinator to the end.
func (e *env) coordinate(ctx context.Context, p Params, cfg CoordinatorConfig) (*results.Record, error) {
	e.t.Helper()
	if err := Create(ctx, e.c, p); err != nil {
		return nil, err
	}
	cfg.Log = testLog(e.t)
	cfg.StatusEvery = 200 * time.Millisecond
	co, err := NewCoordinator(e.c, p, cfg)
	if err != nil {
		return nil, err
	}
	defer co.Close()
	return co.Run(ctx)
}

// solved runs a coordinator to the end, checks its record against the
// local solver (check) and returns it with the campaign's final status.
func (e *env) solved(p Params, cfg CoordinatorConfig) (*results.Record, *Status) {
	e.t.Helper()
	rec, err := e.coordinate(context.Background(), p, cfg)
	if err != nil {
		e.t.Fatal(err)
	}
	check(e.t, p, rec)
	st, err := Info(context.Background(), e.c, p.Name)
	if err != nil {
		e.t.Fatal(err)
	}
	return rec, st
}

// buildDB builds r's endgame database up to seeds in a temporary
// directory and returns the directory.
func buildDB(t *testing.T, r engine.Variant, seeds int) string {
	t.Helper()
	dir := t.TempDir()
	db, err := egdb.BuildDir(context.Background(), dir, r, seeds, egdb.Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	return dir
}

// reference solves the campaign's root with the local solver (one
// thread, no database, no cache): the value, every root move's and a line.
func reference(t *testing.T, p Params) *kalah.Result {
	t.Helper()
	r, pos, err := p.root()
	if err != nil {
		t.Fatal(err)
	}
	k, err := kalah.Open(kalah.Config{Pits: r.Pits, Seeds: 1, Rule: r.Rule, Threads: 1, TableSize: 16 << 20, NoEGDB: true, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	want, err := k.Solve(context.Background(), pos)
	if err != nil {
		t.Fatal(err)
	}
	return want
}

// check compares a campaign's record with the local solver's answer, and
// replays its principal variation.
func check(t *testing.T, p Params, rec *results.Record) {
	t.Helper()
	want := reference(t, p)
	r, pos, err := p.root()
	if err != nil {
		t.Fatal(err)
	}
	if rec.Value != want.Value || rec.Result != want.Record.Result {
		t.Errorf("%s: value %d %s, want %d %s", p.Name, rec.Value, rec.Result, want.Value, want.Record.Result)
	}
	if fmt.Sprint(rec.Moves) != fmt.Sprint(want.Record.Moves) || strings.Join(rec.Best, ",") != strings.Join(want.Record.Best, ",") {
		t.Errorf("%s: moves %v best %v, want %v best %v", p.Name, rec.Moves, rec.Best, want.Record.Moves, want.Record.Best)
	}
	line, err := r.ParsePaper(pos, rec.PV)
	if err != nil {
		t.Fatalf("%s: pv %q: %v", p.Name, rec.PV, err)
	}
	end, err := r.PlayLine(pos, line)
	if err != nil || !end.Board.Over() {
		t.Fatalf("%s: pv %q does not end the game (%v)", p.Name, rec.PV, err)
	}
	d := end.SouthDiff()
	if pos.ToMove == engine.North {
		d = -d
	}
	if d != rec.Value {
		t.Errorf("%s: pv %q ends at %d, value %d", p.Name, rec.PV, d, rec.Value)
	}
	if rec.Nodes <= 0 || rec.Rule != r.Rule.String() || rec.Position != pos.String() {
		t.Errorf("%s: record %+v", p.Name, rec)
	}
}

// TestDeeperSplits: units shipped 2 and 3 plies below the root moves give
// the local solver's values too, with the coordinator's brothers run in
// parallel and cancelled at every level above them.
func TestDeeperSplits(t *testing.T) {
	for _, split := range []int{2, 3} {
		// A server each: a campaign also takes the answers the bucket
		// holds from another one of the same position.
		e := newEnv(t, 5*time.Second)
		_, stop := e.workers(2, nil)
		for _, c := range []engine.Rule{engine.NoEmptyCapture, engine.EmptyCapture} {
			p := params(t, fmt.Sprintf("k44-%s-%d", ruleToken(c), split), engine.Variant{Pits: 4, Rule: c}, 4, "", engine.South)
			p.Split = split
			_, st := e.solved(p, CoordinatorConfig{})
			if st.Done == 0 || st.Done > st.Issued {
				t.Errorf("split %d: %d units issued, %d answered", split, st.Issued, st.Done)
			}
		}
		stop()
	}
}

func TestCampaignMatchesSolve(t *testing.T) {
	e := newEnv(t, 5*time.Second)
	_, stop := e.workers(2, nil)
	defer stop()
	for _, c := range []engine.Rule{engine.NoEmptyCapture, engine.EmptyCapture} {
		r := engine.Variant{Pits: 4, Rule: c}
		p := params(t, "k43-"+ruleToken(c), r, 3, "", engine.South)
		rec, err := e.coordinate(context.Background(), p, CoordinatorConfig{})
		if err != nil {
			t.Fatal(err)
		}
		check(t, p, rec)
		if rec.Seeds != 3 {
			t.Errorf("seeds %d", rec.Seeds)
		}
		r6 := engine.Variant{Pits: 6, Rule: c}
		p = params(t, "mid-"+ruleToken(c), r6, 0, midGame, engine.North)
		rec, err = e.coordinate(context.Background(), p, CoordinatorConfig{})
		if err != nil {
			t.Fatal(err)
		}
		check(t, p, rec)
		st, err := Info(context.Background(), e.c, p.Name)
		if err != nil {
			t.Fatal(err)
		}
		if st.State != "done" || st.Done == 0 || st.Lower != rec.Value || st.Upper != rec.Value {
			t.Errorf("status %+v", st)
		}
		// A second run answers from the record; a second campaign on the
		// same position from the bucket, without a single unit.
		again, err := e.coordinate(context.Background(), p, CoordinatorConfig{})
		if err != nil || again.Value != rec.Value {
			t.Errorf("rerun: %v %v", again, err)
		}
		p.Name += "-again"
		again, err = e.coordinate(context.Background(), p, CoordinatorConfig{})
		if err != nil || again.Value != rec.Value {
			t.Fatalf("second campaign: %v %v", again, err)
		}
		if st, _ := Info(context.Background(), e.c, p.Name); st.Issued != 0 {
			t.Errorf("second campaign issued %d units", st.Issued)
		}
	}
}

func TestWorkerVanishesMidUnit(t *testing.T) {
	e := newEnv(t, time.Second)
	var once sync.Once
	crashed := false
	_, stop := e.workers(2, func(i int, c *WorkerConfig) {
		if i == 0 {
			c.crash = func(Unit) bool {
				once.Do(func() { crashed = true })
				return crashed
			}
		}
	})
	defer stop()
	p := params(t, "vanish", engine.Variant{Pits: 4, Rule: engine.NoEmptyCapture}, 3, "", engine.South)
	rec, err := e.coordinate(context.Background(), p, CoordinatorConfig{})
	if err != nil {
		t.Fatal(err)
	}
	check(t, p, rec)
	st, _ := Info(context.Background(), e.c, p.Name)
	if !crashed || st.Redelivered < 1 {
		t.Errorf("crashed %v, redelivered %d", crashed, st.Redelivered)
	}
	for _, w := range st.Workers {
		if w.Name == "w1" {
			t.Errorf("the vanished worker answered %d units", w.Units)
		}
	}
}

// TestResultDeliveredTwice: a result message that reaches the coordinator
// twice (held past the results consumer's ack wait, or around a crash) is
// taken once: units_done counts distinct answers, results_repeated the
// rest.
func TestResultDeliveredTwice(t *testing.T) {
	e := newEnv(t, 5*time.Second)
	_, stop := e.workers(1, func(i int, c *WorkerConfig) { c.echo = true })
	defer stop()
	p := params(t, "echo", engine.Variant{Pits: 4, Rule: engine.EmptyCapture}, 3, "", engine.South)
	var mu sync.Mutex
	taken := map[string]int{}
	var nodes int64
	rec, err := e.coordinate(context.Background(), p, CoordinatorConfig{onResult: func(r Result) {
		mu.Lock()
		defer mu.Unlock()
		taken[r.Key]++
		nodes += r.Nodes
	}})
	if err != nil {
		t.Fatal(err)
	}
	check(t, p, rec)
	st, _ := Info(context.Background(), e.c, p.Name)
	mu.Lock()
	defer mu.Unlock()
	for k, n := range taken {
		if n > 1 {
			t.Errorf("the answer to %s was taken %d times", k, n)
		}
	}
	if st.Done != int64(len(taken)) || st.Nodes != nodes {
		t.Errorf("units_done %d, nodes %d; distinct answers %d, their nodes %d", st.Done, st.Nodes, len(taken), nodes)
	}
	if st.Repeated < 1 || st.Done > st.Issued {
		t.Errorf("results_repeated %d, units_done %d, units_issued %d", st.Repeated, st.Done, st.Issued)
	}
}

func TestCoordinatorRestart(t *testing.T) {
	e := newEnv(t, 5*time.Second)
	var smu sync.Mutex
	solvedBy := map[string][]string{} // unit -> the workers that answered it
	_, stop := e.workers(2, func(i int, c *WorkerConfig) {
		c.forge = func(r *Result) {
			smu.Lock()
			solvedBy[r.Key] = append(solvedBy[r.Key], r.Worker)
			smu.Unlock()
		}
	})
	defer stop()
	p := params(t, "restart", engine.Variant{Pits: 6, Rule: engine.EmptyCapture}, 0, midGame, engine.North)
	var mu sync.Mutex
	seen := map[string]int{}
	onResult := func(cancel context.CancelFunc, after int) func(Result) {
		return func(r Result) {
			mu.Lock()
			defer mu.Unlock()
			seen[r.Key]++
			if len(seen) == after && cancel != nil {
				cancel()
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	_, err := e.coordinate(ctx, p, CoordinatorConfig{onResult: onResult(cancel, 4)})
	if err == nil {
		t.Fatal("the first run was not stopped")
	}
	st, err := Info(context.Background(), e.c, p.Name)
	if err != nil || st.State != "stopped" {
		t.Fatalf("status after the stop: %+v %v", st, err)
	}
	rec, err := e.coordinate(context.Background(), p, CoordinatorConfig{onResult: onResult(nil, 0)})
	if err != nil {
		t.Fatal(err)
	}
	check(t, p, rec)
	for k, n := range seen {
		if n > 1 {
			t.Errorf("unit %s answered %d times", k, n)
		}
	}
	st, _ = Info(context.Background(), e.c, p.Name)
	if st.Runs != 2 || st.Restarts != 1 || int64(len(seen)) != st.Done {
		t.Errorf("runs %d, answers %d, done %d", st.Runs, len(seen), st.Done)
	}
	// No unit was solved twice, and every answer taken was solved. A
	// worker may still finish a unit the coordinator no longer needed
	// (a brother's answer settled it, or the search ended while it ran):
	// that answer is solved but never taken, so solved >= done.
	stop()
	smu.Lock()
	defer smu.Unlock()
	for k, by := range solvedBy {
		if len(by) > 1 {
			t.Errorf("unit %s solved %d times (%v)", k, len(by), by)
		}
	}
	for k := range seen {
		if len(solvedBy[k]) == 0 {
			t.Errorf("unit %s answered but never solved", k)
		}
	}
}

func TestUnreachable(t *testing.T) {
	t0 := time.Now()
	_, err := Connect(context.Background(), "nats://127.0.0.1:1", 0)
	if !errors.Is(err, ErrUnreachable) {
		t.Fatalf("err %v", err)
	}
	if d := time.Since(t0); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}

func TestConflict(t *testing.T) {
	e := newEnv(t, time.Second)
	ctx := context.Background()
	p := params(t, "c1", engine.Variant{Pits: 4, Rule: engine.NoEmptyCapture}, 3, "", engine.South)
	if err := Create(ctx, e.c, p); err != nil {
		t.Fatal(err)
	}
	if err := Create(ctx, e.c, p); err != nil {
		t.Fatalf("same parameters: %v", err)
	}
	q := p
	q.Rule = engine.EmptyCapture.String()
	if err := Create(ctx, e.c, q); !errors.Is(err, ErrConflict) {
		t.Fatalf("other rule: %v", err)
	}
	for _, q := range []Params{func() Params { q := p; q.Build = "x"; return q }(), func() Params { q := p; q.EGDBSeeds = 20; return q }()} {
		if err := Create(ctx, e.c, q); !errors.Is(err, ErrConflict) {
			t.Fatalf("other build or database: %v", err)
		}
	}
	if got, _ := LoadParams(ctx, e.c, "c1"); got != p {
		t.Errorf("parameters changed to %+v", got)
	}
	if err := Create(ctx, e.c, Params{Name: "bad name"}); err == nil {
		t.Error("bad name accepted")
	}
}

func TestMalformedResults(t *testing.T) {
	e := newEnv(t, 5*time.Second)
	ctx := context.Background()
	r := engine.Variant{Pits: 4, Rule: engine.NoEmptyCapture}
	p := params(t, "bad", r, 3, "", engine.South)
	start, _ := r.StartPosition(3)
	never := UnitKey(r, start.Board, 2)
	bad := []string{
		`not json`,
		`{"campaign":"bad","key":"` + never + `","value":2}`,                 // never issued
		`{"campaign":"bad","key":"` + never + `","value":99}`,                // out of range
		`{"campaign":"bad","key":"nec.4.zz.00.g256","value":0}`,              // bad key
		`{"campaign":"bad","key":"` + never + `","value":0,"surprise":true}`, // unknown field
		`{"campaign":"other","key":"` + never + `","value":0}`,               // another campaign's
	}
	for _, b := range bad {
		if _, err := e.c.JS.Publish(ctx, resultSubject("bad"), []byte(b)); err != nil {
			t.Fatal(err)
		}
	}
	_, stop := e.workers(2, nil)
	defer stop()
	rec, err := e.coordinate(ctx, p, CoordinatorConfig{})
	if err != nil {
		t.Fatal(err)
	}
	check(t, p, rec)
	st, _ := Info(ctx, e.c, p.Name)
	if st.Rejected != int64(len(bad)) {
		t.Errorf("rejected %d of %d", st.Rejected, len(bad))
	}
	if e2, err := e.c.Results.Get(ctx, never); err == nil && strings.Contains(string(e2.Value()), `"value":99`) {
		t.Error("an out-of-range result reached the bucket")
	}
}

func TestKeyRoundTrip(t *testing.T) {
	r := engine.Variant{Pits: 6, Rule: engine.EmptyCapture}
	p, _ := engine.ParsePosition(midGame, engine.North)
	for _, g := range []int{-26, -1, 0, 3, 26} {
		k := UnitKey(r, p.Board, g)
		r2, b, g2, err := ParseKey(k)
		if err != nil || r2 != r || b.Key() != p.Board.Key() || g2 != g {
			t.Errorf("%s: %v %v %v %d", k, err, r2, b, g2)
		}
	}
	for _, k := range []string{"", "nec.6.x.y.g1", "xx.6.0000000000000001.0000000000000001.g256",
		"nec.6.0000000000000001.0000000000000000.g256", "nec.6.0000000000000001.0000000000000001.g999",
		"nec.4.0000010000000001.0000000000000001.g256"} {
		if _, _, _, err := ParseKey(k); err == nil {
			t.Errorf("%q accepted", k)
		}
	}
}

// TestStopThenStart stops a campaign after its first answer and starts it
// again: the second run finishes with the right value. The coordinator
// sees a stop at its next status tick; until then the test holds up the
// answers (onResult runs on the goroutine that takes them in), so that the
// campaign cannot finish first.
func TestStopThenStart(t *testing.T) {
	e := newEnv(t, 5*time.Second)
	_, stop := e.workers(2, nil)
	defer stop()
	p := params(t, "stopped", engine.Variant{Pits: 6, Rule: engine.NoEmptyCapture}, 0, midGame, engine.North)
	e.stopAfterFirstAnswer(p)
	rec, err := e.coordinate(context.Background(), p, CoordinatorConfig{})
	if err != nil {
		t.Fatal(err)
	}
	check(t, p, rec)
}

// stopAfterFirstAnswer creates campaign p and runs its coordinator until
// the first answer comes in, then stops the campaign ('kalah campaign
// stop') and waits for the coordinator to end, stopped.
func (e *env) stopAfterFirstAnswer(p Params) {
	t := e.t
	t.Helper()
	if err := Create(context.Background(), e.c, p); err != nil {
		t.Fatal(err)
	}
	var co *Coordinator
	var once sync.Once
	cfg := CoordinatorConfig{Log: testLog(t), StatusEvery: 100 * time.Millisecond, onResult: func(Result) {
		once.Do(func() {
			if err := Stop(context.Background(), e.c, p.Name); err != nil {
				t.Error(err)
				return
			}
			for deadline := time.Now().Add(time.Minute); !co.stopping() && time.Now().Before(deadline); {
				time.Sleep(10 * time.Millisecond)
			}
		})
	}}
	co, err := NewCoordinator(e.c, p, cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, err = co.Run(context.Background())
	co.Close()
	if err == nil {
		t.Fatal("not stopped")
	}
}

// A unit that takes several ack waits is kept by its worker through its
// heartbeats: never delivered twice.
func TestHeartbeatsKeepLongUnits(t *testing.T) {
	// The unit takes two and a half ack waits; the heartbeats (every
	// third of one) must keep it. An ack wait of one second let a
	// heartbeat come late on a starved machine (a niced test run beside
	// two busy cores): 2 s leaves room.
	e := newEnv(t, 2*time.Second)
	_, stop := e.workers(2, func(i int, c *WorkerConfig) {
		if i == 0 {
			c.delay = firstUnitTakes(5 * time.Second)
		}
	})
	defer stop()
	p := params(t, "long", engine.Variant{Pits: 4, Rule: engine.EmptyCapture}, 3, "", engine.South)
	rec, err := e.coordinate(context.Background(), p, CoordinatorConfig{})
	if err != nil {
		t.Fatal(err)
	}
	check(t, p, rec)
	st, _ := Info(context.Background(), e.c, p.Name)
	if st.Redelivered != 0 {
		t.Errorf("%d units delivered again", st.Redelivered)
	}
	if len(st.Workers) == 0 || st.Workers[0].Name != "w1" {
		t.Errorf("the slow worker answered nothing: %+v", st.Workers)
	}
}

// firstUnitTakes is a worker's delay (WorkerConfig.delay) that holds the
// first unit it solves for d and no other.
func firstUnitTakes(d time.Duration) func(Unit) time.Duration {
	var once sync.Once
	return func(Unit) time.Duration {
		wait := time.Duration(0)
		once.Do(func() { wait = d })
		return wait
	}
}

// waitFor polls the campaign's status until ok holds (the test fails
// after a minute: something that should happen did not).
func (e *env) waitFor(name string, ok func(*Status) bool) {
	e.t.Helper()
	for i := 0; i < 600; i++ {
		if st, err := Info(context.Background(), e.c, name); err == nil && ok(st) {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	st, _ := Info(context.Background(), e.c, name)
	e.t.Fatalf("campaign %s: the status never came: %+v", name, st)
}

// Workers of another database depth or build, or with a database of the
// other rule only, hand the units back; the campaign is solved by the
// worker that matches, and says who refused.
func TestWorkersOfAnotherSignature(t *testing.T) {
	e := newEnv(t, 5*time.Second)
	r := engine.Variant{Pits: 4, Rule: engine.NoEmptyCapture}
	dbDir := buildDB(t, r, 4)
	otherRule := buildDB(t, engine.Variant{Pits: 4, Rule: engine.EmptyCapture}, 4)
	p := params(t, "sig", r, 3, "", engine.South)
	if p.EGDBSeeds != -1 || p.Build != CurrentBuild() {
		t.Fatalf("declared %q %d", p.Build, p.EGDBSeeds)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type out struct {
		rec *results.Record
		err error
	}
	done := make(chan out, 1)
	go func() {
		rec, err := e.coordinate(ctx, p, CoordinatorConfig{})
		done <- out{rec, err}
	}()
	odd, stopOdd := e.workers(3, func(i int, c *WorkerConfig) {
		switch i {
		case 0:
			c.Name, c.NoEGDB, c.EGDBDir = "deep", false, dbDir
		case 1:
			c.Name, c.build = "other", "0123abcd"
		default:
			c.Name, c.NoEGDB, c.EGDBDir = "otherrule", false, otherRule
		}
	})
	defer stopOdd()
	e.waitFor(p.Name, func(st *Status) bool { return len(st.Refused) == 3 })
	_, stop := e.workers(1, nil)
	defer stop()
	o := <-done
	if o.err != nil {
		t.Fatal(o.err)
	}
	check(t, p, o.rec)
	st, _ := Info(context.Background(), e.c, p.Name)
	for _, w := range odd {
		if w.Solved.Load() != 0 || w.Refused.Load() == 0 {
			t.Errorf("%s: %d solved, %d refused", w.cfg.Name, w.Solved.Load(), w.Refused.Load())
		}
	}
	why := map[string]string{}
	for _, r := range st.Refused {
		why[r.Worker] = r.Reason
	}
	if !strings.Contains(why["deep"], "endgame database of 4 seeds, campaign none") ||
		!strings.Contains(why["other"], `build "0123abcd", campaign "`+p.Build+`"`) ||
		!strings.Contains(why["otherrule"], "no endgame database for "+r.String()) {
		t.Errorf("refusals %+v", st.Refused)
	}
	if len(st.Workers) != 1 || st.Workers[0].Name != "w1" || o.rec.EGDBSeeds != -1 {
		t.Errorf("workers %+v, record database %d", st.Workers, o.rec.EGDBSeeds)
	}
}

// A worker that answers a unit it does not match (a forged signature) is
// not trusted: the answer is rejected, the unit goes out again.
func TestForgedSignatureRejected(t *testing.T) {
	e := newEnv(t, 5*time.Second)
	var once sync.Once
	forged := ""
	_, stop := e.workers(1, func(_ int, c *WorkerConfig) {
		c.forge = func(r *Result) {
			once.Do(func() { r.EGDBSeeds, forged = 9, r.Key })
		}
	})
	defer stop()
	p := params(t, "forged", engine.Variant{Pits: 4, Rule: engine.EmptyCapture}, 3, "", engine.South)
	_, st := e.solved(p, CoordinatorConfig{})
	if forged == "" || st.Mismatched != 1 || st.Rejected != 0 {
		t.Errorf("forged %q: %d mismatched, %d rejected", forged, st.Mismatched, st.Rejected)
	}
	if en, err := e.c.Results.Get(context.Background(), forged); err != nil || strings.Contains(string(en.Value()), `"egdb_seeds":9`) {
		t.Errorf("bucket entry of %s: %v %v", forged, en, err)
	}
}

// Answers in the bucket of another build are not reused: a campaign of
// another build solves the same position again.
func TestBucketOfAnotherBuild(t *testing.T) {
	e := newEnv(t, 5*time.Second)
	r := engine.Variant{Pits: 4, Rule: engine.NoEmptyCapture}
	for _, build := range []string{"build-a", "build-b"} {
		_, stop := e.workers(2, func(_ int, c *WorkerConfig) { c.build = build })
		p := params(t, build, r, 3, "", engine.South)
		p.Build = build
		rec, err := e.coordinate(context.Background(), p, CoordinatorConfig{})
		stop()
		if err != nil {
			t.Fatal(err)
		}
		check(t, p, rec)
		if st, _ := Info(context.Background(), e.c, p.Name); st.Issued == 0 || st.Mismatched != 0 {
			t.Errorf("%s: %d issued, %d mismatched", build, st.Issued, st.Mismatched)
		}
	}
}

// TestLocalWorkersShareOneSearch: the workers of a local campaign share
// one pool (one table, their threads a team): a unit that runs alone gets
// the idle worker's thread as a helper, and the values are still the
// reference's.
func TestLocalWorkersShareOneSearch(t *testing.T) {
	l, err := StartLocal(t.TempDir(), 0, 2, WorkerConfig{Threads: 1, TableSize: 16 << 20, NoEGDB: true, Log: testLog(t), Quiet: true}, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Stop()
	if l.Workers[0].p != l.Workers[1].p || l.Workers[0].p.threads != 2 {
		t.Fatalf("local workers: pools %p %p, %d threads", l.Workers[0].p, l.Workers[1].p, l.Workers[0].p.threads)
	}
	c, err := Connect(context.Background(), l.Server.URL(), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	e := &env{t: t, srv: l.Server, c: c}
	r := engine.Variant{Pits: 6, Rule: engine.NoEmptyCapture}
	p := params(t, "shared-pool", r, 0, midGame, engine.North)
	rec, err := e.coordinate(context.Background(), p, CoordinatorConfig{})
	if err != nil {
		t.Fatal(err)
	}
	check(t, p, rec)
	if rec.Threads != 2 {
		t.Errorf("record: %d threads, want 2 (one a worker)", rec.Threads)
	}
	l.Workers[0].p.mu.Lock()
	rs := l.Workers[0].p.solvers[r]
	l.Workers[0].p.mu.Unlock()
	if rs == nil {
		t.Fatal("no session for the campaign's rule")
	}
	if c := rs.team.Counts(); c.Tests == 0 || c.Joins == 0 {
		t.Errorf("team counts %+v: want tests with helpers", c)
	}
}
