package campaign

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/results"
	"github.com/kalah-solver/kalah/solver"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// The front end of the search: the coordinator's half of the proof.
//
// The coordinator computes every root move's exact value with MTD(f), as
// 'kalah solve' does, one MTD(f) per move and all moves at once. Each
// null-window test "value(b) >= gamma" is split at b's moves (Split plies
// deep) into the children's null-window tests, each with the window the
// parent's test gives it; the tests Split plies down are shipped as units
// and answered by the workers. The split keeps alpha-beta's pruning:
//
//  1. Table. A test the bounds known on b already decide costs nothing
//     (every answer of every unit, this run's, an earlier run's or another
//     campaign's, is in the results bucket and in the coordinator's table).
//  2. Eldest brother first (young brothers wait). The first move, in the
//     solver's root order (extra turns, captures, the rest), is tested
//     alone: when it fails high, so does b, and no other child is asked.
//  3. The brothers in parallel. Otherwise every other move's test goes
//     out at once; the first to fail high answers b's test, and the tests
//     still out are cancelled: deleted from the queue when not yet taken,
//     stopped on the worker holding them otherwise.
//  4. When every move fails low, b fails low with the largest bound.
//
// In window terms (docs/algorithms.md): a move banking g seeds with an
// extra turn tests its child at gamma-g with the sign kept; any other move
// tests the flipped child at g-gamma+1 (value(b) >= gamma through that
// move iff value(child) <= g-gamma), and the answer's sense is reversed.

// search computes the root's record.
func (co *Coordinator) search(ctx context.Context) (*results.Record, error) {
	p := co.root
	b := p.Board
	base := b.StoreDiff()
	moves := solver.RootOrder(co.rules, b)
	vals := make([]results.MoveValue, len(moves))
	co.mu.Lock()
	co.st.Moves = make([]MoveStatus, len(moves))
	for j, i := range moves {
		co.st.Moves[j] = MoveStatus{Move: engine.MoveLetter(p.ToMove, i), Lower: base - b.Seeds(), Upper: base + b.Seeds()}
	}
	co.mu.Unlock()
	errs := make([]error, len(moves))
	// The line after the moves' values (pv) goes on from the answer the
	// search took last: the last root move to end that took one.
	ctx, _ = withCause(ctx)
	top := ctx
	var wg sync.WaitGroup
	for j, i := range moves {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, _ := withCause(ctx)
			defer func() { setCause(top, causeOf(ctx)) }()
			c, r := co.rules.Sow(b, i)
			gain := int(c.OwnStore - b.OwnStore)
			mv := results.MoveValue{Move: engine.MoveLetter(p.ToMove, i), Pit: i + 1, ExtraTurn: r.Extra()}
			var lo, hi int
			var err error
			switch {
			case r.Over():
				lo = gain - int(c.OppStore-b.OppStore)
				hi = lo
			case r.Extra():
				lo, hi, err = co.mtdf(ctx, c, j, base+gain, 1)
				lo, hi = gain+lo, gain+hi
			default:
				lo, hi, err = co.mtdf(ctx, c.Flip(), j, base+gain, -1)
				lo, hi = gain-hi, gain-lo
			}
			mv.Value = base + lo
			vals[j], errs[j] = mv, err
			co.setMove(j, base+lo, base+hi)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	value := -1 << 30
	for _, m := range vals {
		value = max(value, m.Value)
	}
	rec := &results.Record{Rule: co.rules.Rule.String(), Pits: p.Pits, Seeds: co.p.Seeds, Position: p.String(),
		ToMove: p.ToMove.String(), Value: value, Result: results.Outcome(value), Moves: []results.MoveValue{}, Best: []string{}}
	sortByPit(vals)
	for _, m := range vals {
		rec.Moves = append(rec.Moves, m)
		if m.Value == value {
			rec.Best = append(rec.Best, m.Move)
		}
	}
	pv, err := co.pv(ctx, p, value-base)
	if err != nil {
		return nil, err
	}
	rec.PV, rec.PVLetters = engine.FormatPaper(pv), engine.FormatLetters(pv)
	co.stamp(rec)
	return rec, nil
}

// mtdf pins down the value of b (relative) by null-window tests, as
// solver's MTD(f) does, starting from a depth-limited guess computed by
// the coordinator itself (guess). j, offset and sign say which root move
// it is, for the status.
func (co *Coordinator) mtdf(ctx context.Context, b engine.Board, j, offset, sign int) (lo, hi int, err error) {
	s := b.Seeds()
	lo, hi = -s, s
	g := co.guess(ctx, b)
	g0 := g
	for lo < hi {
		gamma := solver.RoundUp(g, s)
		if gamma <= lo {
			gamma = lo + 2
		}
		gamma = min(gamma, hi)
		v, err := co.test(ctx, b, gamma, co.p.Split)
		if err != nil {
			return lo, hi, err
		}
		if v >= gamma {
			lo = max(lo, solver.RoundUp(v, s))
		} else {
			hi = min(hi, solver.RoundDown(v, s))
		}
		co.logf("root move %d: test at %d answered %d, value in [%d, %d] (relative; first guess %d)", j+1, gamma, v, lo, hi, g0)
		g = v
		if sign > 0 {
			co.setMove(j, offset+lo, offset+hi)
		} else {
			co.setMove(j, offset-hi, offset-lo)
		}
	}
	return lo, hi, nil
}

// test answers "value(b) >= gamma" with a fail-soft bound, splitting it
// split plies deep (steps 1-4 above).
func (co *Coordinator) test(ctx context.Context, b engine.Board, gamma, split int) (int, error) {
	s := b.Seeds()
	switch {
	case b.Over():
		return 0, nil
	case gamma <= -s:
		return -s, nil
	case gamma > s:
		return s, nil
	}
	gamma = solver.RoundUp(gamma, s)
	co.mu.Lock()
	v, ok := co.lookup(b, gamma)
	co.mu.Unlock()
	if ok {
		return v, nil
	}
	if s <= co.p.LocalSeeds || s <= co.localDB {
		return co.testLocal(ctx, b, gamma)
	}
	if split <= 0 {
		return co.ask(ctx, b, gamma)
	}
	moves := solver.RootOrder(co.rules, b)
	ctx = context.WithValue(ctx, parentKey{}, UnitKey(co.rules, b, gamma))
	// Step 1 again, for the children: answers known below b (an earlier
	// run's, another campaign's) decide the test without shipping a unit.
	if v, ok := co.peek(b, gamma, split); ok {
		return v, nil
	}
	// Step 2: the eldest brother alone.
	v, high, err := co.testMove(ctx, b, moves[0], gamma, split-1)
	if err != nil {
		return v, err
	}
	if high {
		co.noteLive(ctx, b, gamma, v)
		return v, nil
	}
	best := v
	if len(moves) == 1 {
		return best, nil
	}
	// Step 3: the younger brothers in parallel, the first to fail high
	// ending the test and cancelling the others.
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type answer struct {
		v     int
		high  bool
		err   error
		cause string
	}
	out := make(chan answer, len(moves)-1)
	for _, i := range moves[1:] {
		go func() {
			bctx, _ := withCause(sctx)
			v, high, err := co.testMove(bctx, b, i, gamma, split-1)
			out <- answer{v, high, err, causeOf(bctx)}
		}()
	}
	var firstErr error
	for range moves[1:] {
		a := <-out
		setCause(ctx, a.cause)
		switch {
		case a.err != nil:
			if firstErr == nil {
				firstErr = a.err
			}
		case a.high:
			cancel()
			co.noteLive(ctx, b, gamma, a.v)
			return a.v, nil
		default:
			best = max(best, a.v)
		}
	}
	if firstErr != nil {
		return 0, firstErr
	}
	// Step 4: every move failed low.
	co.noteLive(ctx, b, gamma, best)
	return best, nil
}

// noteLive notes a bound the search derived, unless the search has ended
// (a quarantine voids it, check.go, and clears the table after ending it):
// a bound that rests on a wrong answer must not outlive it.
func (co *Coordinator) noteLive(ctx context.Context, b engine.Board, gamma, v int) {
	co.mu.Lock()
	var crossed []string
	if ctx.Err() == nil {
		crossed = co.note(b, gamma, v, "")
	}
	co.mu.Unlock()
	co.checkContradicted(ctx, crossed)
}

// peek answers the test (b, gamma) from the table alone, looking split
// plies down: a move known to fail high decides it, as do all moves known
// to fail low. It ships nothing.
func (co *Coordinator) peek(b engine.Board, gamma, split int) (int, bool) {
	s := b.Seeds()
	switch {
	case b.Over():
		return 0, true
	case gamma <= -s:
		return -s, true
	case gamma > s:
		return s, true
	}
	gamma = solver.RoundUp(gamma, s)
	co.mu.Lock()
	v, ok := co.lookup(b, gamma)
	co.mu.Unlock()
	if ok || split <= 0 {
		return v, ok
	}
	best, all := -s-1, true
	for _, i := range solver.RootOrder(co.rules, b) {
		c, r := co.rules.Sow(b, i)
		gain := int(c.OwnStore - b.OwnStore)
		mv, known := gain-int(c.OppStore-b.OppStore), true
		if !r.Over() {
			if !r.Extra() {
				c = c.Flip()
			}
			_, g := engine.ChildWindow(r, gain, gamma-1, gamma)
			var t int
			t, known = co.peek(c, g, split-1)
			mv = engine.MoveValue(r, gain, t)
		}
		high := mv >= gamma
		switch {
		case known && high:
			return mv, true
		case known:
			best = max(best, mv)
		default:
			all = false
		}
	}
	return best, all
}

// testMove tests move i of b against gamma: it returns a bound on the
// move's value (relative to b's stores) and whether it fails high.
func (co *Coordinator) testMove(ctx context.Context, b engine.Board, i, gamma, split int) (int, bool, error) {
	c, r := co.rules.Sow(b, i)
	gain := int(c.OwnStore - b.OwnStore)
	if r.Over() {
		v := gain - int(c.OppStore-b.OppStore)
		return v, v >= gamma, nil
	}
	if !r.Extra() {
		c = c.Flip()
	}
	// The move fails high iff its value passes the null window
	// (gamma-1, gamma): one test of the child at the upper end of the
	// window that asks of it, seen through the sign rule (engine/value.go).
	_, g := engine.ChildWindow(r, gain, gamma-1, gamma)
	t, err := co.test(ctx, c, g, split)
	v := engine.MoveValue(r, gain, t)
	return v, v >= gamma, err
}

// testLocal runs a test on a small board with the coordinator's own
// session.
func (co *Coordinator) testLocal(ctx context.Context, b engine.Board, gamma int) (int, error) {
	var v int
	err := co.withLocal(func(k *kalah.Session) error {
		var err error
		v, _, err = k.NullWindow(ctx, b, gamma)
		return err
	})
	if err != nil {
		return 0, err
	}
	co.noteLive(ctx, b, gamma, v)
	co.mu.Lock()
	co.st.Local++
	co.mu.Unlock()
	return v, nil
}

// ask ships the test (b, gamma) as a unit, or joins the unit already out
// for it, and waits for its answer. When ctx ends while the campaign goes
// on (a brother failed high) and nobody else waits for the unit, the unit
// is cancelled.
func (co *Coordinator) ask(ctx context.Context, b engine.Board, gamma int) (int, error) {
	key := UnitKey(co.rules, b, gamma)
	co.mu.Lock()
	// The table again, under the lock that take notes an answer and
	// closes its unit under: an answer taken since test looked is not
	// asked for again (its unit's copy is gone, and a worker given a new
	// one skips it, its answer being in the bucket).
	if v, ok := co.lookup(b, gamma); ok {
		co.mu.Unlock()
		return v, nil
	}
	p := co.pending[key]
	first := p == nil
	if first {
		p = &pend{done: make(chan struct{}), cause: causeOf(ctx), parent: parentOf(ctx), since: time.Now()}
		co.pending[key] = p
	}
	p.refs++
	co.mu.Unlock()
	if first {
		// The unit goes out even when ctx ends meanwhile (a brother
		// failed high): a publish cut short may still have reached the
		// stream, and then only release (below) takes it back; before,
		// such a unit was solved for nothing, and answered uncounted.
		// Each call to the cluster is bounded (opTimeout) and tried
		// again while the cluster does not answer (outage.go).
		err := co.issue(context.WithoutCancel(ctx), key, b, gamma, p, false)
		if err != nil {
			co.mu.Lock()
			if !p.closed {
				p.err, p.closed = err, true
				close(p.done)
				delete(co.pending, key)
			}
			co.mu.Unlock()
		}
	}
	select {
	case <-p.done:
		setCause(ctx, p.msgID)
		return p.v, p.err
	case <-ctx.Done():
		co.release(key, p)
		return 0, ctx.Err()
	}
}

// issue marks the unit issued in the state bucket and puts it on the
// queue. A unit issued by an earlier run and not given up is put again
// under the same message id, which JetStream drops as a duplicate while
// the first copy is still queued; a worker also skips a unit whose answer
// is already in the bucket.
//
// With again, the unit goes out under a new message id even when its last
// copy is still known to the stream (its answer was rejected).
func (co *Coordinator) issue(ctx context.Context, key string, b engine.Board, gamma int, p *pend, again bool) error {
	co.issueMu.Lock()
	defer co.issueMu.Unlock()
	mk := mark{N: 1}
	markKey := co.p.Name + ".unit." + key
	if e, err := co.c.State.Get(ctx, markKey); err == nil {
		var old mark
		if json.Unmarshal(e.Value(), &old) == nil {
			mk.N = old.N
			if old.Cancelled || again {
				mk.N++
			}
		}
	}
	co.mu.Lock()
	exclude := co.quarantinedIDs()
	prefer, until := co.preferred(b)
	co.mu.Unlock()
	u := Unit{Campaign: co.p.Name, Key: key, Rule: co.rules.Rule.String(), Pits: co.rules.Pits, Gamma: gamma,
		GameSeeds: co.root.Board.Seeds(), Build: co.p.Build, EGDBSeeds: co.p.EGDBSeeds, Exclude: exclude,
		Prefer: prefer, PreferUntil: until}
	body, _ := json.Marshal(u)
	var ack *jetstream.PubAck
	var id string
	for {
		data, _ := json.Marshal(mk)
		if err := co.retry(ctx, "marking unit "+key, func(ctx context.Context) error {
			_, err := co.c.State.Put(ctx, markKey, data)
			return err
		}); err != nil {
			return err
		}
		id = fmt.Sprintf("%s.%s.%d", co.p.Name, key, mk.N)
		// Noted before the copy goes out: its answer may be taken
		// before the publish returns.
		co.mu.Lock()
		if ti, ok := co.issued[key]; !ok || ti.id != id {
			co.issued[key] = issueInfo{id: id, at: time.Now(), cause: p.cause, parent: p.parent, prefer: prefer}
		}
		co.mu.Unlock()
		if err := co.retry(ctx, "queueing unit "+key, func(ctx context.Context) (err error) {
			ack, err = co.c.JS.PublishMsg(ctx, &nats.Msg{Subject: unitSubject(co.p.Name), Data: body}, jetstream.WithMsgID(id))
			return err
		}); err != nil {
			return fmt.Errorf("queueing unit %s: %w", key, err)
		}
		if !ack.Duplicate {
			break
		}
		// An earlier run's copy: fine while it is queued or held (its
		// answer comes), lost when it left the queue unanswered (purged
		// by 'campaign stop', or deleted): then it goes out anew.
		var st jetstream.Stream
		if err := co.retry(ctx, "reading the queue", func(ctx context.Context) (err error) {
			st, err = co.c.JS.Stream(ctx, unitStream)
			return err
		}); err != nil {
			return err
		}
		if err := co.retry(ctx, "reading the queue", func(ctx context.Context) error {
			_, err := st.GetMsg(ctx, ack.Sequence)
			return err
		}); err == nil {
			break
		}
		// A worker acks a unit after publishing its answer, and acks
		// unsolved a unit whose answer is in the bucket: a copy gone
		// from the queue may have been answered. An answer in the bucket
		// answers the unit; one still on its way closes it when taken
		// (and the new copy is then skipped).
		if co.fromBucket(ctx, key, p) {
			return nil
		}
		mk.N++
	}
	co.mu.Lock()
	p.seq, p.msgID = ack.Sequence, id
	p.gone, p.look = time.Time{}, time.Now().Add(co.watchT.gone)
	if !ack.Duplicate {
		co.st.Issued++
	}
	co.mu.Unlock()
	return nil
}

// reissue queues a unit still waited for again, under a new message id,
// after its answer was rejected (the worker acked the unit).
func (co *Coordinator) reissue(key string) {
	co.mu.Lock()
	p := co.pending[key]
	waited := p != nil && !p.closed
	co.mu.Unlock()
	if !waited || co.stopping() {
		return
	}
	_, b, gamma, err := ParseKey(key)
	if err != nil {
		return
	}
	if err := co.issue(context.Background(), key, b, gamma, p, true); err != nil {
		co.logf("queueing %s again: %v", key, err)
	}
}

// release drops one waiter of a unit; the last one gives the unit up,
// unless the whole campaign is stopping (then the unit stays queued for
// the next run).
func (co *Coordinator) release(key string, p *pend) {
	co.mu.Lock()
	p.refs--
	if p.refs > 0 || p.closed {
		co.mu.Unlock()
		return
	}
	p.err, p.closed = context.Canceled, true
	close(p.done)
	delete(co.pending, key)
	seq, id := p.seq, p.msgID
	co.st.Cancelled++
	co.mu.Unlock()
	if co.stopping() || id == "" {
		return
	}
	// Under issueMu: a unit asked again meanwhile (a new waiter, already
	// in co.pending) is not cancelled; one asked after sees the mark and
	// goes out under a new message id.
	co.issueMu.Lock()
	defer co.issueMu.Unlock()
	co.mu.Lock()
	again := co.pending[key] != nil
	co.mu.Unlock()
	if again {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5e9)
	defer cancel()
	data, _ := json.Marshal(mark{N: 1, Cancelled: true})
	if e, err := co.c.State.Get(ctx, co.p.Name+".unit."+key); err == nil {
		var mk mark
		if json.Unmarshal(e.Value(), &mk) == nil {
			mk.Cancelled = true
			data, _ = json.Marshal(mk)
		}
	}
	co.retry(context.Background(), "marking unit "+key+" cancelled", func(ctx context.Context) error {
		_, err := co.c.State.Put(ctx, co.p.Name+".unit."+key, data)
		return err
	})
	if st, err := co.c.JS.Stream(ctx, unitStream); err == nil {
		st.DeleteMsg(ctx, seq) // fails harmlessly when already taken
	}
	co.c.NC.Publish(cancelSubject(co.p.Name), []byte(id))
}

// pv follows optimal moves from p, whose relative value is v, to the end
// of the game: solver.FollowPV (the solver's own line, the same window
// rule and root order, but without the table's move first: the
// coordinator's table does not hold the workers' searches) with the
// campaign's split test in place of the solver's, nearly every step
// answered by the table and small boards by the coordinator's own solver.
func (co *Coordinator) pv(ctx context.Context, p engine.Position, v int) ([]engine.Ply, error) {
	return solver.FollowPV(co.rules, p, v, func(c engine.Board, gamma int) (int, error) {
		return co.test(ctx, c, gamma, co.p.Split)
	}, nil)
}

func sortByPit(ms []results.MoveValue) {
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && ms[j].Pit < ms[j-1].Pit; j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
}
