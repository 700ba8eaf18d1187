package campaign

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/tt"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// The checks of lying workers (check.go): a worker that returns wrong
// but well-formed answers is found by the cross-checks, quarantined and
// named, and the campaign still ends with the local solver's values
// (check, in campaign_test.go).

func TestWrongAnswerIsWrong(t *testing.T) {
	for _, c := range []struct{ v, gamma int }{{3, 2}, {2, 2}, {-5, 0}, {1, 2}} {
		w := wrongAnswer(c.v, c.gamma)
		if (w >= c.gamma) == (c.v >= c.gamma) {
			t.Errorf("wrongAnswer(%d, %d) = %d: the same outcome", c.v, c.gamma, w)
		}
		// The check of the true answer's claim agrees with it, and the
		// check of the lie's claim disagrees with the truth.
		ch := crossCheck{orig: Result{Value: c.v}, gamma: c.gamma, cgamma: checkGamma(c.v, c.gamma)}
		if !ch.agrees(c.v) {
			t.Errorf("the check of %d at %d disagrees with itself", c.v, c.gamma)
		}
		lie := crossCheck{orig: Result{Value: w}, gamma: c.gamma, cgamma: checkGamma(w, c.gamma)}
		if lie.agrees(c.v) {
			t.Errorf("the check of the lie %d at %d agrees with the truth %d", w, c.gamma, c.v)
		}
	}
	n := 0
	for i := range 10000 {
		if lies(0.05, 7, fmt.Sprint("k", i)) {
			n++
		}
	}
	if n < 400 || n > 600 {
		t.Errorf("lies(0.05) picked %d of 10000 keys", n)
	}
	if lies(0, 7, "k") || !lies(1, 7, "k") {
		t.Error("lies at 0 or 1")
	}
}

// lyingRun runs one campaign with three workers, the first lying on share
// of its units (seed), at the default verify share; it checks the values
// when the liar was caught and returns the final status and the number of
// units' answers the liar made wrong.
func lyingRun(t *testing.T, p Params, share float64, seed uint64) (*Status, bool, int64) {
	t.Helper()
	e := newEnv(t, 5*time.Second)
	ws, stop := e.workers(3, func(i int, c *WorkerConfig) {
		if i == 0 {
			c.lie, c.lieSeed = share, seed
		}
	})
	defer stop()
	rec, err := e.coordinate(context.Background(), p, CoordinatorConfig{VerifyShare: DefaultVerifyShare, VerifySeed: seed})
	if err != nil {
		t.Fatal(err)
	}
	st, err := Info(context.Background(), e.c, p.Name)
	if err != nil {
		t.Fatal(err)
	}
	liar := ws[0].id.ID()
	caught := false
	for _, q := range st.Quarantined {
		if q.Worker.ID() != liar {
			t.Errorf("honest worker %s quarantined: %s", q.Worker.ID(), q.Reason)
		}
		caught = true
	}
	if caught {
		check(t, p, rec)
		if st.SearchRestarts == 0 || st.RefusedResults+int64(st.Quarantined[0].Purged) == 0 {
			t.Errorf("caught, but %d restarts, %d purged, %d refused", st.SearchRestarts, st.Quarantined[0].Purged, st.RefusedResults)
		}
		row := false
		for _, w := range st.Workers {
			if w.ID() == liar {
				row = w.Quarantined
			}
		}
		if !row {
			t.Errorf("the liar's row is not marked quarantined: %+v", st.Workers)
		}
	}
	return st, caught, ws[0].lied.Load()
}

// A worker lying on every answer is caught, and the value is right.
func TestLyingWorkerCaught(t *testing.T) {
	if testing.Short() {
		t.Skip("a campaign restarted by a quarantine; in the full suite (make slow)")
	}
	p := params(t, "liar", engine.Variant{Pits: 6, Rule: engine.NoEmptyCapture}, 0, midGame, engine.North)
	st, caught, _ := lyingRun(t, p, 1, 1)
	if !caught {
		t.Fatalf("a worker lying on every answer was not caught: %d checks, %d agreed, %d disagreed", st.ChecksIssued, st.ChecksAgreed, st.ChecksDisagreed)
	}
	if st.ChecksDisagreed == 0 || !strings.Contains(st.Quarantined[0].Reason, "contradicted") && !strings.Contains(st.Quarantined[0].Reason, "check of") {
		t.Errorf("quarantine %+v after %d disagreements", st.Quarantined, st.ChecksDisagreed)
	}
	t.Logf("caught after %d units; %d checks (%d agreed, %d disagreed, %d undone), %d restarts",
		st.Quarantined[0].UnitsDone, st.ChecksIssued, st.ChecksAgreed, st.ChecksDisagreed, st.ChecksUndone, st.SearchRestarts)
}

// With honest workers the checks all agree and cost about their share.
func TestChecksAgree(t *testing.T) {
	e := newEnv(t, 5*time.Second)
	_, stop := e.workers(2, nil)
	defer stop()
	p := params(t, "honest", engine.Variant{Pits: 6, Rule: engine.EmptyCapture}, 0, midGame, engine.North)
	_, st := e.solved(p, CoordinatorConfig{VerifyShare: 0.5, VerifySeed: 3})
	if st.ChecksIssued == 0 || st.ChecksAgreed+st.ChecksUndone != st.ChecksIssued || st.ChecksDisagreed != 0 || len(st.Quarantined) != 0 {
		t.Errorf("checks: %d issued, %d agreed, %d disagreed, %d undone; quarantined %v",
			st.ChecksIssued, st.ChecksAgreed, st.ChecksDisagreed, st.ChecksUndone, st.Quarantined)
	}
	if st.CheckNodes == 0 || st.CheckNodes >= st.Nodes {
		t.Errorf("check nodes %d of %d", st.CheckNodes, st.Nodes)
	}
}

// The checks open when the coordinator stops are settled by its next run:
// their answers are taken, and those gone from the queue go out again.
// The first run has one worker, which cannot take a check of its own
// answer, so that its checks are still open when it stops.
func TestChecksSurviveRestart(t *testing.T) {
	e := newEnv(t, 5*time.Second)
	_, stop := e.workers(1, nil)
	defer stop()
	p := params(t, "checkrestart", engine.Variant{Pits: 6, Rule: engine.EmptyCapture}, 0, midGame, engine.North)
	ctx, cancel := context.WithCancel(context.Background())
	cfg := CoordinatorConfig{VerifyShare: 1, VerifySeed: 5, onResult: func(Result) { cancel() }}
	if _, err := e.coordinate(ctx, p, cfg); err == nil {
		t.Fatal("the first run was not stopped")
	}
	open := len(bucketKeys(t, e.c.State, p.Name+".check.>"))
	if open == 0 {
		t.Fatal("no check open in the state bucket after the stop")
	}
	_, stop2 := e.workers(1, func(i int, c *WorkerConfig) { c.Name = "w2" })
	defer stop2()
	_, st := e.solved(p, CoordinatorConfig{VerifyShare: 1, VerifySeed: 5})
	if st.ChecksAgreed != st.ChecksIssued || st.ChecksDisagreed != 0 || st.ChecksUndone != 0 {
		t.Errorf("%d checks open at the stop; then %d issued, %d agreed, %d disagreed, %d undone",
			open, st.ChecksIssued, st.ChecksAgreed, st.ChecksDisagreed, st.ChecksUndone)
	}
	for _, k := range bucketKeys(t, e.c.State, p.Name+".check.>") {
		t.Errorf("%s still in the state bucket after the campaign", k)
	}
}

// A worker lying on 5 % of its answers is caught in at least 9 of 10
// seeded runs at the default share.
func TestLyingWorkerFivePercent(t *testing.T) {
	if testing.Short() {
		t.Skip("ten campaigns")
	}
	caught := 0
	var escape float64 // at most the runs expected to end with the liar uncaught
	for seed := uint64(1); seed <= 10; seed++ {
		// Kalah(4,4) split four plies deep: some 470 units.
		p := params(t, fmt.Sprintf("liar5-%d", seed), engine.Variant{Pits: 4, Rule: engine.NoEmptyCapture}, 4, "", engine.South)
		p.LocalSeeds, p.Split = 4, 4
		st, ok, lied := lyingRun(t, p, 0.05, seed)
		// Each wrong answer is checked with chance DefaultVerifyShare; a
		// wrong check is always found (this bound leaves it out).
		escape += math.Pow(1-DefaultVerifyShare, float64(lied))
		if ok {
			caught++
			t.Logf("seed %d: %d answers wrong; caught after %d units of %d; %d checks, %d crossed bounds", seed, lied, st.Quarantined[0].UnitsDone, st.Done, st.ChecksIssued, st.BoundsCrossed)
		} else {
			t.Logf("seed %d: %d answers wrong; not caught in %d units; %d checks, %d crossed bounds", seed, lied, st.Done, st.ChecksIssued, st.BoundsCrossed)
		}
	}
	t.Logf("caught in %d of 10 runs; %.1f expected to escape", caught, escape)
	// A liar with few wrong answers escapes now and then (the figures
	// are records: campaign-liar-5pct*); fewer than six of ten caught
	// means the checks miss lies they draw.
	if caught < 6 {
		t.Errorf("caught in %d of 10 runs; %.1f expected to escape", caught, escape)
	}
}

// The fault hook exists only in kalahfault builds: a release build's
// worker ignores the environment.
func TestNoFaultHookInRelease(t *testing.T) {
	if applyFault != nil {
		t.Skip("a kalahfault build")
	}
	t.Setenv("KALAH_FAULT_LIE", "1")
	w := NewWorker(nil, WorkerConfig{Name: "x", NoEGDB: true})
	defer w.close()
	if w.cfg.lie != 0 {
		t.Errorf("release build lies on %g", w.cfg.lie)
	}
}

// Verify re-solves a campaign's answers locally: all agree, and an answer
// made wrong in the bucket is found and named.
func TestVerify(t *testing.T) {
	e := newEnv(t, 5*time.Second)
	_, stop := e.workers(2, nil)
	defer stop()
	p := params(t, "verify", engine.Variant{Pits: 4, Rule: engine.NoEmptyCapture}, 3, "", engine.South)
	e.solved(p, CoordinatorConfig{})
	r, _, _ := p.root()
	k, err := kalah.Open(kalah.Config{Pits: r.Pits, Seeds: 1, Rule: r.Rule, Threads: 1, TableSize: 16 << 20, NoEGDB: true, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	rep, err := Verify(context.Background(), e.c, p.Name, k, 0, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Answered == 0 || rep.Sampled != rep.Answered || rep.Agreed != rep.Sampled || rep.Disagreed != 0 {
		t.Fatalf("verify: %+v", rep)
	}
	// One answer made wrong, as a lying worker would have given it.
	u := rep.Units[len(rep.Units)/2]
	entry, err := e.c.Results.Get(context.Background(), u.Key)
	if err != nil {
		t.Fatal(err)
	}
	var res Result
	if err := json.Unmarshal(entry.Value(), &res); err != nil {
		t.Fatal(err)
	}
	_, _, gamma, _ := ParseKey(u.Key)
	res.Value, res.Worker = wrongAnswer(res.Value, gamma), "liar"
	data, _ := json.Marshal(res)
	if _, err := e.c.Results.Put(context.Background(), u.Key, data); err != nil {
		t.Fatal(err)
	}
	rep, err = Verify(context.Background(), e.c, p.Name, k, 0, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Disagreed != 1 || rep.Agreed != rep.Sampled-1 {
		t.Fatalf("after one wrong answer: %+v", rep)
	}
	for _, v := range rep.Units {
		if !v.Agrees && (v.Key != u.Key || v.Worker.Name != "liar") {
			t.Errorf("disagreement %+v, want %s by liar", v, u.Key)
		}
	}
	if rep, _ := Verify(context.Background(), e.c, p.Name, k, 3, 2, nil); rep.Sampled != 3 {
		t.Errorf("a sample of 3 re-solved %d", rep.Sampled)
	}
}

// TestEligibleHeardRecently: a check waits only for workers that answered
// lately; one silent for longer than heardRecently (killed, cut off) no
// longer keeps it open, nor does the worker whose answer it checks.
func TestEligibleHeardRecently(t *testing.T) {
	co := &Coordinator{heard: map[string]time.Time{}, quarantined: map[string]Quarantine{}}
	c := &crossCheck{exclude: []string{"w1"}}
	co.heard["w1"] = time.Now()
	if co.eligible(c) {
		t.Error("the checked worker alone is eligible")
	}
	co.heard["w2"] = time.Now().Add(-2 * heardRecently)
	if co.eligible(c) {
		t.Error("a worker silent for longer than heardRecently is eligible")
	}
	co.heard["w3"] = time.Now()
	if !co.eligible(c) {
		t.Error("a worker heard just now is not eligible")
	}
	co.quarantined["w3"] = Quarantine{}
	if co.eligible(c) {
		t.Error("a quarantined worker is eligible")
	}
}

// A third test handed to the queue while a worker that may take it was
// heard from is run by the coordinator once that worker is quarantined
// (or silent): settle does not wait for it for ever.
func TestThirdTestWithoutWorker(t *testing.T) {
	e := newEnv(t, 5*time.Second)
	p := params(t, "third", engine.Variant{Pits: 4, Rule: engine.NoEmptyCapture}, 3, "", engine.South)
	if err := Create(context.Background(), e.c, p); err != nil {
		t.Fatal(err)
	}
	co, err := NewCoordinator(e.c, p, CoordinatorConfig{Log: testLog(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer co.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	co.runCtx = ctx
	b := co.root.Board
	want := reference(t, p).Value - b.StoreDiff()
	// w1 answered "value >= want" (true); w2's check said otherwise; w3,
	// the one worker left to decide, went to the queue, then was
	// quarantined. No worker runs.
	orig := Result{Campaign: p.Name, Key: UnitKey(co.rules, b, want), Value: want, Worker: "w1"}
	c := &crossCheck{key: orig.Key, orig: orig, b: b, gamma: want, ckey: orig.Key, cgamma: want,
		answers: []Result{{Worker: "w2", Value: want - 1}}, exclude: []string{orig.Identity().ID(), Result{Worker: "w2"}.Identity().ID()}}
	now := time.Now()
	co.heard[Result{Worker: "w3"}.Identity().ID()] = now
	co.checks[c.key] = c
	co.issueCheck(c)
	if c.mine {
		t.Fatal("the third test was not handed to the queue while w3 was heard from")
	}
	co.quarantined[Result{Worker: "w3"}.Identity().ID()] = Quarantine{}
	co.st.Quarantined = nil
	// The coordinator's third test agrees with w1: w2 is quarantined,
	// and the search is to start again.
	if err := co.settle(ctx); !errors.Is(err, errRestart) {
		t.Fatalf("settle with the third test's only worker quarantined: %v", err)
	}
	if _, q := co.quarantined[Result{Worker: "w2"}.Identity().ID()]; !c.done || len(c.answers) != 2 || c.answers[1].Worker != "coordinator" || !q {
		t.Errorf("the third test: done %v, answers %+v, w2 quarantined %v", c.done, c.answers, q)
	}
}

// A check is searched without the shared table, whose entries the worker
// whose answer is checked may have written: the shared table holds a
// forged exact value of the start of Kalah(4,3); a check of a test there
// gives the true outcome, and a unit of the same test, searched with the
// shared table, the forged one (the forgery is in reach).
func TestCheckNotFromSharedTable(t *testing.T) {
	e := newEnv(t, 5*time.Second)
	ws, stop := e.workers(1, func(i int, c *WorkerConfig) { c.Shared, c.sharedMinSeeds, c.sharedMinWork = true, 8, 4 })
	defer stop()
	r := engine.Variant{Pits: 4, Rule: engine.NoEmptyCapture}
	const name = "forged"
	v := reference(t, params(t, name, r, 3, "", engine.South)).Value
	start, err := r.StartPosition(3)
	if err != nil {
		t.Fatal(err)
	}
	b := start.Board
	gamma := v + 1 // the truth fails low, the forgery (v+4) high
	ctx := context.Background()
	var word [8]byte
	binary.BigEndian.PutUint64(word[:], uint64(tt.MakeEntry(v+4, v+4, 0, tt.DepthSolved, 20)))
	if _, err := e.c.Table.Put(ctx, sharedKey(name, b.Key()), word[:]); err != nil {
		t.Fatal(err)
	}
	results, err := e.c.NC.SubscribeSync(resultSubject(name))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	send := func(b engine.Board, gamma int, check string) Result {
		t.Helper()
		n++
		u := Unit{Campaign: name, Key: UnitKey(r, b, gamma), Rule: r.Rule.String(), Pits: r.Pits, Gamma: gamma,
			GameSeeds: 24, Build: CurrentBuild(), EGDBSeeds: -1, Check: check}
		body, _ := json.Marshal(u)
		if _, err := e.c.JS.PublishMsg(ctx, &nats.Msg{Subject: unitSubject(name), Data: body}, jetstream.WithMsgID(fmt.Sprint("u", n))); err != nil {
			t.Fatal(err)
		}
		msg, err := results.NextMsg(30 * time.Second)
		if err != nil {
			t.Fatalf("no answer to %s: %v", u.Key, err)
		}
		var res Result
		if err := json.Unmarshal(msg.Data, &res); err != nil {
			t.Fatal(err)
		}
		return res
	}
	// A unit of Kalah(4,2)'s start opens the worker's mirror of the
	// campaign's shared table; then the forgery reaches it.
	small, _ := r.StartPosition(2)
	send(small.Board, 0, "")
	w := ws[0]
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		w.p.mu.Lock()
		m := w.p.mirrors[name]
		w.p.mu.Unlock()
		if m != nil {
			if _, ok := m.get(b.Key()); ok {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("the forged entry never reached the worker's mirror")
		}
	}
	if res := send(b, gamma, "check-of-a-unit"); res.Value >= gamma {
		t.Errorf("check: %d >= %d, the forged outcome (the value is %d)", res.Value, gamma, v)
	}
	if res := send(b, gamma, ""); res.Value < gamma {
		t.Errorf("unit: %d < %d: the shared table was not consulted, so the check above proves nothing", res.Value, gamma)
	}
}

// A lone worker behind many units it must hand back (checks of its own
// answers) still reaches the unit queued after them.
func TestHandBackDoesNotStarve(t *testing.T) {
	e := newEnv(t, 5*time.Second)
	ws, stop := e.workers(1, nil)
	defer stop()
	r := engine.Variant{Pits: 4, Rule: engine.NoEmptyCapture}
	const name = "handback"
	start, err := r.StartPosition(2)
	if err != nil {
		t.Fatal(err)
	}
	results, err := e.c.NC.SubscribeSync(resultSubject(name))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	publish := func(id string, gamma int, exclude []string) {
		t.Helper()
		u := Unit{Campaign: name, Key: UnitKey(r, start.Board, gamma), Rule: r.Rule.String(), Pits: r.Pits, Gamma: gamma,
			GameSeeds: 16, Build: CurrentBuild(), EGDBSeeds: -1, Exclude: exclude}
		if exclude != nil {
			u.Check = "a-unit-of-" + id
		}
		body, _ := json.Marshal(u)
		if _, err := e.c.JS.PublishMsg(ctx, &nats.Msg{Subject: unitSubject(name), Data: body}, jetstream.WithMsgID(id)); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 40 {
		publish(fmt.Sprint("mine", i), i%16-8, []string{ws[0].id.ID()})
	}
	publish("unit", 0, nil)
	msg, err := results.NextMsg(45 * time.Second)
	if err != nil {
		t.Fatalf("the unit behind 40 handed-back ones was never answered: %v", err)
	}
	var res Result
	if err := json.Unmarshal(msg.Data, &res); err != nil || res.Check != "" {
		t.Errorf("answer %+v (%v): want the unit's", res, err)
	}
}

// The coordinator waits for a check of a long unit longer before it runs
// the check itself: a worker may well be searching it still.
func TestCheckPatience(t *testing.T) {
	short := &crossCheck{orig: Result{Seconds: 0.01}}
	long := &crossCheck{orig: Result{Seconds: 300}}
	if p := short.patience(); p < checkPatience || p > checkPatience+time.Second {
		t.Errorf("patience for a check of a 10 ms unit: %v, want about %v", p, checkPatience)
	}
	if p := long.patience(); p < checkPatience+20*time.Minute {
		t.Errorf("patience for a check of a 5-minute unit: %v, want at least %v", p, checkPatience+20*time.Minute)
	}
}

// Closing the coordinator while it runs a check itself stops that search
// before the session's table is unmapped under it.
func TestCloseDuringLocalCheck(t *testing.T) {
	e := newEnv(t, 5*time.Second)
	r := engine.Variant{Pits: 6, Rule: engine.NoEmptyCapture}
	p := params(t, "closing", r, 5, "", engine.South)
	if err := Create(context.Background(), e.c, p); err != nil {
		t.Fatal(err)
	}
	co, err := NewCoordinator(e.c, p, CoordinatorConfig{Log: testLog(t)})
	if err != nil {
		t.Fatal(err)
	}
	start, _ := r.StartPosition(5)
	c := &crossCheck{key: "a-unit", b: start.Board, gamma: 1, cgamma: 1, orig: Result{Value: 1}}
	done := make(chan struct{})
	go func() {
		co.checkLocally(c)
		close(done)
	}()
	time.Sleep(time.Second) // into the search (Kalah(6,5) takes minutes)
	co.Close()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the coordinator's own check did not stop when it was closed")
	}
	co.mu.Lock()
	defer co.mu.Unlock()
	if c.done || len(c.answers) != 0 {
		t.Errorf("a check stopped by Close was settled: %+v", c.answers)
	}
}

// TestCheckDraw: a worker's draw checks share of its answers within one
// at every point, and over many draws each answer is picked about as often
// as share says, as a coin for each answer would.
func TestCheckDraw(t *testing.T) {
	for _, share := range []float64{0.05, 0.25, 0.3, 0.5, 0.7, 1} {
		const answers, draws = 40, 4000
		at := make([]int, answers)
		for seed := range uint64(draws) {
			rng := rand.New(rand.NewPCG(seed, 1))
			var d checkDraw
			picked := 0
			for i := range answers {
				if d.next(rng, share) {
					picked++
					at[i]++
				}
				if want := float64(i+1) * share; float64(picked) < want-1 || float64(picked) > want+1 {
					t.Fatalf("share %g, seed %d: %d of %d answers picked", share, seed, picked, i+1)
				}
			}
		}
		for i, n := range at {
			if f := float64(n) / draws; math.Abs(f-share) > 0.04 {
				t.Errorf("share %g: answer %d picked in %.3f of the draws", share, i, f)
			}
		}
	}
}

// Bounds that cross on one board are counted, and the answers that set
// them are returned for checks; a bound the search derived is not.
func TestBoundsCross(t *testing.T) {
	co := &Coordinator{table: map[engine.Key]bounds{}}
	b := engine.Board{Own: 0x040404040404, Opp: 0x040404040404}
	for _, c := range []struct {
		gamma, v int
		key      string
		want     []string
	}{
		{1, 3, "a", nil},                // value >= 3
		{5, 4, "b", nil},                // value <= 4
		{4, 3, "", nil},                 // value <= 3, derived: lo 3 = hi 3
		{4, 4, "c", []string{"c"}},      // value >= 4 crosses the derived hi 3
		{3, 2, "d", []string{"d", "c"}}, // value <= 2 crosses lo 4, set by c
		{1, 2, "e", nil},                // value >= 2 crosses no bound, though lo 4 > hi 2
	} {
		got := co.note(b, c.gamma, c.v, c.key)
		if !slices.Equal(got, c.want) {
			t.Errorf("note(gamma %d, %d, %q) = %v, want %v", c.gamma, c.v, c.key, got, c.want)
		}
	}
	if co.st.BoundsCrossed != 2 {
		t.Errorf("%d bounds crossed, want 2", co.st.BoundsCrossed)
	}
}

// A worker alone on its pool and without the shared table checks in its
// units' table (every entry there is its own); one with the shared table,
// or on the one pool of --local, in a table of its own.
func TestCheckerTable(t *testing.T) {
	for _, c := range []struct {
		name          string
		shared, local bool
		units         bool
	}{
		{"shared table", true, false, false},
		{"no shared table", false, false, true},
		{"local pool", false, true, false},
	} {
		p := newPool(WorkerConfig{NoEGDB: true}, 1)
		p.local = c.local
		cfg := kalah.Config{Pits: 4, Seeds: 1, Rule: engine.NoEmptyCapture, Threads: 1, TableSize: 1 << 20, NoEGDB: true, NoCache: true}
		rs := &ruleSolver{cfg: cfg}
		if c.shared {
			rs.shared = &sharedTable{}
		}
		s, err := openSearch(cfg)
		if err != nil {
			t.Fatal(err)
		}
		rs.search = s
		p.solvers[engine.Variant{Pits: 4, Rule: engine.NoEmptyCapture}] = rs
		cs, err := p.checker(rs)
		if err != nil {
			t.Fatal(err)
		}
		if (cs == &rs.search) != c.units {
			t.Errorf("%s: checks in the units' table %v, want %v", c.name, cs == &rs.search, c.units)
		}
		p.users = 1
		p.release()
	}
}
