package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/play"
)

// postBatch sends a batch and returns the status, the answer's lines
// decoded (a 200) or the error object (else).
func postBatch(t *testing.T, hs *httptest.Server, body string) (int, []batchAnswer, batchError) {
	t.Helper()
	r, err := http.Post(hs.URL+"/api/batch", "application/jsonl", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	var e batchError
	if r.StatusCode != http.StatusOK {
		if err := json.NewDecoder(r.Body).Decode(&e); err != nil {
			t.Fatalf("status %d: %v", r.StatusCode, err)
		}
		return r.StatusCode, nil, e
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/jsonl" {
		t.Errorf("Content-Type %q", ct)
	}
	var out []batchAnswer
	sc := bufio.NewScanner(r.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		// The embedded answer is decoded apart: encoding/json does not
		// set an embedded pointer to an unexported type.
		var a batchAnswer
		var rep solveReply
		if err := json.Unmarshal(sc.Bytes(), &struct {
			Line  *int    `json:"line"`
			Error *string `json:"error"`
		}{&a.Line, &a.Error}); err != nil {
			t.Fatalf("answer line %q: %v", sc.Text(), err)
		}
		if err := json.Unmarshal(sc.Bytes(), &rep); err != nil {
			t.Fatalf("answer line %q: %v", sc.Text(), err)
		}
		if rep.Position != "" {
			a.solveReply = &rep
		}
		out = append(out, a)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return r.StatusCode, out, e
}

// TestBatch sends positions of several games in the forms a line may take
// (a start, a position as text or a list, moves as text or a list) and
// checks each answer against a solve of the test's own, in the order
// asked, each naming its line.
func TestBatch(t *testing.T) {
	_, hs := newTestServer(t, Options{NoPonder: true})
	r3, _ := engine.NewVariant(3, engine.NoEmptyCapture)
	r2, _ := engine.NewVariant(2, engine.EmptyCapture)
	s32, _ := r3.StartPosition(2)
	s23, _ := r2.StartPosition(3)
	after := func(r engine.Variant, p engine.Position, ms ...string) engine.Position {
		l, err := play.Replay(r, p, ms)
		if err != nil {
			t.Fatal(err)
		}
		return l.Current()
	}
	ps := positions(t, 3, 2, engine.NoEmptyCapture, 6)
	type want struct {
		line int
		rule engine.Rule
		pos  engine.Position
	}
	lines := []string{
		`{"pits": 3, "seeds": 2}`,
		``,
		`{"pits": 2, "seeds": 3, "rule": "empty-capture", "moves": "a"}`,
		fmt.Sprintf(`{"position": %q, "to_move": %q}`, ps[4].String(), ps[4].ToMove),
		`   `,
		fmt.Sprintf(`{"position": [%s], "to_move": %q, "moves": [%q]}`, ps[5].String(), ps[5].ToMove, engine.MoveLetter(ps[5].ToMove, ps[5].Board.MoveList()[0])),
		`{"rule": "empty-capture", "pits": 2, "seeds": 3}`,
	}
	wants := []want{
		{1, engine.NoEmptyCapture, s32},
		{3, engine.EmptyCapture, after(r2, s23, "a")},
		{4, engine.NoEmptyCapture, ps[4]},
		{6, engine.NoEmptyCapture, after(r3, ps[5], engine.MoveLetter(ps[5].ToMove, ps[5].Board.MoveList()[0]))},
		{7, engine.EmptyCapture, s23},
	}
	code, answers, e := postBatch(t, hs, strings.Join(lines, "\n"))
	if code != 200 || len(answers) != len(wants) {
		t.Fatalf("status %d, %d answers, %+v; want 200 and %d", code, len(answers), e, len(wants))
	}
	for i, w := range wants {
		a := answers[i]
		if a.Line != w.line || a.solveReply == nil || a.Error != "" {
			t.Errorf("answer %d: line %d, error %q; want line %d answered", i, a.Line, a.Error, w.line)
			continue
		}
		if a.Position != w.pos.String() || a.ToMove != w.pos.ToMove.String() || a.Rule != w.rule.String() {
			t.Errorf("line %d: answer for %s %s %s, want %s %s %s", w.line, a.Rule, a.Position, a.ToMove, w.rule, w.pos, w.pos.ToMove)
		}
		checkSolve(t, a.solveReply, reference(t, w.rule, w.pos))
	}
	// The start of a game names its seeds, as /api/solve's answer does.
	if answers[0].Seeds != 2 || answers[1].Seeds != 0 {
		t.Errorf("seeds %d and %d, want 2 (a start) and 0", answers[0].Seeds, answers[1].Seeds)
	}
}

// TestBatchBad: a batch with a bad line is a 400 naming the line, before
// anything is searched; one too big is a 413; another method is a 405.
func TestBatchBad(t *testing.T) {
	var solves sync.Map
	s, hs := newTestServer(t, Options{NoPonder: true, MaxBatchLines: 3, MaxBatchBytes: 400,
		solving: func(p engine.Position) { solves.Store(p, true) }})
	good := `{"pits": 2, "seeds": 1}`
	for _, c := range []struct {
		body string
		code int
		line int
		want string
	}{
		{good + "\n{\"pits\": 2, \"seeds\": 1", 400, 2, "line 2: not a position: unexpected EOF"},
		{good + "\n" + good + "\n{\"pits\": 2, \"depth\": 9}", 400, 3, `line 3: not a position: unknown field "depth"`},
		{"\n\n{\"position\": \"1,2,3\"}", 400, 3, "line 3: position has 3 numbers"},
		{`{"position": [1, 0, 1, 0], "to_move": "east"}`, 400, 1, `line 1: side to move "east": want south or north`},
		{`{"pits": 4, "seeds": 3, "moves": "b,b"}`, 400, 1, `line 1: ply 2: move "b": pit b is empty`},
		{`{"pits": 4, "seeds": 3, "moves": ["b", "z"]}`, 400, 1, `line 1: ply 2: move "z"`},
		{`{"rule": "sometimes"}`, 400, 1, "line 1: "},
		{`{"pits": "two"}`, 400, 1, "line 1: not a position: "},
		{`{"pits": 9}`, 400, 1, "line 1: "},
		{`{"moves": 7}`, 400, 1, "line 1: moves: 7 is neither a string nor a list"},
		{good + " " + good, 400, 1, "line 1: more than one JSON value"},
		{`[1, 2]`, 400, 1, "line 1: not a position"},
		{"", 400, 1, "batch: no positions"},
		{"\n\n", 400, 2, "batch: no positions"},
		{strings.Repeat(good+"\n", 4), 413, 0, "batch: more than 3 positions"},
		{strings.Repeat(good+"\n\n\n\n\n\n", 3) + strings.Repeat(" ", 400), 413, 0, "batch: longer than 400 bytes"},
	} {
		code, answers, e := postBatch(t, hs, c.body)
		if code != c.code || e.Line != c.line || !strings.Contains(e.Error, c.want) || answers != nil {
			t.Errorf("%q: status %d, %+v, %d answers; want %d, line %d, %q", c.body, code, e, len(answers), c.code, c.line, c.want)
		}
	}
	n := 0
	solves.Range(func(any, any) bool { n++; return true })
	if n != 0 {
		t.Errorf("%d positions searched for bad batches, want none", n)
	}
	s.mu.Lock()
	if s.batches != 0 {
		t.Errorf("%d batches counted running, want none", s.batches)
	}
	s.mu.Unlock()
	for _, c := range []struct{ method, path string }{{http.MethodGet, "/api/batch"}, {http.MethodPut, "/api/batch"}} {
		req, _ := http.NewRequest(c.method, hs.URL+c.path, nil)
		resp, err := hs.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "POST" {
			t.Errorf("%s %s: status %d, Allow %q; want 405, POST", c.method, c.path, resp.StatusCode, resp.Header.Get("Allow"))
		}
	}
	if code, _, e := postBatch(t, hs, good); code != 200 {
		t.Errorf("a good batch after the bad ones: %d %+v", code, e)
	}
}

// TestBatchShares: a batch takes one place in line at a time, so that a
// request that comes while it runs is searched before the batch's next
// position; a second batch past MaxBatches is refused with 503; and a
// batch that runs past its time limit answers every line it could not
// with an error saying so.
func TestBatchShares(t *testing.T) {
	hold, started := make(chan struct{}), make(chan struct{})
	release := sync.OnceFunc(func() { close(hold) })
	var mu sync.Mutex
	var order []engine.Position
	first := sync.OnceFunc(func() {
		close(started)
		<-hold
	})
	s, hs := newTestServer(t, Options{NoPonder: true, MaxBatches: 1, solving: func(p engine.Position) {
		mu.Lock()
		order = append(order, p)
		mu.Unlock()
		first()
	}})
	t.Cleanup(release)
	// The session open, so that a request reads the cache and takes its
	// place in line at once rather than waiting for the session.
	if _, err := s.Warm(context.Background(), 3, 2, engine.NoEmptyCapture); err != nil {
		t.Fatal(err)
	}
	ps := positions(t, 3, 2, engine.NoEmptyCapture, 8)
	var body strings.Builder
	for _, p := range ps[:6] {
		fmt.Fprintf(&body, "{\"pits\": 3, \"position\": %q, \"to_move\": %q}\n", p.String(), p.ToMove)
	}
	type result struct {
		code    int
		answers []batchAnswer
	}
	done := make(chan result, 1)
	go func() {
		code, answers, _ := postBatch(t, hs, body.String())
		done <- result{code, answers}
	}()
	<-started // the batch's first position holds the slot
	other := make(chan int, 1)
	go func() {
		var rep solveReply
		other <- fetchJSON(t, hs, "/api/solve?"+query(engine.NoEmptyCapture, ps[7]), &rep)
	}()
	for s.queued() != 1 {
		time.Sleep(time.Millisecond)
	}
	if code, _, e := postBatch(t, hs, `{"pits": 2, "seeds": 1}`); code != http.StatusServiceUnavailable || !strings.Contains(e.Error, "too many batches") {
		t.Errorf("a second batch: status %d, %+v; want 503", code, e)
	}
	release()
	if c := <-other; c != 200 {
		t.Errorf("the other client: status %d", c)
	}
	res := <-done
	if res.code != 200 || len(res.answers) != 6 {
		t.Fatalf("the batch: status %d, %d answers", res.code, len(res.answers))
	}
	for i, a := range res.answers {
		if a.solveReply == nil || a.Position != ps[i].String() || a.Line != i+1 {
			t.Errorf("answer %d: %+v", i, a)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(order) != 7 || order[0] != ps[0] || order[1] != ps[7] {
		t.Errorf("searched %v; want the batch's first position, then the other client's, then the batch's others", order)
	}
}

// TestBatchTimeout: a batch whose time runs out answers the lines it did
// not get to with an error naming the limit.
func TestBatchTimeout(t *testing.T) {
	hold := make(chan struct{})
	release := sync.OnceFunc(func() { close(hold) })
	_, hs := newTestServer(t, Options{NoPonder: true, BatchTimeout: 200 * time.Millisecond, beforeSolve: func() { <-hold }})
	t.Cleanup(release)
	ps := positions(t, 3, 2, engine.NoEmptyCapture, 3)
	var body strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&body, "{\"pits\": 3, \"position\": %q, \"to_move\": %q}\n", p.String(), p.ToMove)
	}
	// The first search is held past the limit: no line is answered.
	code, answers, _ := postBatch(t, hs, body.String())
	release()
	if code != 200 || len(answers) != 3 {
		t.Fatalf("status %d, %d answers", code, len(answers))
	}
	for i, a := range answers {
		if a.solveReply != nil || a.Line != i+1 || a.Error != "not answered: the batch's time limit (200ms) ran out" {
			t.Errorf("line %d: %+v", i+1, a)
		}
	}
}
