package campaign

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/engine"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Cross-checked answers, the redundancy of volunteer computing and of the
// checkers proof's verification.
//
// An answer is a claim about its unit's board: "value >= v" when it fails
// high (v >= gamma), "value <= v" when it fails low. The coordinator picks
// a share of the answers it accepts (CoordinatorConfig.VerifyShare), drawn
// for each worker at random (checkDraw), and checks each claim with one
// null-window test, shipped as a check unit that every worker whose answer
// it checks must hand back (Unit.Exclude), so that another worker solves
// it:
//
//	claim "value >= v": the test "value >= v", which must fail high;
//	claim "value <= v": the test "value >= v+1", which must fail low.
//
// The check thus covers the whole claim, the bound as well as the side of
// the window, at the cost of about one unit. The checker searches it on a
// table of its own without the shared table (worker.go, ruleSolver.checks):
// entries there, the unit's root among them, may be the checked worker's. When the checker agrees, the
// check is done. When it disagrees, a third test of the same claim goes to
// a worker that is neither of the two (or to the coordinator's own solver,
// when none is heard from, or none is left that may take it, or none
// answers in time), and whichever of the two it contradicts is
// quarantined:
//
//   - its identity (Identity.ID) is written to the state bucket
//     (<campaign>.quarantine.<id>) and shown by 'campaign status';
//   - every answer of it in the results bucket is deleted, so that each is
//     solved again by another worker where the search still needs it;
//   - its later answers are refused (results_refused) and their units go
//     out again, excluding it;
//   - the search starts again from the answers left (search_restarts):
//     bounds derived from a wrong answer are gone with it.
//
// Before the campaign ends, every check issued is settled: answered, or
// left undone (checks_undone) when no worker but those it excludes has
// been heard from. Every open check is kept in the state bucket
// (<campaign>.check.<key>, checkState): a coordinator started again takes
// the answers its last run's checks were given while it was away, and
// issues again those gone from the queue unanswered.

// DefaultVerifyShare is the share of accepted answers that 'campaign
// start' checks unless told otherwise (--verify-share): a check costs
// about what its unit did, or more in its cold table; docs/distributed.md
// shows what it catches and costs.
const DefaultVerifyShare = 0.25

// crossCheck is one answer under check.
type crossCheck struct {
	key     string       // the unit checked
	orig    Result       // its answer
	b       engine.Board // its board
	gamma   int          // its window
	ckey    string       // the check unit's key
	cgamma  int          // the check's window (checkGamma)
	answers []Result     // the checks' answers so far
	exclude []string     // identities that must not solve the check
	issues  int          // check units put on the queue (message ids)
	seq     uint64       // the last one's stream sequence
	issued  time.Time    // when its last check unit went out
	done    bool
	mine    bool // handed to the coordinator's own solver (issueCheck, settle)
	// restored: left open by an earlier run (loadChecks); never dropped
	// as undone, since the workers of that run may still be at work.
	restored bool
}

// checkState is an open check as the state bucket keeps it.
type checkState struct {
	Orig    Result   `json:"orig"`
	Answers []Result `json:"answers,omitempty"`
	Exclude []string `json:"exclude"`
	Issues  int      `json:"issues"`
	Seq     uint64   `json:"seq,omitempty"`
}

func checkKey(campaign, key string) string {
	return campaign + ".check." + keyUnsafe.ReplaceAllString(key, "_")
}

// persistCheck writes c to the state bucket, or deletes it there once c
// is done. Writes go one at a time, each with c as it is when its turn
// comes, so that the last one of a check is its latest state.
func (co *Coordinator) persistCheck(c *crossCheck) {
	co.persistMu.Lock()
	defer co.persistMu.Unlock()
	co.mu.Lock()
	done := c.done
	cs := checkState{Orig: c.orig, Answers: slices.Clone(c.answers), Exclude: slices.Clone(c.exclude), Issues: c.issues, Seq: c.seq}
	co.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	k := checkKey(co.p.Name, c.key)
	if done {
		if err := co.c.State.Delete(ctx, k); err != nil && !errors.Is(err, jetstream.ErrKeyNotFound) {
			co.logf("removing the settled check of %s from the state bucket: %v", c.key, err)
		}
		return
	}
	data, _ := json.Marshal(cs)
	if _, err := co.c.State.Put(ctx, k, data); err != nil {
		co.logf("keeping the check of %s in the state bucket: %v (a restart would not see it)", c.key, err)
	}
}

// loadChecks reads the checks an earlier run left open; a check of a
// quarantined worker's answer, or one that does not hold up, is removed.
func (co *Coordinator) loadChecks(ctx context.Context) {
	kl, err := co.c.State.ListKeysFiltered(ctx, co.p.Name+".check.>")
	if err != nil {
		return
	}
	var keys []string
	for k := range kl.Keys() {
		keys = append(keys, k)
	}
	n := 0
	for _, k := range keys {
		e, err := co.c.State.Get(ctx, k)
		if err != nil {
			continue
		}
		var cs checkState
		var b engine.Board
		var gamma int
		if err = json.Unmarshal(e.Value(), &cs); err == nil {
			var r engine.Variant
			r, b, gamma, err = ParseKey(cs.Orig.Key)
			if err == nil && r != co.rules {
				err = fmt.Errorf("a check of %v, not %v", r, co.rules)
			}
		}
		co.mu.Lock()
		_, q := co.quarantined[cs.Orig.Identity().ID()]
		if err != nil || q || co.checks[cs.Orig.Key] != nil {
			co.mu.Unlock()
			if err != nil {
				co.logf("removing the check %s from the state bucket: %v", k, err)
			}
			co.c.State.Delete(ctx, k)
			continue
		}
		cg := checkGamma(cs.Orig.Value, gamma)
		co.checks[cs.Orig.Key] = &crossCheck{key: cs.Orig.Key, orig: cs.Orig, b: b, gamma: gamma, ckey: UnitKey(co.rules, b, cg), cgamma: cg,
			answers: cs.Answers, exclude: cs.Exclude, issues: cs.Issues, seq: cs.Seq, issued: time.Now(), restored: true}
		co.mu.Unlock()
		n++
	}
	if n > 0 {
		co.logf("%d checks left open by the last run", n)
	}
}

// reissueChecks issues again the open checks whose units are no longer
// on the queue (run after the answers waiting on the results stream are
// taken, so that an answered check is settled, not issued again).
func (co *Coordinator) reissueChecks(ctx context.Context) {
	st, err := co.c.JS.Stream(ctx, unitStream)
	if err != nil {
		return
	}
	co.mu.Lock()
	var open []*crossCheck
	for _, c := range co.checks {
		if c.restored && !c.done {
			open = append(open, c)
		}
	}
	co.mu.Unlock()
	for _, c := range open {
		if c.seq != 0 {
			if _, err := st.GetMsg(ctx, c.seq); err == nil {
				continue // still queued, or with a worker
			}
		}
		co.issueCheck(c)
	}
}

// checkGamma is the window of the test that checks the claim of the
// answer v to "value >= gamma".
func checkGamma(v, gamma int) int {
	if v >= gamma {
		return v
	}
	return v + 1
}

// agrees reports that a check answer cv agrees with the claim checked.
func (c *crossCheck) agrees(cv int) bool { return (cv >= c.cgamma) == (c.orig.Value >= c.gamma) }

// Quarantine is a worker found giving a wrong answer.
type Quarantine struct {
	Worker Identity `json:"worker"`
	// Reason names the answer found wrong and the workers that
	// contradicted it.
	Reason string `json:"reason"`
	Time   string `json:"time"`
	// Purged: its answers deleted from the results bucket.
	Purged int `json:"purged"`
	// UnitsDone: the campaign's accepted answers when it was found.
	UnitsDone int64 `json:"units_done"`
}

func quarantineKey(campaign, id string) string {
	return campaign + ".quarantine." + keyUnsafe.ReplaceAllString(id, "_")
}

// loadQuarantine reads a campaign's quarantined workers.
func loadQuarantine(ctx context.Context, c *Conn, campaign string) []Quarantine {
	kl, err := c.State.ListKeysFiltered(ctx, campaign+".quarantine.>")
	if err != nil {
		return nil
	}
	var out []Quarantine
	for k := range kl.Keys() {
		e, err := c.State.Get(ctx, k)
		if err != nil {
			continue
		}
		var q Quarantine
		if json.Unmarshal(e.Value(), &q) == nil {
			out = append(out, q)
		}
	}
	slices.SortFunc(out, func(a, b Quarantine) int { return cmpString(a.Worker.ID(), b.Worker.ID()) })
	return out
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// heardFrom notes an answer's worker as heard from now; co.mu held.
func (co *Coordinator) heardFrom(res Result) {
	id := res.Identity().ID()
	co.heard[id] = time.Now()
	co.st.workerRow(res).LastHeard = time.Now().UTC().Format(time.RFC3339)
}

// alive notes a worker's heartbeat on one of the campaign's units (its
// Identity.ID) as heard from now: a worker searching a long unit is
// eligible for checks and not counted missing by the watch.
func (co *Coordinator) alive(m *nats.Msg) {
	id := string(m.Data)
	if len(id) > 256 {
		return
	}
	now := time.Now()
	co.mu.Lock()
	defer co.mu.Unlock()
	co.heard[id] = now
	for i := range co.st.Workers {
		if co.st.Workers[i].ID() == id {
			co.st.Workers[i].LastHeard = now.UTC().Format(time.RFC3339)
		}
	}
}

// quarantinedIDs lists the quarantined identities; co.mu held.
func (co *Coordinator) quarantinedIDs() []string {
	ids := make([]string, 0, len(co.quarantined))
	for id := range co.quarantined {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// heardRecently is how recently a worker must have answered to count as
// one that can take a check. A worker that was killed or lost stays in
// co.heard; without a limit, a check that only it could take would keep
// the campaign waiting for ever. A live worker idle for longer finds the
// check on an empty queue and takes it at once.
const heardRecently = time.Minute

// eligible reports that a worker other than those the check excludes and
// the quarantined ones has been heard from within heardRecently; co.mu
// held.
func (co *Coordinator) eligible(c *crossCheck) bool {
	for id, at := range co.heard {
		if _, q := co.quarantined[id]; !q && !slices.Contains(c.exclude, id) && time.Since(at) < heardRecently {
			return true
		}
	}
	return false
}

// maybeCheck picks the accepted answer res to (b, gamma) for a check by
// its worker's draw and issues its check unit.
func (co *Coordinator) maybeCheck(res Result, b engine.Board, gamma int) {
	co.mu.Lock()
	pick := false
	if co.cfg.VerifyShare > 0 {
		id := res.Identity().ID()
		d := co.draws[id]
		if d == nil {
			d = &checkDraw{}
			co.draws[id] = d
		}
		pick = d.next(co.rng, co.cfg.VerifyShare)
	}
	co.mu.Unlock()
	if pick {
		co.startCheck(res, b, gamma)
	}
}

// checkDraw picks a worker's answers for checks by Deville's systematic
// sampling. Its answers lie end to end on a line, each share long, cut
// into blocks of length 1; one random point in each block picks the
// answer it falls in. Where an answer straddles two blocks, the second
// block's point avoids it when the first picked it, and takes it with the
// probability that makes its chance share when the first did not. So each
// worker has share of its answers checked, within one, at every point of
// the campaign (a coin tossed for each answer strays by about the square
// root of their number), every answer is picked with probability share,
// and no worker can tell which of its answers will be.
type checkDraw struct {
	started bool
	pos     float64 // where the next answer begins in the current block, [0, 1)
	point   float64 // the current block's point, [0, 1)
}

// next reports whether the worker's next answer is picked.
func (d *checkDraw) next(rng *rand.Rand, share float64) bool {
	if share >= 1 {
		return true
	}
	if !d.started {
		d.point, d.started = rng.Float64(), true
	}
	lo, hi := d.pos, d.pos+share
	if hi < 1 {
		d.pos = hi
		return lo <= d.point && d.point < hi
	}
	// The answer reaches into the next block by b.
	a, b := 1-lo, hi-1
	picked := lo <= d.point
	switch {
	case !picked && rng.Float64() < b/(1-a):
		d.point, picked = b*rng.Float64(), true
	default:
		d.point = b + (1-b)*rng.Float64()
	}
	d.pos = b
	return picked
}

// startCheck issues the check of the answer res to (b, gamma), unless it
// has one.
func (co *Coordinator) startCheck(res Result, b engine.Board, gamma int) {
	co.mu.Lock()
	if co.checks[res.Key] != nil {
		co.mu.Unlock()
		return
	}
	cg := checkGamma(res.Value, gamma)
	c := &crossCheck{key: res.Key, orig: res, b: b, gamma: gamma, ckey: UnitKey(co.rules, b, cg), cgamma: cg,
		exclude: []string{res.Identity().ID()}, issued: time.Now()}
	co.checks[res.Key] = c
	co.st.ChecksIssued++
	co.st.workerRow(res).Checked++
	co.mu.Unlock()
	co.issueCheck(c)
	co.persistCheck(c)
}

// checkEverything checks every answer accepted in this run that has not
// been checked.
func (co *Coordinator) checkEverything(ctx context.Context) {
	co.mu.Lock()
	var keys []string
	for _, ks := range co.answeredBy {
		for _, k := range ks {
			if co.checks[k] == nil {
				keys = append(keys, k)
			}
		}
	}
	co.mu.Unlock()
	co.checkKeys(ctx, keys)
}

// checkKeys issues the checks of the answers of keys in the results
// bucket, skipping those it cannot read and those checked already.
func (co *Coordinator) checkKeys(ctx context.Context, keys []string) {
	for _, k := range keys {
		e, err := co.c.Results.Get(ctx, k)
		if err != nil {
			continue
		}
		res, b, gamma, err := parseResult(e.Value(), co.rules)
		if err != nil {
			continue
		}
		co.startCheck(res, b, gamma)
	}
}

// issueCheck puts c's check unit on the queue, or, for a third test that
// no worker heard from may take, has the coordinator's own solver run it.
func (co *Coordinator) issueCheck(c *crossCheck) {
	co.mu.Lock()
	if c.done {
		co.mu.Unlock()
		return
	}
	c.issues++
	ex := slices.Clone(c.exclude)
	for _, id := range co.quarantinedIDs() {
		if !slices.Contains(ex, id) {
			ex = append(ex, id)
		}
	}
	third, local := len(c.answers) == 1, !co.eligible(c)
	id := fmt.Sprintf("%s.%s.c%d", co.p.Name, c.key, c.issues)
	c.issued = time.Now()
	if third && local {
		c.mine = true
	}
	co.mu.Unlock()
	if third && local {
		go co.checkLocally(c)
		return
	}
	u := Unit{Campaign: co.p.Name, Key: c.ckey, Rule: co.rules.Rule.String(), Pits: co.rules.Pits, Gamma: c.cgamma,
		GameSeeds: co.root.Board.Seeds(), Build: co.p.Build, EGDBSeeds: co.p.EGDBSeeds, Check: c.key, Exclude: ex}
	body, _ := json.Marshal(u)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ack, err := co.c.JS.PublishMsg(ctx, &nats.Msg{Subject: unitSubject(co.p.Name), Data: body}, jetstream.WithMsgID(id))
	if err != nil {
		co.logf("queueing the check of %s: %v", c.key, err)
		return
	}
	co.mu.Lock()
	c.seq = ack.Sequence
	co.mu.Unlock()
}

// checkLocally runs a third test on the coordinator's own solver, when no
// worker but the two that disagree is heard from.
func (co *Coordinator) checkLocally(c *crossCheck) {
	var v int
	var nodes int64
	err := co.withLocal(func(k *kalah.Session) error {
		var err error
		before := k.Stats().Nodes
		v, _, err = k.NullWindow(co.localCtx, c.b, c.cgamma)
		nodes = k.Stats().Nodes - before
		return err
	})
	if err != nil {
		co.logf("third test of %s on the coordinator: %v", c.key, err)
		return
	}
	res := Result{Campaign: co.p.Name, Key: c.ckey, Value: v, Nodes: nodes, Worker: "coordinator", Host: co.id.Host, PID: co.id.PID,
		Build: co.p.Build, Check: c.key}
	co.settleCheck(c, res, true)
}

// takeCheck handles the answer to a check unit (take's part for them).
func (co *Coordinator) takeCheck(msg jetstream.Msg, res Result) {
	id := res.Identity().ID()
	co.mu.Lock()
	c := co.checks[res.Check]
	_, quarantined := co.quarantined[id]
	switch {
	case c == nil || c.done || res.Key != c.ckey:
		co.mu.Unlock()
		co.logf("dropped an answer to a check of %s that is settled or not this run's", res.Check)
		msg.Term()
		return
	case quarantined || slices.Contains(c.exclude, id):
		co.st.RefusedResults++
		co.st.workerRow(res).Refused++
		co.mu.Unlock()
		co.logf("REFUSED the check of %s by %s: it is quarantined or its own answer is checked; the check goes out again", res.Check, id)
		msg.Term()
		co.issueCheck(c)
		return
	}
	co.heardFrom(res)
	co.mu.Unlock()
	co.settleCheck(c, res, false)
	msg.Ack()
}

// settleCheck takes a check answer res to c: agreement settles it, a
// first disagreement asks a third test, a third answer quarantines the
// worker it contradicts.
func (co *Coordinator) settleCheck(c *crossCheck, res Result, local bool) {
	co.mu.Lock()
	if c.done {
		co.mu.Unlock()
		return
	}
	agree := c.agrees(res.Value)
	c.answers = append(c.answers, res)
	c.exclude = append(c.exclude, res.Identity().ID())
	if !local {
		co.st.CheckNodes += res.Nodes
		co.st.Nodes += res.Nodes
		row := co.st.workerRow(res)
		row.Checks++
		row.Nodes += res.Nodes
		row.Seconds += res.Seconds
	}
	var liar *Result
	var reason string
	claim := fmt.Sprintf("value %s %d", map[bool]string{true: ">=", false: "<="}[c.orig.Value >= c.gamma], c.orig.Value)
	switch {
	case len(c.answers) == 1 && agree:
		c.done = true
		co.st.ChecksAgreed++
	case len(c.answers) == 1:
		co.st.ChecksDisagreed++
		co.logf("CHECK DISAGREES on %s: %s says %s, %s answers %d to the test at %d; a third test decides",
			c.key, c.orig.Identity().ID(), claim, res.Identity().ID(), res.Value, c.cgamma)
	default:
		c.done = true
		first := c.answers[0]
		if agree {
			liar = &first
			reason = fmt.Sprintf("its check of %s (%s, by %s) answered %d to the test at %d; %s answered %d",
				c.key, claim, c.orig.Identity().ID(), first.Value, c.cgamma, res.Identity().ID(), res.Value)
		} else {
			liar = &c.orig
			reason = fmt.Sprintf("its answer to %s (%s) was contradicted by %s (%d) and %s (%d) at the test at %d",
				c.key, claim, first.Identity().ID(), first.Value, res.Identity().ID(), res.Value, c.cgamma)
		}
	}
	co.mu.Unlock()
	switch {
	case liar != nil:
		co.quarantine(liar.Identity(), reason)
	case !c.done:
		co.issueCheck(c)
	}
	co.persistCheck(c)
}

// quarantine refuses the worker id from now on, deletes its answers from
// the results bucket and starts the search again.
func (co *Coordinator) quarantine(w Identity, reason string) {
	id := w.ID()
	co.mu.Lock()
	if _, ok := co.quarantined[id]; ok {
		co.mu.Unlock()
		return
	}
	q := Quarantine{Worker: w, Reason: reason, Time: time.Now().UTC().Format(time.RFC3339), UnitsDone: co.st.Done}
	co.quarantined[id] = q
	var closed []*crossCheck
	for _, c := range co.checks {
		if !c.done && c.orig.Identity().ID() == id {
			c.done = true // its answers are solved again
			closed = append(closed, c)
		}
	}
	keys := co.answeredBy[id]
	delete(co.answeredBy, id)
	co.restart = true
	cancel := co.searchCancel
	co.mu.Unlock()
	co.logf("QUARANTINED worker %s (build %q): %s", id, w.Build, reason)
	for _, c := range closed {
		co.persistCheck(c)
	}
	ctx, cancelCtx := context.WithTimeout(context.Background(), time.Minute)
	defer cancelCtx()
	for _, k := range keys {
		e, err := co.c.Results.Get(ctx, k)
		if err != nil {
			continue
		}
		var res Result
		if json.Unmarshal(e.Value(), &res) == nil && res.Identity().ID() == id {
			if co.c.Results.Delete(ctx, k) == nil {
				q.Purged++
			}
		}
	}
	co.logf("deleted %d answers of %s from the results bucket; the search starts again from the others", q.Purged, id)
	co.mu.Lock()
	co.quarantined[id] = q
	co.st.Quarantined = append(co.st.Quarantined, q)
	co.st.markQuarantined(id)
	co.mu.Unlock()
	data, _ := json.Marshal(q)
	if _, err := co.c.State.Put(ctx, quarantineKey(co.p.Name, id), data); err != nil {
		co.logf("recording the quarantine of %s: %v", id, err)
	}
	if cancel != nil {
		cancel()
	}
}

// checkPatience is how long settle waits for a worker to answer a check
// before the coordinator's own solver runs it, so that a check unit lost
// on the way (a worker gone with it, a delivery that never comes) cannot
// keep the campaign from ending.
const checkPatience = 2 * DefaultAckWait

// patience is how long settle waits for c's answer: checkPatience, and
// four times as long as the unit checked took its worker, since a check,
// searched in a cold table, can cost a few times its unit and a worker
// may hold it that long.
func (c *crossCheck) patience() time.Duration {
	return checkPatience + time.Duration(4*c.orig.Seconds*float64(time.Second))
}

// errRestart ends a search that a quarantine made void.
var errRestart = errors.New("search restarted after a quarantine")

// settle waits until every check issued is settled; it returns errRestart
// when a quarantine calls for a new search. A check that no worker heard
// from may take is left undone and its unit removed.
func (co *Coordinator) settle(ctx context.Context) error {
	for {
		co.mu.Lock()
		if co.restart {
			co.mu.Unlock()
			return errRestart
		}
		open := 0
		var mine, dropped []*crossCheck
		for _, c := range co.checks {
			switch {
			case c.done:
			case len(c.answers) == 0 && !c.restored && !co.eligible(c):
				c.done = true
				co.st.ChecksUndone++
				dropped = append(dropped, c)
			case c.mine:
				open++
			case len(c.answers) == 1 && !co.eligible(c), time.Since(c.issued) > c.patience():
				// A third test decides a disagreement: when the worker it
				// went to is gone or quarantined, or it is not answered
				// in time, the coordinator runs it.
				c.mine = true
				mine = append(mine, c)
				open++
			default:
				open++
			}
		}
		co.mu.Unlock()
		for _, c := range mine {
			co.logf("the check of %s has had no answer from a worker that may take it; the coordinator runs it", c.key)
			go co.checkLocally(c)
		}
		if len(dropped) > 0 {
			co.logf("%d checks left undone: no worker but the ones whose answers they check was heard from", len(dropped))
			st, err := co.c.JS.Stream(ctx, unitStream)
			for _, c := range dropped {
				if err == nil {
					st.DeleteMsg(ctx, c.seq)
				}
				co.persistCheck(c)
			}
		}
		if open == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}
