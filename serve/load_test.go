package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/engine"
)

// The server under load, over loopback: many clients at once asking for
// positions the cache holds and for new ones. An answer the server holds
// is never refused and never waits for a search; a new search may be
// refused with 503 when the line is full, never with another error; and
// every answer is the exact one.

// loadClient is an HTTP client for clients concurrent clients of hs, each
// keeping its connection (as a browser does).
func loadClient(clients int) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConns, tr.MaxIdleConnsPerHost = clients, clients
	return &http.Client{Transport: tr, Timeout: 60 * time.Second}
}

// ask asks hs for p's answer; it returns the status code and the answer
// (nil unless 200).
func ask(ctx context.Context, c *http.Client, hs *httptest.Server, rule engine.Rule, p engine.Position) (int, *solveReply, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", hs.URL+"/api/solve?"+query(rule, p), nil)
	if err != nil {
		return 0, nil, err
	}
	r, err := c.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer r.Body.Close()
	if r.StatusCode != http.StatusOK {
		var e errorReply
		json.NewDecoder(r.Body).Decode(&e)
		return r.StatusCode, nil, fmt.Errorf("%s", e.Error)
	}
	var rep solveReply
	if err := json.NewDecoder(r.Body).Decode(&rep); err != nil {
		return r.StatusCode, nil, err
	}
	return r.StatusCode, &rep, nil
}

// exactValues solves ps in a session of the test's own, without a cache.
func exactValues(tb testing.TB, rule engine.Rule, ps []engine.Position) map[engine.Position]*kalah.Result {
	tb.Helper()
	k, err := kalah.Open(kalah.Config{Pits: ps[0].Pits, Seeds: 1, Rule: rule, NoEGDB: true, NoCache: true, Threads: 1, TableSize: 16 << 20})
	if err != nil {
		tb.Fatal(err)
	}
	defer k.Close()
	want := map[engine.Position]*kalah.Result{}
	for _, p := range ps {
		res, err := k.Solve(context.Background(), p)
		if err != nil {
			tb.Fatal(err)
		}
		want[p] = res
	}
	return want
}

// sameAnswer says how rep differs from the exact answer want, "" when it
// does not.
func sameAnswer(rep *solveReply, want *kalah.Result) string {
	if rep.Position != want.Position.String() || rep.ToMove != want.Position.ToMove.String() {
		return fmt.Sprintf("an answer for %s %s", rep.Position, rep.ToMove)
	}
	if !rep.Solved || rep.Value != want.Value || len(rep.Moves) != len(want.Moves) {
		return fmt.Sprintf("value %d (solved %v), %d moves; want %d, %d moves", rep.Value, rep.Solved, len(rep.Moves), want.Value, len(want.Moves))
	}
	for i, m := range rep.Moves {
		if m.Move != want.Moves[i].Move || m.Value != want.Moves[i].Value {
			return fmt.Sprintf("move %s = %d, want %s = %d", m.Move, m.Value, want.Moves[i].Move, want.Moves[i].Value)
		}
	}
	return ""
}

// TestLoad sends 2,000 requests from 50 concurrent clients, half of them
// for 8 positions the cache holds, half for 300 new positions of
// Kalah(3,2) (many asked for more than once, so that some join a search
// under way and some find the answer in the cache by then). It checks
// that no answer from the cache is refused or late behind a search (no
// 5xx, every one from_cache), that a new position gets 200 or 503 (a full
// line) and nothing else, and that every answer is the exact one. It is
// bounded: 2,000 requests, a minute at most.
func TestLoad(t *testing.T) {
	const clients, requests, inCache, fresh = 50, 2000, 8, 300
	rule := engine.NoEmptyCapture
	ps := positions(t, 3, 2, rule, inCache+fresh)
	cached, news := ps[:inCache], ps[inCache:]
	want := exactValues(t, rule, ps)
	_, hs := newTestServer(t, Options{})
	c := loadClient(clients)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, p := range cached {
		code, rep, err := ask(ctx, c, hs, rule, p)
		if code != 200 {
			t.Fatalf("%s: status %d: %v", p, code, err)
		}
		if d := sameAnswer(rep, want[p]); d != "" {
			t.Fatalf("%s %s: %s", p, p.ToMove, d)
		}
	}
	type outcome struct {
		cached bool
		code   int
		diff   string
		err    error
	}
	out := make(chan outcome, requests)
	var wg sync.WaitGroup
	for cl := 0; cl < clients; cl++ {
		wg.Go(func() {
			for i := cl; i < requests; i += clients {
				inCache := i%2 == 0
				p := cached[(i/2)%len(cached)]
				if !inCache {
					p = news[(i*7/2)%len(news)]
				}
				code, rep, err := ask(ctx, c, hs, rule, p)
				o := outcome{cached: inCache, code: code, err: err}
				if rep != nil {
					o.diff = sameAnswer(rep, want[p])
					if inCache && !rep.FromCache {
						o.diff = "not from the cache"
					}
				}
				out <- o
			}
		})
	}
	wg.Wait()
	close(out)
	counts := map[string]int{}
	for o := range out {
		kind := "new"
		if o.cached {
			kind = "cached"
		}
		counts[fmt.Sprintf("%s %d", kind, o.code)]++
		switch {
		case o.code == 0:
			t.Errorf("a %s position: %v", kind, o.err)
		case o.cached && o.code != 200:
			t.Errorf("a position in the cache: status %d: %v", o.code, o.err)
		case !o.cached && o.code != 200 && o.code != http.StatusServiceUnavailable:
			t.Errorf("a new position: status %d: %v", o.code, o.err)
		case o.diff != "":
			t.Errorf("a %s position: %s", kind, o.diff)
		}
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		t.Logf("%s: %d", k, counts[k])
	}
	if counts["cached 200"] != requests/2 {
		t.Errorf("%d answers from the cache, want %d", counts["cached 200"], requests/2)
	}
}

// BenchmarkCachedAnswer measures how long an answer from the cache takes
// with 50 clients asking at once, over loopback: the median and the 99th
// percentile of b.N requests, as p50-ms and p99-ms. In "idle" nothing else
// runs; in "searching" a long search holds the solve slot (and a core)
// all along, as when another page waits for a deep position.
//
//	go test -run '^$' -bench CachedAnswer -benchtime 20000x ./serve/
func BenchmarkCachedAnswer(b *testing.B) {
	for _, busy := range []bool{false, true} {
		name := "idle"
		if busy {
			name = "searching"
		}
		b.Run(name, func(b *testing.B) { benchCached(b, busy) })
	}
}

func benchCached(b *testing.B, busy bool) {
	const clients, inCache = 50, 8
	rule := engine.NoEmptyCapture
	cached := positions(b, 3, 3, rule, inCache)
	_, hs := startServer(b, Options{CacheDir: b.TempDir(), NoEGDB: true, TableSize: 16 << 20, Threads: 1, NoPonder: true})
	c := loadClient(clients)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, p := range cached {
		if code, _, err := ask(ctx, c, hs, rule, p); code != 200 {
			b.Fatalf("%s: status %d: %v", p, code, err)
		}
	}
	var searching sync.WaitGroup
	if busy {
		r, _ := engine.NewVariant(6, rule)
		deep, _ := r.StartPosition(5) // minutes without a database
		searching.Go(func() { ask(ctx, c, hs, rule, deep) })
		defer searching.Wait()
		defer cancel()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			var pr progressReply
			if fetchJSON(b, hs, "/api/progress", &pr); pr.Busy {
				break
			}
			if time.Now().After(deadline) {
				b.Fatal("the long search did not start")
			}
		}
	}
	lat := make([]time.Duration, b.N)
	var next sync.Mutex
	i := 0
	b.ResetTimer()
	var wg sync.WaitGroup
	for cl := 0; cl < clients; cl++ {
		wg.Go(func() {
			for {
				next.Lock()
				k := i
				i++
				next.Unlock()
				if k >= b.N {
					return
				}
				t0 := time.Now()
				code, rep, err := ask(ctx, c, hs, rule, cached[k%inCache])
				lat[k] = time.Since(t0)
				if code != 200 || !rep.FromCache {
					b.Errorf("status %d: %v", code, err)
					return
				}
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	slices.Sort(lat)
	ms := func(q float64) float64 {
		return float64(lat[min(len(lat)-1, int(q*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(ms(0.5), "p50-ms")
	b.ReportMetric(ms(0.99), "p99-ms")
	b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, "max-ms")
}

// syncBuffer is a log's output that tests read while the server writes.
type syncBuffer struct {
	mu sync.Mutex
	b  []byte
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b = append(s.b, p...)
	return len(p), nil
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return string(s.b)
}

// TestStoppedSolves: a search stopped at the solve timeout answers every
// request for it with its bounds, and the log says it was stopped, with
// its bounds, not that it was solved; a search whose every request went
// away stops, and the log says it was cancelled.
func TestStoppedSolves(t *testing.T) {
	var buf syncBuffer
	_, hs := newTestServer(t, Options{NoPonder: true, SolveTimeout: 300 * time.Millisecond, Log: log.New(&buf, "", 0)})
	r, _ := engine.NewVariant(6, engine.NoEmptyCapture)
	deep, _ := r.StartPosition(5) // minutes without a database
	c := loadClient(2)
	// Two requests for it: both get the bounds of the one search.
	type answer struct {
		code int
		rep  *solveReply
	}
	got := make(chan answer, 2)
	for range 2 {
		go func() {
			code, rep, _ := ask(context.Background(), c, hs, r.Rule, deep)
			got <- answer{code, rep}
		}()
	}
	for range 2 {
		a := <-got
		if a.code != 200 || a.rep.Solved || !a.rep.Interrupted || a.rep.Lower == nil || *a.rep.Lower > *a.rep.Upper {
			t.Fatalf("a search stopped at the timeout: status %d, %+v", a.code, a.rep)
		}
	}
	if l := buf.String(); !strings.Contains(l, "solve of no-empty-capture "+deep.String()+" south stopped at the solve timeout (300ms) after ") || !strings.Contains(l, "value in [") || strings.Contains(l, "solved no-empty-capture") {
		t.Errorf("log %q: want the search stopped at the timeout, with its bounds", l)
	}
	// A request that goes away stops its search.
	var buf2 syncBuffer
	_, hs = newTestServer(t, Options{NoPonder: true, Log: log.New(&buf2, "", 0)})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		ask(ctx, c, hs, r.Rule, deep)
	}()
	for {
		var pr progressReply
		if fetchJSON(t, hs, "/api/progress", &pr); pr.Busy {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-done
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(buf2.String(), " south cancelled (no request waits for it any more) after "); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("log %q: want the search cancelled", buf2.String())
		}
	}
}

// TestCachedNeverRefused: with no room in line at all (MaxQueue < 0), a
// position the cache holds is still answered while a search holds the
// slot, where a new search is refused: a position of another game than
// the open session's (the cache holds every game's records), and, on a
// server that has not opened a session yet, once the session opens (the
// request waits for it, outside the line).
func TestCachedNeverRefused(t *testing.T) {
	dir := t.TempDir()
	small := positions(t, 2, 2, engine.NoEmptyCapture, 2)
	other := positions(t, 3, 2, engine.EmptyCapture, 3)
	want := exactValues(t, engine.NoEmptyCapture, small)
	c := loadClient(4)
	ctx := context.Background()
	{
		s, hs := startServer(t, Options{CacheDir: dir, NoEGDB: true, TableSize: 16 << 20, Threads: 1, NoPonder: true})
		for _, p := range small {
			if code, _, err := ask(ctx, c, hs, engine.NoEmptyCapture, p); code != 200 {
				t.Fatalf("status %d: %v", code, err)
			}
		}
		hs.Close()
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	hold, entered := make(chan struct{}), make(chan struct{}, 4)
	var holding atomic.Bool
	s, hs := startServer(t, Options{CacheDir: dir, NoEGDB: true, TableSize: 16 << 20, Threads: 1, NoPonder: true, MaxQueue: -1,
		beforeSolve: func() {
			if holding.Load() {
				entered <- struct{}{}
				<-hold
			}
		}})
	// No session is open: the request for a position in the cache waits
	// for the one the held search opens.
	holding.Store(true)
	held := make(chan int, 2)
	go func() { code, _, _ := ask(ctx, c, hs, engine.EmptyCapture, other[0]); held <- code }()
	<-entered
	got := make(chan *solveReply, 1)
	go func() {
		code, rep, err := ask(ctx, c, hs, engine.NoEmptyCapture, small[1])
		if code != 200 {
			t.Errorf("a position in the cache, no session open yet: status %d: %v", code, err)
		}
		got <- rep
	}()
	time.Sleep(50 * time.Millisecond)
	if s.queued() != 0 {
		t.Errorf("%d waiting in line, want none", s.queued())
	}
	holding.Store(false)
	close(hold)
	if rep := <-got; rep == nil || !rep.FromCache || sameAnswer(rep, want[small[1]]) != "" {
		t.Errorf("a position in the cache: %+v", rep)
	}
	if code := <-held; code != 200 {
		t.Errorf("the held search: status %d", code)
	}
	// The session open is Kalah(3) under empty-capture; a search holds
	// the slot; Kalah(2) positions come from the cache all the same.
	hold = make(chan struct{})
	holding.Store(true)
	go func() { code, _, _ := ask(ctx, c, hs, engine.EmptyCapture, other[2]); held <- code }()
	<-entered
	for _, p := range small {
		code, rep, err := ask(ctx, c, hs, engine.NoEmptyCapture, p)
		if code != 200 || !rep.FromCache || sameAnswer(rep, want[p]) != "" {
			t.Errorf("another game's position in the cache: status %d, %+v, %v", code, rep, err)
		}
	}
	if code, _, _ := ask(ctx, c, hs, engine.EmptyCapture, other[1]); code != http.StatusServiceUnavailable {
		t.Errorf("a new search, no room in line: status %d, want 503", code)
	}
	holding.Store(false)
	close(hold)
	if code := <-held; code != 200 {
		t.Errorf("the held search: status %d", code)
	}
}
