package campaign

import (
	"bytes"
	"context"
	"log"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kalah-solver/kalah/engine"
)

// testWatch are watch periods short enough for a test.
var testWatch = watchTimes{every: 100 * time.Millisecond, gone: 300 * time.Millisecond, lookMax: time.Second,
	backlog: 2 * time.Second, stalled: time.Minute}

// A unit asked when its answer has just been taken (the table looked up
// before the answer came, the unit asked after) is answered from the
// table: its copy is gone, and a worker given a new one would skip it.
func TestAskAfterAnswerTaken(t *testing.T) {
	e := newEnv(t, 5*time.Second)
	p := params(t, "asked-late", engine.Variant{Pits: 4, Rule: engine.NoEmptyCapture}, 3, "", engine.South)
	if err := Create(context.Background(), e.c, p); err != nil {
		t.Fatal(err)
	}
	co, err := NewCoordinator(e.c, p, CoordinatorConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer co.Close()
	b := co.root.Board
	co.note(b, 1, 3, "") // the answer taken: value >= 3
	// No worker runs: a unit shipped would wait until the deadline.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	v, err := co.ask(ctx, b, 1)
	if err != nil || v != 3 {
		t.Fatalf("ask after the answer was taken: %d, %v; want 3 from the table", v, err)
	}
	if co.st.Issued != 0 || len(co.pending) != 0 {
		t.Errorf("%d units issued, %d pending", co.st.Issued, len(co.pending))
	}
}

// Answers that reach the results bucket after the coordinator read it
// (put there by another campaign's coordinator) make the workers skip
// their units, finding them answered; the watch takes those answers from
// the bucket, and the campaign ends with the solver's values instead of
// waiting for ever.
func TestUnitAnsweredElsewhere(t *testing.T) {
	e := newEnv(t, 5*time.Second)
	_, stop := e.workers(2, nil)
	defer stop()
	r := engine.Variant{Pits: 4, Rule: engine.NoEmptyCapture}
	e.solved(params(t, "first", r, 3, "", engine.South), CoordinatorConfig{})
	// The first campaign's answers out of the bucket, put back once the
	// second campaign has read it.
	ctx := context.Background()
	kl, err := e.c.Results.ListKeys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	saved := map[string][]byte{}
	for k := range kl.Keys() {
		en, err := e.c.Results.Get(ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		saved[k] = en.Value()
	}
	for k := range saved {
		if err := e.c.Results.Delete(ctx, k); err != nil {
			t.Fatal(err)
		}
	}
	var once sync.Once
	w := testWatch
	cfg := CoordinatorConfig{watch: &w, afterLoad: func() {
		once.Do(func() {
			for k, v := range saved {
				if _, err := e.c.Results.Put(ctx, k, v); err != nil {
					t.Error(err)
				}
			}
		})
	}}
	p := params(t, "second", r, 3, "", engine.South)
	// A deadline, so that a unit waited for in vain fails the test
	// rather than hanging it.
	rctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	rec, err := e.coordinate(rctx, p, cfg)
	if err != nil {
		t.Fatalf("the second campaign did not end: %v", err)
	}
	check(t, p, rec)
	st, err := Info(ctx, e.c, p.Name)
	if err != nil {
		t.Fatal(err)
	}
	if st.Recovered == 0 {
		t.Errorf("no unit recovered: %d issued, %d done", st.Issued, st.Done)
	}
	t.Logf("%d units issued, %d done, %d recovered from the bucket or queued again", st.Issued, st.Done, st.Recovered)
}

// syncBuffer is a log's buffer read while it is written.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// With no worker to take its units, a campaign says so in its log and
// its status (units_stalled) instead of waiting silently, and goes on
// when a worker comes.
func TestStalledUnitsSaid(t *testing.T) {
	e := newEnv(t, 5*time.Second)
	p := params(t, "stalled", engine.Variant{Pits: 4, Rule: engine.EmptyCapture}, 3, "", engine.South)
	if err := Create(context.Background(), e.c, p); err != nil {
		t.Fatal(err)
	}
	var buf syncBuffer
	w := testWatch
	w.stalled = 500 * time.Millisecond
	co, err := NewCoordinator(e.c, p, CoordinatorConfig{Log: log.New(&buf, "", 0), StatusEvery: 100 * time.Millisecond, watch: &w})
	if err != nil {
		t.Fatal(err)
	}
	defer co.Close()
	type outcome struct {
		rec any
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		rec, err := co.Run(context.Background())
		done <- outcome{rec, err}
	}()
	var st *Status
	for i := 0; ; i++ {
		if st, err = Info(context.Background(), e.c, p.Name); err == nil && st.Stalled > 0 {
			break
		}
		if i == 600 {
			t.Fatalf("no unit said stalled with no worker running: %+v, %v", st, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !strings.Contains(buf.String(), "STALLED") {
		t.Errorf("the log does not say the units are stalled:\n%s", buf.String())
	}
	_, stop := e.workers(1, nil)
	defer stop()
	o := <-done
	if o.err != nil {
		t.Fatal(o.err)
	}
	if st, err = Info(context.Background(), e.c, p.Name); err != nil || st.Stalled != 0 || st.State != "done" {
		t.Errorf("after a worker came: %v, state %s, %d stalled", err, st.State, st.Stalled)
	}
}

// A worker searching one long unit is heard from through its heartbeats:
// the units waiting behind it are not said stalled.
func TestLongUnitNotStalled(t *testing.T) {
	e := newEnv(t, 600*time.Millisecond)
	_, stop := e.workers(1, func(i int, c *WorkerConfig) {
		c.delay = firstUnitTakes(3 * time.Second)
	})
	defer stop()
	p := params(t, "long-unit", engine.Variant{Pits: 4, Rule: engine.EmptyCapture}, 3, "", engine.South)
	var buf syncBuffer
	w := testWatch
	w.stalled = 500 * time.Millisecond
	if err := Create(context.Background(), e.c, p); err != nil {
		t.Fatal(err)
	}
	co, err := NewCoordinator(e.c, p, CoordinatorConfig{Log: log.New(&buf, "", 0), StatusEvery: 100 * time.Millisecond, watch: &w})
	if err != nil {
		t.Fatal(err)
	}
	defer co.Close()
	if _, err := co.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "STALLED") {
		t.Errorf("units said stalled while their worker searched:\n%s", buf.String())
	}
}
