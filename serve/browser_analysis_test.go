package serve

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/openspiel"
)

// checkGraph compares the analysis board with the test's own solves of
// the game's positions: every point of the value graph (South's value
// after each move), every move's mark in the move list (its class by the
// loss the solves give), and the marker at the position shown.
func (p page) checkGraph(rule engine.Rule, ps []engine.Position, moves []string, at int) {
	p.t.Helper()
	n := len(moves)
	p.waitFor("the value graph", fmt.Sprintf(`!document.getElementById('graph').hasAttribute('hidden') && document.querySelectorAll('#graph circle.pt').length === %d`, n+1))
	pts := eval[[][]any](p, "reading the graph", `Array.from(document.querySelectorAll('#graph circle.pt')).map((c) => [+c.dataset.ply, +c.dataset.value, c.dataset.class])`)
	marks := eval[[][]any](p, "reading the marks", `Array.from(document.querySelectorAll('#line span[data-class]')).map((e) => [e.textContent, e.dataset.class, +e.dataset.loss])`)
	if len(marks) != n {
		p.t.Fatalf("%d moves marked in the list, want %d", len(marks), n)
	}
	vals := make([]int, len(ps))
	for k, q := range ps {
		vals[k] = southValue(p.t, rule, q)
	}
	for k := range pts {
		if pts[k][0] != float64(k) || pts[k][1] != float64(vals[k]) {
			p.t.Errorf("graph point %d: %v, want South's value %d", k, pts[k], vals[k])
		}
	}
	for k, mv := range moves {
		loss := vals[k] - vals[k+1]
		if ps[k].ToMove == engine.North {
			loss = -loss
		}
		class := string(kalah.DefaultThresholds.Classify(loss))
		mark := map[string]string{"inaccuracy": "?!", "mistake": "?", "blunder": "??"}[class]
		if marks[k][0] != mv+mark || marks[k][1] != class || marks[k][2] != float64(loss) || pts[k+1][2] != class {
			p.t.Errorf("move %d (%s): marked %v, point %v; want %s%s, %s, loss %d", k+1, mv, marks[k], pts[k+1], mv, mark, class, loss)
		}
	}
	p.waitFor("the marker at the position shown", fmt.Sprintf(`Math.abs(+document.getElementById('graph-at').getAttribute('x1') - +document.querySelector('#graph circle[data-ply="%d"]').getAttribute('cx')) < 0.01`, at))
}

// TestBrowserAnalysis: a game opened with analyse=1 in the address, at
// 1280 and at 380 px wide, shows the value graph and the move list's
// marks as the test's own solves give them; a click on a point shows that
// position, with its values and best line, and the address keeps it; a
// game pasted in OpenSpiel's actions becomes the line shown, analysed.
func TestBrowserAnalysis(t *testing.T) {
	_, hs := newTestServer(t, Options{NoPonder: true})
	p := page{t: t, ctx: newBrowser(t)} // closed before the server
	r, _ := engine.NewVariant(4, engine.NoEmptyCapture)
	game := randomGame(r, 3, 11)
	ps := positionsOf(game)
	n := len(game.Steps)
	var moves []string
	for _, st := range game.Steps {
		moves = append(moves, st.Move)
	}
	for _, width := range []int64{1280, 380} {
		p.run("sizing", chromedp.EmulateViewport(width, 900))
		path := "/?pits=4&seeds=3&analyse=1&moves=" + strings.Join(moves, ",")
		p.run("loading "+path, chromedp.Navigate(hs.URL+path))
		p.waitPosition(ps[n])
		p.checkGraph(r.Rule, ps, moves, n)
		if width == 380 {
			if sw := eval[float64](p, "measuring", `document.scrollingElement.scrollWidth`); sw > 380 {
				t.Errorf("at 380 px the page scrolls sideways: %v px wide", sw)
			}
		}
		// A click on a point: that position, its values and its best line.
		k := n / 2
		p.run("clicking a point", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector('#graph circle[data-ply="%d"]').dispatchEvent(new MouseEvent('click', {bubbles: true}))`, k)))
		p.waitPosition(ps[k])
		p.checkValues(r.Rule, ps[k])
		p.checkGraph(r.Rule, ps, moves, k)
		p.screenshot(filepath.Join(artifactsDir(t), fmt.Sprintf("analysis-%d.png", width)))
		if dir := os.Getenv("KALAH_DOCS_IMG"); dir != "" {
			p.screenshot(filepath.Join(dir, map[int64]string{1280: "analysis.png", 380: "analysis-narrow.png"}[width]))
		}
		if pv := eval[string](p, "reading the best line", `document.getElementById('pv-box').hidden ? '' : document.getElementById('pv').textContent`); pv == "" {
			t.Errorf("position %d: no best line shown", k)
		}
		here := eval[string](p, "reading the move's figures", `document.getElementById('analysis-here').textContent`)
		if !strings.Contains(here, fmt.Sprintf("Move %d: %s played %s", k+1, game.Steps[k].Ply.Side, moves[k])) {
			t.Errorf("position %d: %q", k, here)
		}
		q := eval[string](p, "reading the address", `location.search`)
		if !strings.Contains(q, "analyse=1") || !strings.Contains(q, fmt.Sprintf("at=%d", k)) {
			t.Errorf("the address %q does not keep the analysis and the position", q)
		}
		// The address reopens it as it is.
		p.run("reloading", chromedp.Reload())
		p.waitPosition(ps[k])
		p.checkGraph(r.Rule, ps, moves, k)
	}
	// A game pasted as OpenSpiel actions, in another game than the one shown.
	r3, _ := engine.NewVariant(3, engine.EmptyCapture)
	g3 := randomGame(r3, 2, 5)
	var acts, m3 []string
	for _, st := range g3.Steps {
		acts = append(acts, fmt.Sprint(openspiel.Action(3, st.Ply.Side, st.Ply.Pit)))
		m3 = append(m3, st.Move)
	}
	p.run("loading Kalah(3,2) empty-capture", chromedp.Navigate(hs.URL+"/?pits=3&seeds=2&rule=empty-capture"))
	start3, _ := r3.StartPosition(2)
	p.waitPosition(start3)
	p.run("pasting", chromedp.SendKeys(chromedp.CSS("#game-input"), "["+strings.Join(acts, ", ")+"]"))
	p.click("#analyse")
	ps3 := positionsOf(g3)
	p.waitPosition(ps3[0])
	p.checkGraph(r3.Rule, ps3, m3, 0)
	if q := eval[string](p, "reading the address", `location.search`); !strings.Contains(q, "moves="+strings.Join(m3, "%2C")) || !strings.Contains(q, "analyse=1") {
		t.Errorf("after the paste the address is %q", q)
	}
	// A bad game pasted: said, naming the move; the line shown stays.
	p.run("pasting a bad game", chromedp.SendKeys(chromedp.CSS("#game-input"), "a,a,a,a"))
	p.click("#analyse")
	p.waitFor("the message", `document.getElementById('error').textContent.includes('Analysis: ') && document.getElementById('error').textContent.includes('move ')`)
	// Playing another move drops the analysis.
	p.click(`svg g.pit-g.legal`)
	p.waitFor("the graph gone", `document.getElementById('graph').hasAttribute('hidden') && !location.search.includes('analyse=1')`)
	p.run("widening", chromedp.EmulateViewport(1100, 620))
}
