package serve

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/play"
	"github.com/kalah-solver/kalah/solver"
)

// The browser test drives the page in a real Chromium (Debian's chromium
// package; .ci/run installs it) through chromedp: it loads Kalah(4,3),
// clicks a line of moves, checks every shown value and pit count against
// a session of its own, steps back, switches the rule, reloads from the
// address, plays against the computer with a hint and an undo, and saves
// screenshots of both modes in $KALAH_ARTIFACTS (else a temporary
// directory). With $KALAH_DOCS_IMG set to a directory it also takes the
// screenshots of docs/explorer.md there, from Kalah(6,3).

// findChromium returns the browser to drive: $KALAH_CHROMIUM, or the
// first of the usual names on the path.
func findChromium() string {
	if p := os.Getenv("KALAH_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "/usr/bin/chromium"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

func newBrowser(t *testing.T) context.Context {
	t.Helper()
	bin := findChromium()
	if bin == "" {
		t.Skip("no chromium binary found (install Debian's chromium, or set KALAH_CHROMIUM): the browser test cannot run")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(1100, 620),
	}
	// The first action starts the browser, under a context without a
	// deadline (a deadline there would stop the browser); the rest run
	// under the test's. On a loaded machine the browser now and then
	// dies as it starts: it gets three tries.
	var ctx context.Context
	for try := 1; ; try++ {
		actx, cancel := chromedp.NewExecAllocator(context.Background(), append(opts, chromedp.UserDataDir(t.TempDir()))...)
		c, cancel2 := chromedp.NewContext(actx)
		err := chromedp.Do(c, chromedp.Navigate("about:blank"))
		if err == nil {
			t.Cleanup(cancel)
			t.Cleanup(cancel2)
			ctx = c
			break
		}
		cancel2()
		cancel()
		if try == 3 {
			t.Fatalf("starting %s: %v", bin, err)
		}
		t.Logf("starting %s (try %d): %v", bin, try, err)
		time.Sleep(time.Second)
	}
	catchExceptions(t, ctx)
	// The docs' pictures are of Kalah(6,3), whose positions take up to a
	// minute or two with the test's table on a loaded machine.
	limit := 90 * time.Second
	if os.Getenv("KALAH_DOCS_IMG") != "" {
		limit = 15 * time.Minute
	}
	ctx, cancel3 := context.WithTimeout(ctx, limit)
	t.Cleanup(cancel3)
	return ctx
}

// catchExceptions fails the test for every exception the page throws and
// nothing catches (and every promise rejection nothing handles).
func catchExceptions(t *testing.T, ctx context.Context) {
	cctx, cancel := context.WithCancel(ctx)
	msgs := chromedp.Console(cctx)
	var mu sync.Mutex
	var seen []string
	done := make(chan struct{})
	go func() {
		defer close(done)
		for m, err := range msgs {
			if err != nil {
				return
			}
			if m.IsException() {
				mu.Lock()
				seen = append(seen, m.Text)
				mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		for _, s := range seen {
			t.Errorf("the page threw: %s", s)
		}
	})
}

func artifactsDir(t *testing.T) string {
	if d := os.Getenv("KALAH_ARTIFACTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// page wraps the browser with the checks the test makes.
type page struct {
	t        *testing.T
	ctx      context.Context
	patience time.Duration // how long waitFor waits; 0 means 30 s
}

func (p page) run(what string, actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, actions...); err != nil {
		p.t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](p page, what, expr string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		p.t.Fatalf("%s: %v", what, err)
	}
	return v
}

// waitFor waits until the JavaScript expression is true. A navigation
// that replaces the page's JavaScript context while the poll runs ends
// the poll with a "context" error; the wait then starts again in the new
// page, until its deadline.
func (p page) waitFor(what, expr string) {
	p.t.Helper()
	patience := p.patience
	if patience == 0 {
		patience = 30 * time.Second
	}
	deadline := time.Now().Add(patience)
	for {
		err := chromedp.Do(p.ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(time.Until(deadline))))
		if err == nil {
			return
		}
		if !strings.Contains(err.Error(), "context") || time.Now().After(deadline) || p.ctx.Err() != nil {
			p.t.Fatalf("waiting for %s: %v", what, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (p page) click(sel string) {
	p.t.Helper()
	p.run("clicking "+sel, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))
}

// waitPosition waits until the page shows pos.
func (p page) waitPosition(pos engine.Position) {
	p.t.Helper()
	p.waitFor("position "+pos.String()+" "+pos.ToMove.String(), fmt.Sprintf(
		`document.getElementById('position').value === %q && document.getElementById('to-move').value === %q`, pos.String(), pos.ToMove.String()))
}

// checkBoard compares the drawn pits and stores with pos.
func (p page) checkBoard(pos engine.Position) {
	p.t.Helper()
	counts := eval[map[string]int](p, "reading the board", `Object.fromEntries(Array.from(document.querySelectorAll('svg [data-count]')).map(
		(g) => [g.dataset.move || g.dataset.store, +g.dataset.count]))`)
	h := pos.Holes()
	m := pos.Pits
	for i := 0; i < m; i++ {
		if a, b := engine.MoveLetter(engine.South, i), engine.MoveLetter(engine.North, i); counts[a] != h[i] || counts[b] != h[m+1+i] {
			p.t.Errorf("%v: pits %s=%d %s=%d drawn, want %d and %d", pos, a, counts[a], b, counts[b], h[i], h[m+1+i])
		}
	}
	if counts["south"] != h[m] || counts["north"] != h[2*m+1] {
		p.t.Errorf("%v: stores %d, %d drawn, want %d, %d", pos, counts["south"], counts["north"], h[m], h[2*m+1])
	}
}

// checkValues waits for the values of pos and compares each shown value,
// in the table and on the board, with a solve of the test's own.
func (p page) checkValues(c engine.Rule, pos engine.Position) {
	p.t.Helper()
	want := reference(p.t, c, pos)
	p.waitFor("the values of "+pos.String(), fmt.Sprintf(`document.querySelectorAll('#moves tbody tr:not(.live)').length === %d`, len(want.Moves)))
	rows := eval[[][]any](p, "reading the values", `Array.from(document.querySelectorAll('#moves tbody tr')).map((tr) => [tr.dataset.move, +tr.dataset.value, tr.classList.contains('best')])`)
	badges := eval[[][]any](p, "reading the board's values", `Array.from(document.querySelectorAll('svg .badge')).map((b) => [b.dataset.move, +b.dataset.value])`)
	best := map[string]bool{}
	for _, b := range want.Record.Best {
		best[b] = true
	}
	if len(badges) != len(want.Moves) {
		p.t.Errorf("%v: %d values on the board, want %d", pos, len(badges), len(want.Moves))
	}
	for i, m := range want.Moves {
		if i >= len(rows) {
			break
		}
		if rows[i][0] != m.Move || rows[i][1] != float64(m.Value) || rows[i][2] != best[m.Move] {
			p.t.Errorf("%v (%v): row %v, want move %s value %d best %v", pos, c, rows[i], m.Move, m.Value, best[m.Move])
		}
		if i < len(badges) && (badges[i][0] != m.Move || badges[i][1] != float64(m.Value)) {
			p.t.Errorf("%v (%v): board shows %v, want %s %d", pos, c, badges[i], m.Move, m.Value)
		}
	}
}

// checkLastMove compares the highlighted last move and capture, and the
// board's caption, with st.
func checkLastMove(p page, st play.Step) {
	p.t.Helper()
	caption := eval[string](p, "reading the last move", `document.getElementById('last-move').textContent`)
	if !strings.Contains(caption, "played "+st.Move) {
		p.t.Errorf("caption %q, want the move %s", caption, st.Move)
	}
	captured := eval[[]string](p, "reading the capture", `Array.from(document.querySelectorAll('svg g.captured, svg g.capturer')).map((g) => g.dataset.move)`)
	if st.Captured > 0 {
		// The capturing pit faces the one emptied.
		m := st.After.Pits
		j := int(strings.ToLower(st.CapturedFrom)[0] - 'a')
		capturer := engine.MoveLetter(st.Ply.Side, m-1-j)
		if fmt.Sprint(captured) != fmt.Sprint([]string{capturer, st.CapturedFrom}) && fmt.Sprint(captured) != fmt.Sprint([]string{st.CapturedFrom, capturer}) ||
			!strings.Contains(caption, fmt.Sprintf("captured %d from %s", st.Captured, st.CapturedFrom)) {
			p.t.Errorf("capture of %d from %s by %s shown as %v, %q", st.Captured, st.CapturedFrom, capturer, captured, caption)
		}
	} else if len(captured) != 0 || strings.Contains(caption, "captured") {
		p.t.Errorf("no capture, shown as %v, %q", captured, caption)
	}
}

func (p page) screenshot(path string) {
	p.t.Helper()
	buf, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

func TestBrowser(t *testing.T) {
	ctx := newBrowser(t)
	_, hs := newTestServer(t, Options{})
	arts := artifactsDir(t)
	p := page{t: t, ctx: ctx}
	r, _ := engine.NewVariant(4, engine.NoEmptyCapture)
	start, _ := r.StartPosition(3)

	// Explore: the start, then a line of clicks.
	p.run("loading the page", chromedp.Navigate(hs.URL+"/?pits=4&seeds=3"))
	p.waitPosition(start)
	p.checkBoard(start)
	p.checkValues(r.Rule, start)
	l := &play.Line{Variant: r, Start: start}
	for k, mv := range []string{"b", "d", "A", "C"} {
		if k == 2 {
			// The sowings so far were animated; the rest are not.
			if n := eval[int](p, "counting animations", `window.kalahAnimations`); n != 2 {
				t.Errorf("%d sowings animated, want 2", n)
			}
			p.click("#animate")
		}
		p.click(fmt.Sprintf(`svg g.pit-g[data-move=%q]`, mv))
		if err := l.Play(mv); err != nil {
			t.Fatal(err)
		}
		p.waitPosition(l.Current())
		p.checkBoard(l.Current())
		checkLastMove(p, l.Steps[len(l.Steps)-1])
		p.checkValues(r.Rule, l.Current())
	}
	last := eval[string](p, "reading the last move", `document.querySelector('svg g.last').dataset.move`)
	if last != "C" {
		t.Errorf("last move highlighted: %q, want C", last)
	}
	if n := eval[int](p, "counting animations", `window.kalahAnimations`); n != 2 {
		t.Errorf("%d sowings animated with the animation off, want 2", n)
	}

	// Back one ply, then the other rule: the line is replayed under it.
	p.click("#back")
	l.Undo(1)
	p.waitPosition(l.Current())
	p.checkValues(r.Rule, l.Current())
	p.run("switching the rule", chromedp.SetValue(chromedp.CSS("#rule"), "empty-capture"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById('rule').dispatchEvent(new Event('change'))`))
	re, _ := engine.NewVariant(4, engine.EmptyCapture)
	le, err := play.Replay(re, start, []string{"b", "d", "A"})
	if err != nil {
		t.Fatal(err)
	}
	p.waitFor("the rule in the address", `location.search.includes('rule=empty-capture')`)
	p.waitPosition(le.Current())
	p.checkValues(re.Rule, le.Current())

	// Reload from the address: the same position, rule and line.
	href, err := chromedp.Run(p.ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(href, "moves=b%2Cd%2CA%2CC") && !strings.Contains(href, "moves=b,d,A,C") {
		t.Errorf("address %s lacks the line", href)
	}
	p.run("reloading", chromedp.Navigate("about:blank"), chromedp.Navigate(href))
	p.waitPosition(le.Current())
	p.checkValues(re.Rule, le.Current())
	rule := eval[string](p, "reading the rule", `document.getElementById('rule').value`)
	if rule != "empty-capture" {
		t.Errorf("rule after reload: %q", rule)
	}
	if eval[bool](p, "reading the animation toggle", `document.getElementById('animate').checked`) {
		t.Errorf("the animation is on again after a reload")
	}
	p.screenshot(filepath.Join(arts, "explore.png"))

	// A capture: b takes 6 seeds from North's B.
	lc, err := play.Replay(r, start, []string{"b", "c", "A", "C"})
	if err != nil {
		t.Fatal(err)
	}
	p.run("loading a line", chromedp.Navigate(hs.URL+"/?pits=4&seeds=3&moves=b,c,A,C"))
	p.waitPosition(lc.Current())
	p.click(`svg g.pit-g[data-move="b"]`)
	lc.Play("b")
	p.waitPosition(lc.Current())
	p.checkBoard(lc.Current())
	if st := lc.Steps[4]; st.Captured != 6 || st.CapturedFrom != "B" {
		t.Fatalf("b captures %d from %q, want 6 from B", st.Captured, st.CapturedFrom)
	}
	checkLastMove(p, lc.Steps[4])
	p.checkValues(r.Rule, lc.Current())
	p.screenshot(filepath.Join(arts, "capture.png"))

	// Play as North against the perfect player: it opens.
	p.run("loading play mode", chromedp.Navigate(hs.URL+"/?mode=play&pits=4&seeds=3&as=north&level=perfect&seed=1"))
	p.waitFor("the user's turn", `document.getElementById('status').textContent.startsWith('Your move')`)
	moves := eval[string](p, "reading the line", `new URLSearchParams(location.search).get('moves')`)
	lp, err := play.Replay(r, start, play.SplitMoves(moves))
	if err != nil || len(lp.Steps) == 0 || lp.Current().ToMove != engine.North {
		t.Fatalf("the computer's opening %q: %v", moves, err)
	}
	first, _ := play.Levels[len(play.Levels)-1].Choose(reference(t, r.Rule, start).Record, 1)
	if lp.Steps[0].Move != first.Move {
		t.Errorf("the perfect player opened with %s, want %s", lp.Steps[0].Move, first.Move)
	}
	p.click("#hint")
	p.checkValues(r.Rule, lp.Current())
	p.waitFor("the hint", `document.getElementById('status').textContent.startsWith('Hint: play')`)
	p.screenshot(filepath.Join(arts, "play.png"))
	before := lp.Current()
	mine := engine.MoveLetter(engine.North, before.Board.MoveList()[0])
	p.click(fmt.Sprintf(`svg g.pit-g[data-move=%q]`, mine))
	p.waitFor("the computer's answer", `document.getElementById('status').textContent.startsWith('Your move') || document.getElementById('status').textContent.startsWith('Game over')`)
	p.click("#undo")
	p.waitPosition(before)

	if dir := os.Getenv("KALAH_DOCS_IMG"); dir != "" {
		docsScreenshots(p, hs.URL, dir)
	}
}

// docsScreenshots takes the pictures of docs/explorer.md: Kalah(6,3) in
// explore mode after a few moves, and in play mode.
func docsScreenshots(p page, base, dir string) {
	p.patience = 5 * time.Minute
	r, _ := engine.NewVariant(6, engine.NoEmptyCapture)
	start, _ := r.StartPosition(3)
	l, err := play.Replay(r, start, []string{"d", "b", "C", "a"})
	if err != nil {
		p.t.Fatal(err)
	}
	// The pictures show the animation's box as it is by default: on.
	p.run("loading the docs position", chromedp.Navigate(base+"/?pits=6&seeds=3&moves=d,b,C,a"),
		chromedp.Evaluate[chromedp.Void](`localStorage.setItem('kalah.animate', 'on')`), chromedp.Reload())
	p.waitPosition(l.Current())
	p.checkValues(r.Rule, l.Current())
	p.screenshot(filepath.Join(dir, "explore.png"))
	p.run("loading play mode", chromedp.Navigate(base+"/?mode=play&pits=6&seeds=3&as=south&level=medium&seed=3&moves=d,b,C"))
	p.waitFor("the user's turn", `document.getElementById('status').textContent.startsWith('Your move')`)
	p.click("#hint")
	p.waitFor("the hint", `document.getElementById('status').textContent.startsWith('Hint: play')`)
	p.screenshot(filepath.Join(dir, "play.png"))
}

// TestBrowserLive pauses a solve after its third pass and checks that the
// page, meanwhile, shows every move's proven bounds, holding the values a
// solve of the test's own finds, and that the values replace them once
// the solve goes on. With $KALAH_DOCS_IMG set it also takes the picture
// of docs/explorer.md: Kalah(6,3) paused after its 14th pass.
func TestBrowserLive(t *testing.T) {
	ctx := newBrowser(t)
	p := page{t: t, ctx: ctx}
	r, _ := engine.NewVariant(4, engine.NoEmptyCapture)
	start, _ := r.StartPosition(3)
	liveBounds(p, r, start, "/?pits=4&seeds=3", 3, filepath.Join(artifactsDir(t), "solving.png"))
	if dir := os.Getenv("KALAH_DOCS_IMG"); dir != "" {
		r6, _ := engine.NewVariant(6, engine.NoEmptyCapture)
		start6, _ := r6.StartPosition(3)
		p.patience = 5 * time.Minute
		liveBounds(p, r6, start6, "/?pits=6&seeds=3", 14, filepath.Join(dir, "solving.png"))
	}
}

// liveBounds loads path on a server of its own that pauses the solve of
// pos after its pass-th pass, checks the bounds the page shows, saves a
// screenshot, lets the solve go on and checks the values.
func liveBounds(p page, r engine.Variant, pos engine.Position, path string, pass int64, shot string) {
	t := p.t
	t.Helper()
	paused, resume := make(chan struct{}), make(chan struct{})
	var n atomic.Int64
	var once sync.Once
	goOn := func() { once.Do(func() { close(resume) }) }
	_, hs := newTestServer(t, Options{ProgressEvery: time.Hour, afterProgress: func(solver.Progress) {
		if n.Add(1) == pass {
			close(paused)
			<-resume
		}
	}})
	t.Cleanup(goOn) // runs before the server's Close, which waits for the solve
	want := reference(t, r.Rule, pos)
	p.run("loading the page", chromedp.Navigate(hs.URL+path))
	<-paused
	p.waitFor("the live bounds", fmt.Sprintf(`document.querySelectorAll('#moves tbody tr.live').length === %d &&
		document.getElementById('status').textContent.startsWith('solving… value in')`, len(want.Moves)))
	rows := eval[[][]any](p, "reading the bounds", `Array.from(document.querySelectorAll('#moves tbody tr.live')).map((tr) => [tr.dataset.move, +tr.dataset.lower, +tr.dataset.upper])`)
	badges := eval[int](p, "counting the board's bounds", `document.querySelectorAll('svg .badge.live').length`)
	value := map[string]float64{}
	for _, m := range want.Moves {
		value[m.Move] = float64(m.Value)
	}
	narrow := 0
	for _, row := range rows {
		mv, lo, hi := row[0].(string), row[1].(float64), row[2].(float64)
		if v, ok := value[mv]; !ok || lo > v || hi < v {
			t.Errorf("move %s shown in [%v, %v], value %v", mv, lo, hi, v)
		}
		if hi-lo < float64(2*pos.Board.Seeds()) {
			narrow++
		}
	}
	if badges != len(want.Moves) || narrow == 0 {
		t.Errorf("%d bounds on the board, %d narrowed: %v", badges, narrow, rows)
	}
	p.screenshot(shot)
	goOn()
	p.checkValues(r.Rule, pos)
}
