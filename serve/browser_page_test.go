package serve

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/play"
	"github.com/kalah-solver/kalah/solver"
)

// The page's tests beyond the walk of TestBrowser: an address it cannot
// use, the table's order, a narrow screen, the review of a finished game,
// and what the page says of the server (warming up, building a database,
// a search slowed by a shallow database).

// errorText is the page's message.
func errorText(p page) string {
	p.t.Helper()
	return eval[string](p, "reading the message", `document.getElementById('error').textContent`)
}

// consistent checks what the page shows beside the board: the table is
// hidden or has rows (never a header alone), and the selectors show the
// game of the address.
func (p page) consistent(what string) {
	p.t.Helper()
	got := eval[map[string]any](p, "reading the page", `(() => {
		const q = new URLSearchParams(location.search);
		return {
			orphan: !document.getElementById('moves-box').hidden && document.querySelectorAll('#moves tbody tr').length === 0,
			pits: document.getElementById('pits').value, urlPits: q.get('pits'),
			seeds: document.getElementById('seeds').value, urlSeeds: q.get('seeds'),
			rule: document.getElementById('rule').value, urlRule: q.get('rule'),
		};
	})()`)
	if got["orphan"] == true || got["pits"] != got["urlPits"] || got["seeds"] != got["urlSeeds"] || got["rule"] != got["urlRule"] {
		p.t.Errorf("%s: the page is not consistent: %v", what, got)
	}
}

// TestBrowserAddress loads addresses the page cannot use as they are: an
// out-of-range or malformed at, a bad pits, rule or position, a line with
// an illegal move. Each is said, and the page shows a valid game, whose
// New game starts a valid game.
func TestBrowserAddress(t *testing.T) {
	_, hs := newTestServer(t, Options{})
	p := page{t: t, ctx: newBrowser(t)} // closed before the server
	r, _ := engine.NewVariant(4, engine.NoEmptyCapture)
	start, _ := r.StartPosition(3)
	l, err := play.Replay(r, start, []string{"b", "c", "A"})
	if err != nil {
		t.Fatal(err)
	}

	// at out of range, or not a number: clamped (or the end), and said.
	for _, c := range []struct {
		at     string
		pos    engine.Position
		urlAt  string
		saying string
	}{
		{"-5", start, "0", "showing its start"},
		{"99", l.Current(), "", "showing its end"},
		{"x", l.Current(), "", "not a whole number"},
		{"1", positionsOf(l)[1], "1", ""},
	} {
		p.run("loading at="+c.at, chromedp.Navigate(hs.URL+"/?pits=4&seeds=3&moves=b,c,A&at="+url.QueryEscape(c.at)))
		p.waitPosition(c.pos)
		p.checkValues(r.Rule, c.pos)
		msg := errorText(p)
		if c.saying == "" && msg != "" || c.saying != "" && (!strings.Contains(msg, "at="+c.at) || !strings.Contains(msg, c.saying)) {
			t.Errorf("at=%s: message %q, want one with %q", c.at, msg, c.saying)
		}
		if got := eval[string](p, "reading the address", `new URLSearchParams(location.search).get('at') || ''`); got != c.urlAt {
			t.Errorf("at=%s: the address has at=%q, want %q", c.at, got, c.urlAt)
		}
		p.consistent("at=" + c.at)
	}

	// A bad game or position: said, and a valid game shown instead.
	r6, _ := engine.NewVariant(6, engine.NoEmptyCapture)
	start61, _ := r6.StartPosition(1)
	start64, _ := r6.StartPosition(4)
	for _, c := range []struct {
		query  string
		pos    engine.Position
		saying string
	}{
		{"pits=99&seeds=1", start61, "pits=99 in the address"},
		{"position=1,2,3", start64, "showing the start of Kalah(6,4)"},
		{"position=9,9,9,9,0,9,9,9,9,0,9", start64, "showing the start of Kalah(6,4)"},
		{"seeds=2&position=1,2,3", func() engine.Position { s, _ := r6.StartPosition(2); return s }(), "showing the start of Kalah(6,2)"},
		{"pits=4&seeds=3&rule=bogus", start, "rule=bogus in the address"},
		{"pits=4&seeds=3&position=1,2,3", start, "The position 1,2,3"},
		{"pits=4&seeds=3&position=3,3,3,3,0,3,3,3,3,0&to_move=east", start, "to_move=east in the address"},
	} {
		p.run("loading "+c.query, chromedp.Navigate(hs.URL+"/?"+c.query))
		p.waitPosition(c.pos)
		p.consistent(c.query + ", before the values")
		p.checkValues(engine.NoEmptyCapture, c.pos)
		p.consistent(c.query)
		if msg := errorText(p); !strings.Contains(msg, c.saying) {
			t.Errorf("%s: message %q, want one with %q", c.query, msg, c.saying)
		}
	}
	// New game after the bad pits: the start of the game shown, no message.
	p.run("loading pits=99", chromedp.Navigate(hs.URL+"/?pits=99&seeds=1&moves=a"))
	p.waitFor("the message", `document.getElementById('error').textContent.includes('pits=99')`)
	p.click("#new-game")
	p.waitPosition(start61)
	p.checkValues(engine.NoEmptyCapture, start61)
	if msg := errorText(p); msg != "" {
		t.Errorf("New game after a bad address: message %q", msg)
	}
	p.consistent("New game")

	// An illegal move: the line is cut before it, saying where and why.
	p.run("loading an illegal line", chromedp.Navigate(hs.URL+"/?pits=4&seeds=3&moves=b,b,z"))
	lb, _ := play.Replay(r, start, []string{"b"})
	p.waitPosition(lb.Current())
	p.checkValues(r.Rule, lb.Current())
	if msg := errorText(p); !strings.Contains(msg, "cut after move 1 (b)") || !strings.Contains(msg, `ply 2: move "b": pit b is empty`) {
		t.Errorf("moves=b,b,z: message %q", msg)
	}
	if got := eval[string](p, "reading the address", `new URLSearchParams(location.search).get('moves')`); got != "b" {
		t.Errorf("moves=b,b,z: the address has moves=%q, want b", got)
	}
	p.consistent("moves=b,b,z")
}

// rowsShown reads the table's rows: each move and its value.
func rowsShown(p page) [][]any {
	p.t.Helper()
	return eval[[][]any](p, "reading the rows", `Array.from(document.querySelectorAll('#moves tbody tr')).map((tr) => [tr.dataset.move, +tr.dataset.value])`)
}

// TestBrowserOrder: the table lists the moves in pit order or best first,
// as chosen; the choice outlives a reload.
func TestBrowserOrder(t *testing.T) {
	_, hs := newTestServer(t, Options{})
	p := page{t: t, ctx: newBrowser(t)} // closed before the server
	r, _ := engine.NewVariant(4, engine.NoEmptyCapture)
	start, _ := r.StartPosition(3)
	l, _ := play.Replay(r, start, []string{"c"})
	pos := l.Current() // North to move, moves of several values
	want := reference(t, r.Rule, pos)
	best := append([]kalahMove(nil), movesOf(want)...)
	sort.SliceStable(best, func(i, j int) bool { return best[i].value > best[j].value })

	p.run("loading", chromedp.Navigate(hs.URL+"/?pits=4&seeds=3&moves=c"))
	p.checkValues(r.Rule, pos) // pit order by default
	choose := func(order string) {
		p.run("choosing "+order, chromedp.SetValue(chromedp.CSS("#order"), order),
			chromedp.Evaluate[chromedp.Void](`document.getElementById('order').dispatchEvent(new Event('change'))`))
	}
	checkBest := func(when string) {
		p.waitFor("the best move first", fmt.Sprintf(`document.querySelector('#moves tbody tr') && document.querySelector('#moves tbody tr').dataset.move === %q &&
			document.querySelectorAll('#moves tbody tr:not(.live)').length === %d`, best[0].move, len(best)))
		rows := rowsShown(p)
		for i, m := range best {
			if i >= len(rows) || rows[i][0] != m.move || rows[i][1] != float64(m.value) {
				t.Errorf("%s: row %d is %v, want %s %d (best first: %v)", when, i, rows, m.move, m.value, best)
				break
			}
		}
	}
	choose("best")
	checkBest("best first")
	p.run("reloading", chromedp.Reload())
	p.waitPosition(pos)
	checkBest("after a reload")
	if v := eval[string](p, "reading the order", `document.getElementById('order').value`); v != "best" {
		t.Errorf("order after a reload: %q", v)
	}
	choose("pit")
	p.checkValues(r.Rule, pos)
}

type kalahMove struct {
	move  string
	value int
}

func movesOf(res *kalah.Result) []kalahMove {
	var out []kalahMove
	for _, m := range res.Moves {
		out = append(out, kalahMove{m.Move, m.Value})
	}
	return out
}

// randomGame plays random legal moves from the start of Kalah(m,n) to the
// end of the game.
func randomGame(r engine.Variant, seeds int, seed uint64) *play.Line {
	start, _ := r.StartPosition(seeds)
	l := &play.Line{Variant: r, Start: start}
	rng := rand.New(rand.NewPCG(seed, 1))
	for !l.Current().Board.Over() {
		ms := l.Current().Board.MoveList()
		if err := l.Play(engine.MoveLetter(l.Current().ToMove, ms[rng.IntN(len(ms))])); err != nil {
			panic(err)
		}
	}
	return l
}

// positionsOf is the positions along l: its start, then the one after
// each sowing.
func positionsOf(l *play.Line) []engine.Position {
	out := []engine.Position{l.Start}
	for _, s := range l.Steps {
		out = append(out, s.After)
	}
	return out
}

// letters is the line's moves, comma-separated.
func letters(l *play.Line, n int) string {
	var ms []string
	for _, s := range l.Steps[:n] {
		ms = append(ms, s.Move)
	}
	return strings.Join(ms, ",")
}

// TestBrowserNarrow: at 380 px the page does not scroll sideways, in
// explore mode with a long line, with eight pits, in play mode and in a
// review, and the board scales to the width.
func TestBrowserNarrow(t *testing.T) {
	_, hs := newTestServer(t, Options{})
	p := page{t: t, ctx: newBrowser(t)} // closed before the server
	r6, _ := engine.NewVariant(6, engine.NoEmptyCapture)
	game := randomGame(r6, 2, 7)
	n := len(game.Steps)
	p.run("narrowing", chromedp.EmulateViewport(380, 760))
	for _, c := range []struct {
		path string
		pos  engine.Position
	}{
		{"/?pits=6&seeds=2&moves=" + letters(game, n-3), positionsOf(game)[n-3]},
		{"/?pits=8&seeds=1", func() engine.Position {
			r8, _ := engine.NewVariant(8, engine.NoEmptyCapture)
			s, _ := r8.StartPosition(1)
			return s
		}()},
		{"/?mode=play&pits=6&seeds=2&as=south&moves=" + letters(game, n) + "&at=" + fmt.Sprint(n-2), positionsOf(game)[n-2]},
		{"/?pits=6&seeds=2&moves=a,z&position=" + url.QueryEscape("5,0,0,0,0,5,10,0,0,0,0,0,5,10"), func() engine.Position {
			q, _ := engine.ParsePosition("5,0,0,0,0,5,10,0,0,0,0,0,5,10", engine.South)
			l, _ := play.Replay(r6, q, []string{"a"})
			return l.Current()
		}()},
	} {
		p.run("loading "+c.path, chromedp.Navigate(hs.URL+c.path))
		p.waitPosition(c.pos)
		p.checkValues(engine.NoEmptyCapture, c.pos)
		sizes := eval[map[string]float64](p, "measuring", `(() => {
			const b = document.getElementById('board'), box = b.getBoundingClientRect(), vb = b.viewBox.baseVal;
			return {scroll: document.scrollingElement.scrollWidth, board: box.width, ratio: box.height / box.width, drawn: vb.height / vb.width,
				right: Math.max(...Array.from(document.querySelectorAll('body *')).map((e) => e.getBoundingClientRect().right))};
		})()`)
		if sizes["scroll"] > 380 || sizes["right"] > 381 || sizes["board"] > 380 || sizes["board"] < 300 || math.Abs(sizes["ratio"]-sizes["drawn"]) > 0.02 {
			t.Errorf("%s at 380 px: %v: want no sideways scroll and the board scaled to the width, its height with it", c.path, sizes)
		}
	}
	p.screenshot(filepath.Join(artifactsDir(t), "narrow.png"))
	if dir := os.Getenv("KALAH_DOCS_IMG"); dir != "" {
		p.run("loading", chromedp.Navigate(hs.URL+"/?pits=6&seeds=2&moves="+letters(game, 6)))
		p.waitPosition(positionsOf(game)[6])
		p.checkValues(engine.NoEmptyCapture, positionsOf(game)[6])
		p.screenshot(filepath.Join(dir, "narrow.png"))
	}
	p.run("widening", chromedp.EmulateViewport(1100, 620))
}

// TestBrowserReview plays a game of Kalah(3,2) to its end against the
// perfect player, by clicks, then steps back through it: at the end the
// table lists the moves played with their values and the best, before it
// every position shows its moves' values with the move played marked.
func TestBrowserReview(t *testing.T) {
	_, hs := newTestServer(t, Options{})
	p := page{t: t, ctx: newBrowser(t)} // closed before the server
	r, _ := engine.NewVariant(3, engine.NoEmptyCapture)
	p.run("loading play mode", chromedp.Navigate(hs.URL+"/?mode=play&pits=3&seeds=2&as=south&level=perfect&seed=1"),
		chromedp.Evaluate[chromedp.Void](`localStorage.setItem('kalah.animate', 'off')`), chromedp.Reload())
	const played = `(new URLSearchParams(location.search).get('moves') || '').split(',').filter(Boolean).length`
	for i := 0; ; i++ {
		p.waitFor("the user's turn or the end", `document.getElementById('status').textContent.startsWith('Your move') || document.getElementById('status').textContent.startsWith('Game over')`)
		if eval[bool](p, "reading the status", `document.getElementById('status').textContent.startsWith('Game over')`) {
			break
		}
		if i > 20 {
			t.Fatal("the game does not end")
		}
		n := eval[int](p, "counting the moves", played)
		p.click(`svg g.pit-g.legal`)
		p.waitFor("the move played", fmt.Sprintf(`%s > %d`, played, n))
	}
	moves := eval[string](p, "reading the line", `new URLSearchParams(location.search).get('moves')`)
	start, _ := r.StartPosition(2)
	l, err := play.Replay(r, start, play.SplitMoves(moves))
	if err != nil || !l.Current().Board.Over() {
		t.Fatalf("the game %q: %v, over %v", moves, err, err == nil && l.Current().Board.Over())
	}
	if eval[bool](p, "reading the buttons", `document.getElementById('nav').hidden`) {
		t.Fatal("after the game the buttons to step through it are hidden")
	}
	// At the end: every move played, with its value and the best.
	n := len(l.Steps)
	p.waitFor("the game's values", fmt.Sprintf(`document.querySelectorAll('#moves tbody tr[data-value]').length === %d`, n))
	rows := eval[[][]any](p, "reading the game's values", `Array.from(document.querySelectorAll('#moves tbody tr')).map((tr) => [tr.dataset.move, +tr.dataset.value, +tr.dataset.best])`)
	positions := positionsOf(l)
	for k, st := range l.Steps {
		want := reference(t, r.Rule, positions[k])
		v := 0
		for _, m := range want.Moves {
			if m.Move == st.Move {
				v = m.Value
			}
		}
		if rows[k][0] != st.Move || rows[k][1] != float64(v) || rows[k][2] != float64(want.Value) {
			t.Errorf("move %d: row %v, want %s of value %d, best %d", k+1, rows[k], st.Move, v, want.Value)
		}
	}
	p.consistent("the end of the game")
	p.screenshot(filepath.Join(artifactsDir(t), "review.png"))
	if dir := os.Getenv("KALAH_DOCS_IMG"); dir != "" {
		p.screenshot(filepath.Join(dir, "review.png"))
	}
	// Back through the game: the values of each position, the move played marked.
	for _, k := range []int{n - 1, n - 2, 0} {
		switch k {
		case 0:
			p.click("#first")
		default:
			p.click("#back")
		}
		p.waitPosition(positions[k])
		p.checkValues(r.Rule, positions[k])
		played := eval[[]string](p, "reading the move played", `Array.from(document.querySelectorAll('#moves tbody tr.played')).map((tr) => tr.dataset.move)`)
		if len(played) != 1 || played[0] != l.Steps[k].Move {
			t.Errorf("position %d: moves marked played %v, want %s", k, played, l.Steps[k].Move)
		}
		if s := eval[string](p, "reading the status", `document.getElementById('status').textContent`); !strings.Contains(s, fmt.Sprintf("Move %d of %d", k+1, n)) {
			t.Errorf("position %d: status %q", k, s)
		}
	}
	p.click("#last")
	p.waitFor("the game's values again", fmt.Sprintf(`document.querySelectorAll('#moves tbody tr[data-value]').length === %d && document.getElementById('status').textContent.startsWith('Game over')`, n))
	// Undo takes the game back into play.
	p.click("#undo")
	p.waitFor("the user's turn", `document.getElementById('status').textContent.startsWith('Your move')`)
	if !eval[bool](p, "reading the buttons", `document.getElementById('nav').hidden`) {
		t.Error("in a game under way the buttons to step through it show")
	}
}

// TestBrowserStatus: while the server warms up and builds a database (a
// tiny one), the page says so, with the build's progress, and answers
// once the server is ready.
func TestBrowserStatus(t *testing.T) {
	ctx := newBrowser(t)
	p := page{t: t, ctx: ctx}
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	building, touching := make(chan struct{}), make(chan struct{})
	goOnBuild, goOnWarm := make(chan struct{}), make(chan struct{})
	releaseBuild, releaseWarm := sync.OnceFunc(func() { close(goOnBuild) }), sync.OnceFunc(func() { close(goOnWarm) })
	s, hs := startServer(t, Options{CacheDir: t.TempDir(), TableSize: 16 << 20, Threads: 1, NoPonder: true,
		AutoEGDB: true, autoEGDBSeeds: 4, OnEGDBBuild: func(ev kalah.EGDBBuild) {
			if ev.Done == 0 && !ev.Finished {
				close(building)
				<-goOnBuild
			}
		}})
	s.stat.stage = func(stage string) {
		if stage == "touching the table" {
			close(touching)
			<-goOnWarm
		}
	}
	t.Cleanup(releaseWarm) // before the server's Close, which waits for the warm-up
	t.Cleanup(releaseBuild)
	warmed := make(chan error, 1)
	go func() {
		_, err := s.Warm(context.Background(), 4, 3, engine.NoEmptyCapture)
		warmed <- err
	}()
	<-building
	p.run("loading the page", chromedp.Navigate(hs.URL+"/?pits=4&seeds=3"))
	p.waitFor("the build on the page", `!document.getElementById('server').hidden && document.getElementById('server').dataset.state === 'building' &&
		document.getElementById('server-text').textContent.includes('building the endgame database of Kalah(4) under no-empty-capture up to 4 seeds') &&
		!document.getElementById('server-bar').hidden`)
	p.waitFor("the request waiting for the build", `document.getElementById('status').textContent.includes('endgame database build')`)
	p.screenshot(filepath.Join(artifactsDir(t), "building.png"))
	if dir := os.Getenv("KALAH_DOCS_IMG"); dir != "" {
		p.screenshot(filepath.Join(dir, "building.png"))
	}
	releaseBuild()
	<-touching
	p.waitFor("the warm-up on the page", `document.getElementById('server').dataset.state === 'warming' &&
		document.getElementById('server-text').textContent.includes('warming up Kalah(4,3) under no-empty-capture: touching the table')`)
	p.waitFor("the request waiting for the warm-up", `document.getElementById('status').textContent.includes('warm-up')`)
	releaseWarm()
	if err := <-warmed; err != nil {
		t.Fatal(err)
	}
	r, _ := engine.NewVariant(4, engine.NoEmptyCapture)
	start, _ := r.StartPosition(3)
	p.checkValues(r.Rule, start)
	p.waitFor("the server ready", `document.getElementById('server').hidden`)
	if meta := eval[string](p, "reading the answer's source", `document.getElementById('meta').textContent`); !strings.Contains(meta, "database to 4 seeds") {
		t.Errorf("the answer %q does not say it used the database built", meta)
	}

	// The databases' files read into memory in the background (after a
	// reboot): the page says so with its progress, then hides it.
	var loadMu sync.Mutex
	done, total := int64(1e9), int64(3e9)
	s.stat.mu.Lock()
	s.stat.loading = func() (int64, int64) {
		loadMu.Lock()
		defer loadMu.Unlock()
		return done, total
	}
	s.stat.mu.Unlock()
	p.run("loading the page again", chromedp.Navigate(hs.URL+"/?pits=4&seeds=3"))
	p.waitFor("the loading on the page", `!document.getElementById('server').hidden && document.getElementById('server').dataset.state === 'loading' &&
		document.getElementById('server-text').textContent.includes('reading the endgame database into memory: 1.0 of 3.0 GB') &&
		!document.getElementById('server-bar').hidden`)
	loadMu.Lock()
	done = total
	loadMu.Unlock()
	p.waitFor("the server ready after loading", `document.getElementById('server').hidden`)
}

// TestBrowserSlow: a search slower than a couple of seconds without an
// endgame database says why, and names the command that builds the one
// the server would.
func TestBrowserSlow(t *testing.T) {
	ctx := newBrowser(t)
	p := page{t: t, ctx: ctx}
	t.Setenv("XDG_DATA_HOME", t.TempDir()) // no database there
	paused, resume := make(chan struct{}), make(chan struct{})
	var once, goOn sync.Once
	release := func() { goOn.Do(func() { close(resume) }) }
	_, hs := startServer(t, Options{CacheDir: t.TempDir(), TableSize: 16 << 20, Threads: 1, NoPonder: true,
		ProgressEvery: 50 * time.Millisecond, afterProgress: func(solver.Progress) {
			once.Do(func() {
				close(paused)
				<-resume
			})
		}})
	t.Cleanup(release)
	p.run("loading the page", chromedp.Navigate(hs.URL+"/?pits=4&seeds=3"))
	<-paused
	want := "kalah egdb build --pits 4 --rule no-empty-capture --max-seeds 24" // the game's seeds
	p.waitFor("the reason it is slow", fmt.Sprintf(`!document.getElementById('slow').hidden && document.querySelector('#slow code') &&
		document.querySelector('#slow code').textContent === %q && document.getElementById('slow').textContent.includes('there is no endgame database for Kalah(4) under no-empty-capture')`, want))
	p.screenshot(filepath.Join(artifactsDir(t), "slow.png"))
	release()
	r, _ := engine.NewVariant(4, engine.NoEmptyCapture)
	start, _ := r.StartPosition(3)
	p.checkValues(r.Rule, start)
	if eval[bool](p, "reading the note", `document.getElementById('slow').hidden`) {
		t.Error("the answer took seconds, and the note on why is gone")
	}
}
