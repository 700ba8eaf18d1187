package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/play"
	"github.com/kalah-solver/kalah/solver"
)

// newTestServer starts a server on small sessions: a cache in a temporary
// directory, no endgame database, a 16 MiB table, one thread.
func newTestServer(t *testing.T, opts Options) (*Server, *httptest.Server) {
	t.Helper()
	if opts.CacheDir == "" {
		opts.CacheDir = t.TempDir()
	}
	opts.NoEGDB = true
	opts.TableSize = 16 << 20
	opts.Threads = 1
	return startServer(t, opts)
}

// startServer starts a server with opts behind an HTTP test server, both
// closed when the test ends.
func startServer(tb testing.TB, opts Options) (*Server, *httptest.Server) {
	s := New(opts)
	hs := httptest.NewServer(s)
	tb.Cleanup(func() {
		hs.Close()
		if err := s.Close(); err != nil {
			tb.Error(err)
		}
	})
	return s, hs
}

// fetchJSON fetches path and decodes the JSON answer into v; it returns the
// status code.
func fetchJSON(t testing.TB, hs *httptest.Server, path string, v any) int {
	t.Helper()
	r, err := http.Get(hs.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("%s: Content-Type %q", path, ct)
	}
	if err := json.NewDecoder(r.Body).Decode(v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return r.StatusCode
}

// reference solves p in a session of its own, without any cache.
func reference(t *testing.T, c engine.Rule, p engine.Position) *kalah.Result {
	t.Helper()
	k, err := kalah.Open(kalah.Config{Pits: p.Pits, Seeds: 1, Rule: c, NoEGDB: true, NoCache: true, Threads: 1, TableSize: 16 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	res, err := k.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func query(c engine.Rule, p engine.Position) string {
	return url.Values{"rule": {c.String()}, "position": {p.String()}, "to_move": {p.ToMove.String()}}.Encode()
}

func checkSolve(t *testing.T, rep *solveReply, want *kalah.Result) {
	t.Helper()
	if !rep.Solved || rep.Value != want.Value || len(rep.Moves) != len(want.Moves) {
		t.Fatalf("%s %s: value %d solved %v, %d moves; want %d, %d moves", rep.Position, rep.ToMove, rep.Value, rep.Solved, len(rep.Moves), want.Value, len(want.Moves))
	}
	for i, m := range rep.Moves {
		if m.Move != want.Moves[i].Move || m.Value != want.Moves[i].Value {
			t.Errorf("%s: move %s = %d, want %s = %d", rep.Position, m.Move, m.Value, want.Moves[i].Move, want.Moves[i].Value)
		}
	}
}

func TestSolveAndCache(t *testing.T) {
	_, hs := newTestServer(t, Options{})
	r, _ := engine.NewVariant(4, engine.EmptyCapture)
	start, _ := r.StartPosition(3)
	want := reference(t, engine.EmptyCapture, start)
	for round := 0; round < 2; round++ {
		var rep solveReply
		if code := fetchJSON(t, hs, "/api/solve?pits=4&seeds=3&rule=empty-capture", &rep); code != 200 {
			t.Fatalf("status %d", code)
		}
		checkSolve(t, &rep, want)
		if rep.Seeds != 3 || rep.Rule != "empty-capture" || rep.PVLetters == "" || len(rep.Best) == 0 {
			t.Errorf("record %+v", rep.Record)
		}
		if rep.FromCache != (round == 1) {
			t.Errorf("round %d: from_cache %v", round, rep.FromCache)
		}
		if rep.Cache == "" || rep.StoreHits != 0 || rep.TTBytes != 0 || rep.TableSize == 0 {
			t.Errorf("round %d: cache %q; deprecated fields set: store_hits %d, tt_bytes %d", round, rep.Cache, rep.StoreHits, rep.TTBytes)
		}
	}
}

func TestLineAndChoose(t *testing.T) {
	_, hs := newTestServer(t, Options{})
	var line lineReply
	if code := fetchJSON(t, hs, "/api/line?pits=4&seeds=3&moves=b,d,A", &line); code != 200 {
		t.Fatalf("status %d", code)
	}
	if len(line.Steps) != 3 || line.Line != "bd-A" || !line.Steps[0].ExtraTurn || line.Steps[2].After.ToMove != "north" {
		t.Fatalf("line %+v", line)
	}
	r, _ := engine.NewVariant(4, engine.NoEmptyCapture)
	p, _ := engine.ParsePosition(line.Steps[2].After.Position, engine.North)
	want := reference(t, engine.NoEmptyCapture, p)
	for _, lv := range play.Levels {
		var ch chooseReply
		if code := fetchJSON(t, hs, "/api/choose?"+query(r.Rule, p)+"&level="+lv.Name+"&seed=5", &ch); code != 200 {
			t.Fatalf("status %d", code)
		}
		checkSolve(t, ch.Solve, want)
		mv, _ := lv.Choose(want.Record, 5)
		if ch.Move != mv.Move || ch.Value != mv.Value {
			t.Errorf("%s: chose %s (%d), want %s (%d)", lv.Name, ch.Move, ch.Value, mv.Move, mv.Value)
		}
	}
}

func TestBadInput(t *testing.T) {
	_, hs := newTestServer(t, Options{})
	parseErr := func(s string, side engine.Side) string {
		_, err := engine.ParsePosition(s, side)
		return err.Error()
	}
	for _, c := range []struct{ path, want string }{
		{"/api/solve?position=1,2,3", parseErr("1,2,3", engine.South)},
		{"/api/solve?position=0,0,0,5,1,1,0,0", parseErr("0,0,0,5,1,1,0,0", engine.South)},
		{"/api/solve?position=4,x,4,0", parseErr("4,x,4,0", engine.South)},
		{"/api/line?position=1,0,1,0&to_move=east", "side to move \"east\": want south or north"},
		{"/api/solve?rule=sometimes", ""},
		{"/api/solve?pits=9", ""},
		{"/api/solve?pits=6&seeds=30", ""},
		{"/api/solve?pits=two", "pits: \"two\" is not a whole number"},
		{"/api/solve?position=1,0,1,0&pits=6", "pits 6 contradicts position, which has 1 pits per side"},
		{"/api/solve?to_move=north", "to_move needs position: a start position has South to move"},
		{"/api/line?pits=4&seeds=3&moves=b,b", ""},
		{"/api/choose?pits=2&seeds=1&level=godlike", ""},
		{"/api/choose?pits=2&seeds=1&seed=-1", ""},
	} {
		var e errorReply
		if code := fetchJSON(t, hs, c.path, &e); code != http.StatusBadRequest || e.Error == "" {
			t.Errorf("%s: status %d, %+v; want 400", c.path, code, e)
		} else if c.want != "" && e.Error != c.want {
			t.Errorf("%s: %q, want %q", c.path, e.Error, c.want)
		}
	}
	var e errorReply
	if code := fetchJSON(t, hs, "/api/nothing", &e); code != http.StatusNotFound {
		t.Errorf("/api/nothing: status %d", code)
	}
	// Another method than an endpoint's: 405, naming the one it takes.
	for _, c := range []struct{ method, path, allow string }{
		{http.MethodPost, "/api/solve", "GET, HEAD"},
		{http.MethodPut, "/api/line", "GET, HEAD"},
		{http.MethodDelete, "/api/status", "GET, HEAD"},
		{http.MethodPost, "/api/progress", "GET, HEAD"},
		{http.MethodPost, "/api/choose?pits=2&seeds=1", "GET, HEAD"},
	} {
		req, err := http.NewRequest(c.method, hs.URL+c.path, strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := hs.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var e errorReply
		err = json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		path, _, _ := strings.Cut(c.path, "?")
		if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != c.allow || err != nil ||
			!strings.Contains(e.Error, c.method+" "+path) {
			t.Errorf("%s %s: status %d, Allow %q, %q (%v); want 405, Allow %q", c.method, c.path, resp.StatusCode, resp.Header.Get("Allow"), e.Error, err, c.allow)
		}
	}
	if code := fetchJSON(t, hs, "/api/solve/", &e); code != http.StatusNotFound {
		t.Errorf("/api/solve/: status %d, want 404", code)
	}
}

// TestStrictQuery: an unknown, repeated, empty or malformed parameter is
// a 400 whose message names it, on every endpoint; never an answer for
// another position (the start's, say) than the one asked.
func TestStrictQuery(t *testing.T) {
	_, hs := newTestServer(t, Options{NoPonder: true})
	for _, c := range []struct{ path, want string }{
		{"/api/solve?%zz", `parameter name "%zz" has a bad escape, "%zz"`},
		{"/api/solve?pits=4&seeds=3&a%zzb=1", `parameter name "a%zzb" has a bad escape, "%zz"`},
		{"/api/solve?pits=4&seeds=%zz", `seeds: "%zz" has a bad escape, "%zz"`},
		{"/api/solve?position=", "position: empty"},
		{"/api/solve?position", "position: empty"},
		{"/api/solve?pits=4&seeds=", "seeds: empty"},
		{"/api/solve?position=3;3;3;3;0;3;3;3;3;0", `position: field 1 is "3;3;3;3;0;3;3;3;3;0"`},
		{"/api/solve?position=3%3B3%3B3%3B3%3B0%3B3%3B3%3B3%3B3%3B0", `position: field 1 is "3;3;3;3;0;3;3;3;3;0"`},
		{"/api/solve?position=3,3,3,3,0,3,3,3,3,0;to_move=north", `position: field 10 is "0;to_move=north"`},
		{"/api/solve?pits=4&pits=5", "pits: given more than once"},
		{"/api/solve?pits=4&seeds=3&rule=empty-capture&rule=empty-capture", "rule: given more than once"},
		{"/api/solve?pits=4&depth=3", `unknown parameter "depth"`},
		{"/api/solve?=4", "has no parameter name"},
		{"/api/solve?pits=4&seeds=3&moves=b", `unknown parameter "moves"`},
		{"/api/solve?pits=4&seeds=3&level=easy", `unknown parameter "level"`},
		{"/api/line?pits=4&seeds=3&id=x", `unknown parameter "id"`},
		{"/api/line?pits=4&seeds=3&moves=b&moves=d", "moves: given more than once"},
		{"/api/choose?pits=4&seeds=3&seed=1&seed=2", "seed: given more than once"},
		{"/api/choose?pits=4&seeds=3&level=", "level: empty"},
		{"/api/choose?pits=4&seeds=3&moves=b,b", `move "b"`},
		{"/api/progress?pits=4", `unknown parameter "pits"`},
		{"/api/progress?id=a&id=b", "id: given more than once"},
		{"/api/progress?id=a%", `id: "a%" has a bad escape, "%"`},
		{"/api/solve?position=1,0,1,0&to_move=", "to_move: empty"},
		{"/api/solve?pits=%20", "pits: empty"},
	} {
		var e errorReply
		if code := fetchJSON(t, hs, c.path, &e); code != http.StatusBadRequest || !strings.Contains(e.Error, c.want) {
			t.Errorf("%s: status %d, %q; want 400 with %q", c.path, code, e.Error, c.want)
		}
	}
	// What stays allowed: an empty line, a stray '&', escapes that decode
	// to what the parameter wants.
	var line lineReply
	if code := fetchJSON(t, hs, "/api/line?pits=4&seeds=3&moves=&", &line); code != 200 || len(line.Steps) != 0 {
		t.Errorf("an empty line: status %d, %+v", code, line)
	}
	var rep solveReply
	if code := fetchJSON(t, hs, "/api/solve?position=1%2C0%2C1%2C0&to_move=north&&rule=empty-capture", &rep); code != 200 || rep.Position != "1,0,1,0" || rep.ToMove != "north" {
		t.Errorf("an escaped position: status %d, %s %s", code, rep.Position, rep.ToMove)
	}
	// /api/choose plays moves first, as /api/line does.
	var ch chooseReply
	if code := fetchJSON(t, hs, "/api/choose?pits=4&seeds=3&moves=b,d", &ch); code != 200 || ch.Solve == nil || ch.Solve.ToMove != "north" || ch.Solve.Seeds != 0 {
		t.Errorf("choose after b,d: status %d, %+v", code, ch)
	}
}

// positions lists n distinct positions of Kalah(m,n) under c that are
// not over, in the order a breadth-first walk from the start meets them.
func positions(t testing.TB, m, seeds int, c engine.Rule, n int) []engine.Position {
	t.Helper()
	r, err := engine.NewVariant(m, c)
	if err != nil {
		t.Fatal(err)
	}
	start, err := r.StartPosition(seeds)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[engine.Position]bool{start: true}
	out, next := []engine.Position{}, []engine.Position{start}
	for len(next) > 0 && len(out) < n {
		p := next[0]
		next = next[1:]
		out = append(out, p)
		for _, i := range p.Board.MoveList() {
			q, res := r.PlayPosition(p, i)
			if !res.Over() && !seen[q] {
				seen[q] = true
				next = append(next, q)
			}
		}
	}
	if len(out) < n {
		t.Fatalf("Kalah(%d,%d) has only %d positions", m, seeds, len(out))
	}
	return out
}

// TestQueueCap holds the solve slot and checks that MaxQueue new searches
// wait and the next is turned away with 503, while the answers the server
// holds never are: a request for a position whose search waits joins it
// (taking no place in line), and a position in the cache is answered at
// once; /api/progress counts the waiting searches, and all that waited
// are answered once the slot is free.
func TestQueueCap(t *testing.T) {
	hold := make(chan struct{})
	var release sync.Once
	defer release.Do(func() { close(hold) })
	entered := make(chan struct{}, 16)
	var armed atomic.Bool
	var once sync.Once
	s, hs := newTestServer(t, Options{MaxQueue: 2, NoPonder: true, beforeSolve: func() {
		if !armed.Load() {
			return
		}
		entered <- struct{}{}
		once.Do(func() { <-hold })
	}})
	ps := positions(t, 3, 2, engine.NoEmptyCapture, 5)
	path := func(p engine.Position) string { return "/api/solve?" + query(engine.NoEmptyCapture, p) }
	var rep solveReply
	if code := fetchJSON(t, hs, path(ps[4]), &rep); code != 200 { // now in the cache
		t.Fatalf("status %d", code)
	}
	armed.Store(true)
	codes := make(chan int, 8)
	fire := func(p engine.Position) {
		var rep solveReply
		codes <- fetchJSON(t, hs, path(p), &rep)
	}
	waitQueued := func(n int) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for s.queued() < n {
			if time.Now().After(deadline) {
				t.Fatalf("%d searches waiting, want %d", s.queued(), n)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	go fire(ps[0])
	<-entered // the first holds the slot
	go fire(ps[1])
	go fire(ps[2])
	waitQueued(2)
	// Two more requests for a waiting position join its search.
	go fire(ps[1])
	go fire(ps[2])
	var e errorReply
	if code := fetchJSON(t, hs, path(ps[3]), &e); code != http.StatusServiceUnavailable {
		t.Errorf("a new search past the cap: status %d, %+v; want 503", code, e)
	}
	for i := 0; i < 10; i++ {
		var rep solveReply
		if code := fetchJSON(t, hs, path(ps[4]), &rep); code != 200 || !rep.FromCache {
			t.Errorf("a position in the cache, the line full: status %d, from_cache %v", code, rep.FromCache)
		}
	}
	var pr progressReply
	fetchJSON(t, hs, "/api/progress", &pr)
	if pr.Queued != 2 {
		t.Errorf("progress: %+v, want 2 queued", pr)
	}
	release.Do(func() { close(hold) })
	for i := 0; i < 5; i++ {
		if c := <-codes; c != 200 {
			t.Errorf("a waiting request: status %d", c)
		}
	}
	if n := len(entered) + 1; n != 3 {
		t.Errorf("%d searches ran, want 3 (the joined requests run none)", n)
	}
}

// TestConcurrent sends requests for several games at once (the server
// switches sessions between them) and checks every answer; run it with
// -race.
func TestConcurrent(t *testing.T) {
	_, hs := newTestServer(t, Options{MaxQueue: 64})
	type job struct {
		c engine.Rule
		p engine.Position
	}
	var jobs []job
	for _, c := range engine.AllRules {
		for _, m := range []int{2, 3} {
			r, _ := engine.NewVariant(m, c)
			start, _ := r.StartPosition(3)
			l, _ := play.Replay(r, start, nil)
			for k := 0; k < 3 && !l.Current().Board.Over(); k++ {
				jobs = append(jobs, job{c, l.Current()})
				p := l.Current()
				l.Play(engine.MoveLetter(p.ToMove, p.Board.MoveList()[0]))
			}
		}
	}
	want := make([]*kalah.Result, len(jobs))
	for i, j := range jobs {
		want[i] = reference(t, j.c, j.p)
	}
	var wg sync.WaitGroup
	for round := 0; round < 2; round++ {
		for i, j := range jobs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var rep solveReply
				path := fmt.Sprintf("/api/solve?%s", query(j.c, j.p))
				if code := fetchJSON(t, hs, path, &rep); code != 200 {
					t.Errorf("%s: status %d", path, code)
					return
				}
				checkSolve(t, &rep, want[i])
				var pr progressReply
				fetchJSON(t, hs, "/api/progress", &pr)
			}()
		}
	}
	wg.Wait()
}

// TestProgressBounds checks how /api/progress combines reports: a move's
// bounds are intersected with what the seeds allow and with the earlier
// reports, the root's are its best move's, and a report on the root
// narrows the root's alone.
func TestProgressBounds(t *testing.T) {
	s, hs := newTestServer(t, Options{})
	var pr progressReply
	if fetchJSON(t, hs, "/api/progress", &pr); pr.Busy || pr.Running != nil {
		t.Fatalf("idle server: %+v", pr)
	}
	r, _ := engine.NewVariant(3, engine.NoEmptyCapture)
	p, err := engine.ParsePosition("1,2,0,3,0,0,4,0", engine.South)
	if err != nil {
		t.Fatal(err)
	}
	cur := newRunning(r, p)
	cur.f = &flight{ids: []string{"me"}}
	// The stores differ by 3. a (1 seed) sows into b and passes the turn,
	// leaving 7 seeds; b reaches the store (an extra turn), leaving 6; c
	// is empty.
	want := []liveMove{{"a", 1, 3 - 7, 3 + 7, false}, {"b", 2, 4 - 6, 4 + 6, false}}
	if fmt.Sprint(cur.Moves) != fmt.Sprint(want) || cur.Lower != -2 || cur.Upper != 10 {
		t.Fatalf("initial bounds %+v [%d, %d], want %+v [-2, 10]", cur.Moves, cur.Lower, cur.Upper, want)
	}
	s.mu.Lock()
	s.cur = cur
	s.mu.Unlock()
	s.progress(solver.Progress{Stage: "move b", Lower: -1000, Upper: 5, Nodes: 42})
	s.progress(solver.Progress{Stage: "move b", Lower: 2, Upper: 1000, Nodes: 50})
	fetchJSON(t, hs, "/api/progress?id=me", &pr)
	c := pr.Running
	if !pr.Busy || !pr.Yours || c == nil || c.Stage != "move b" || c.Searching != "b" || c.Nodes != 50 || c.Position != p.String() {
		t.Fatalf("progress %+v %+v", pr, c)
	}
	if m := c.Moves[1]; m.Lower != 2 || m.Upper != 5 || m.Solved || c.Lower != 2 || c.Upper != 10 {
		t.Errorf("after two reports on b: %+v, root [%d, %d]; want b in [2, 5], root [2, 10]", m, c.Lower, c.Upper)
	}
	s.progress(solver.Progress{Stage: "value", Lower: 0, Upper: 7})
	s.progress(solver.Progress{Stage: "move a", Lower: -3, Upper: -3})
	var pr2 progressReply
	fetchJSON(t, hs, "/api/progress?id=other", &pr2)
	c = pr2.Running
	pr = pr2
	if pr.Yours || c.Searching != "" || !c.Moves[0].Solved || c.Moves[0].Lower != -3 || c.Lower != 2 || c.Upper != 5 {
		t.Errorf("after a's value: %+v, root [%d, %d]; want a = -3 and root [2, 5]", c.Moves, c.Lower, c.Upper)
	}
	s.mu.Lock()
	s.cur = nil
	s.mu.Unlock()
}

// TestLiveBounds pauses a solve after every pass of its search and checks
// what /api/progress shows at each pause against a solve of the test's
// own: every move's bounds and the root's hold the exact value and only
// narrow, the move being searched is named, until every move is solved; a
// second request for the position joins the search and sees its bounds,
// and a request for another one, queued meanwhile, is told its place in
// line.
func TestLiveBounds(t *testing.T) {
	paused, resume := make(chan solver.Progress), make(chan struct{})
	// The ticker never fires: every report comes from a pass, in the
	// goroutine of the search, which waits here.
	s, hs := newTestServer(t, Options{ProgressEvery: time.Hour, afterProgress: func(p solver.Progress) {
		paused <- p
		<-resume
	}})
	r, _ := engine.NewVariant(4, engine.NoEmptyCapture)
	start, _ := r.StartPosition(3)
	want := reference(t, r.Rule, start)
	value := map[string]int{}
	for _, m := range want.Moves {
		value[m.Move] = m.Value
	}
	codes := make(chan int, 2)
	fire := func(id string) {
		var rep solveReply
		codes <- fetchJSON(t, hs, "/api/solve?pits=4&seeds=3&id="+id, &rep)
		if rep.Solved && rep.Value != want.Value {
			t.Errorf("%s: value %d, want %d", id, rep.Value, want.Value)
		}
	}
	go fire("first")
	var prev *running
	passes, narrowed := 0, false
	for p := range paused {
		passes++
		var pr progressReply
		fetchJSON(t, hs, "/api/progress?id=first", &pr)
		c := pr.Running
		if !pr.Yours || c == nil || len(c.Moves) != len(want.Moves) {
			t.Fatalf("pass %d (%s): progress %+v", passes, p.Stage, pr)
		}
		if c.Lower > want.Value || c.Upper < want.Value {
			t.Errorf("pass %d: root in [%d, %d], value %d", passes, c.Lower, c.Upper, want.Value)
		}
		for i, m := range c.Moves {
			if v := value[m.Move]; m.Lower > v || m.Upper < v || m.Solved != (m.Lower == m.Upper) {
				t.Errorf("pass %d: move %+v, value %d", passes, m, v)
			}
			if prev != nil && (m.Lower < prev.Moves[i].Lower || m.Upper > prev.Moves[i].Upper) {
				t.Errorf("pass %d: move %s widened from [%d, %d] to [%d, %d]", passes, m.Move, prev.Moves[i].Lower, prev.Moves[i].Upper, m.Lower, m.Upper)
			}
			if m.Move == c.Searching && !m.Solved && m.Upper-m.Lower < 2*start.Board.Seeds() {
				narrowed = true
			}
		}
		if c.Searching != "" && "move "+c.Searching != p.Stage {
			t.Errorf("pass %d: searching %q in stage %q", passes, c.Searching, p.Stage)
		}
		if passes == 1 {
			// A second request for the position joins the search: it
			// is told the search is its own, and takes no place in
			// line.
			go fire("second")
			var q progressReply
			for deadline := time.Now().Add(5 * time.Second); !q.Yours; time.Sleep(5 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("the second request: %+v, want it to join the running search", q)
				}
				fetchJSON(t, hs, "/api/progress?id=second", &q)
			}
			if q.Place != 0 || q.Queued != 0 || q.Running == nil || len(q.Running.Moves) != len(want.Moves) {
				t.Errorf("the second request: %+v, want the running search's bounds and no place in line", q)
			}
			// A request for another position waits in line, told its
			// place, until it goes away.
			ctx, cancel := context.WithCancel(context.Background())
			other := positions(t, 4, 3, r.Rule, 2)[1]
			req, _ := http.NewRequestWithContext(ctx, "GET", hs.URL+"/api/solve?"+query(r.Rule, other)+"&id=third", nil)
			gone := make(chan struct{})
			go func() {
				defer close(gone)
				if resp, err := http.DefaultClient.Do(req); err == nil {
					resp.Body.Close()
					t.Errorf("the third request was answered: status %d", resp.StatusCode)
				}
			}()
			for s.queued() < 1 {
				time.Sleep(5 * time.Millisecond)
			}
			var q3 progressReply
			fetchJSON(t, hs, "/api/progress?id=third", &q3)
			if q3.Place != 1 || q3.Queued != 1 || q3.Yours {
				t.Errorf("the third request: %+v, want place 1 of 1", q3)
			}
			cancel()
			<-gone
			for s.queued() > 0 {
				time.Sleep(5 * time.Millisecond)
			}
		}
		prev = c
		solvedAll := true
		for _, m := range c.Moves {
			solvedAll = solvedAll && m.Solved
		}
		resume <- struct{}{}
		if solvedAll {
			if c.Lower != want.Value || c.Upper != want.Value {
				t.Errorf("every move solved, root in [%d, %d], want %d", c.Lower, c.Upper, want.Value)
			}
			break
		}
	}
	// The second request is answered by the same search: no more passes.
	for i := 0; i < 2; i++ {
		if c := <-codes; c != 200 {
			t.Errorf("status %d", c)
		}
	}
	if passes < len(want.Moves) || !narrowed {
		t.Errorf("%d passes, a searched move narrowed %v", passes, narrowed)
	}
}
