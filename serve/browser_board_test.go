package serve

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/play"
)

// TestBrowserBoardText: the board's captions, the side to move and the
// last move, never overlap and stay on the board, on boards of one to
// eight pits, after moves of either side.
func TestBrowserBoardText(t *testing.T) {
	_, hs := newTestServer(t, Options{NoPonder: true})
	p := page{t: t, ctx: newBrowser(t)} // closed before the server
	for _, c := range []struct {
		pits, seeds int
		moves       string
	}{
		{2, 3, "a,A,b,B"},
		{2, 3, "a"},
		{1, 3, "a"},
		{1, 5, "a"},
		{3, 3, "b,A"},
		{6, 4, "a,A"},
		{8, 1, "a"},
	} {
		r, _ := engine.NewVariant(c.pits, engine.NoEmptyCapture)
		start, _ := r.StartPosition(c.seeds)
		l, err := play.Replay(r, start, play.SplitMoves(c.moves))
		if err != nil {
			t.Fatal(err)
		}
		path := fmt.Sprintf("/?pits=%d&seeds=%d&moves=%s", c.pits, c.seeds, c.moves)
		p.run("loading "+path, chromedp.Navigate(hs.URL+path))
		p.waitPosition(l.Current())
		checkLastMove(p, l.Steps[len(l.Steps)-1])
		boxes := eval[map[string]map[string]float64](p, "measuring the captions", `(() => {
			const box = (e) => { if (!e) return null; const b = e.getBBox(); return {x: b.x, y: b.y, w: b.width, h: b.height}; };
			const vb = document.getElementById('board').viewBox.baseVal;
			return {board: {x: vb.x, y: vb.y, w: vb.width, h: vb.height}, tomove: box(document.querySelector('svg .tomove')), last: box(document.getElementById('last-move'))};
		})()`)
		b, tm, lm := boxes["board"], boxes["tomove"], boxes["last"]
		if lm == nil || lm["w"] == 0 {
			t.Errorf("%s: no last move drawn: %v", path, boxes)
			continue
		}
		for name, x := range map[string]map[string]float64{"side to move": tm, "last move": lm} {
			if x != nil && (x["x"] < b["x"] || x["x"]+x["w"] > b["x"]+b["w"] || x["y"] < b["y"] || x["y"]+x["h"] > b["y"]+b["h"]) {
				t.Errorf("%s: the %s (%v) reaches past the board (%v)", path, name, x, b)
			}
		}
		if tm != nil && tm["x"] < lm["x"]+lm["w"] && lm["x"] < tm["x"]+tm["w"] && tm["y"] < lm["y"]+lm["h"] && lm["y"] < tm["y"]+tm["h"] {
			t.Errorf("%s: the side to move %v and the last move %v overlap", path, tm, lm)
		}
	}
}

// TestBrowserSeedsError: a seed count the game cannot have, typed and
// followed by a click on New game, is said and stays said while the game
// starts.
func TestBrowserSeedsError(t *testing.T) {
	_, hs := newTestServer(t, Options{NoPonder: true})
	p := page{t: t, ctx: newBrowser(t)} // closed before the server
	r, _ := engine.NewVariant(4, engine.NoEmptyCapture)
	start, _ := r.StartPosition(3)
	for _, typed := range []string{"-2", "0", "99", "2.5"} {
		p.run("loading", chromedp.Navigate(hs.URL+"/?pits=4&seeds=3&moves=b"))
		l, _ := play.Replay(r, start, []string{"b"})
		p.waitPosition(l.Current())
		p.run("typing "+typed, chromedp.Evaluate[chromedp.Void](`document.getElementById('seeds').value = ''`), chromedp.SendKeys(chromedp.CSS("#seeds"), typed))
		p.click("#new-game")
		p.waitPosition(start)
		p.checkValues(r.Rule, start)
		if msg := errorText(p); !strings.Contains(msg, "Seeds: ") || !strings.Contains(msg, "not a whole number 1..31 for 4 pits; keeping 3") {
			t.Errorf("seeds %s, then New game: message %q", typed, msg)
		}
		if v := eval[string](p, "reading the seeds", `document.getElementById('seeds').value`); v != "3" {
			t.Errorf("seeds %s: the field shows %q, want 3", typed, v)
		}
		p.consistent("seeds " + typed)
		// The next move clears the message.
		p.click(`svg g.pit-g[data-move="a"]`)
		p.waitFor("the message cleared", `document.getElementById('error').textContent === ''`)
	}
}

// TestBrowserBuildPercent: while a request waits for a database build,
// the banner and the status line show the same share done, as the build
// goes on.
func TestBrowserBuildPercent(t *testing.T) {
	held, goOn := make(chan struct{}), make(chan struct{})
	var once sync.Once
	release := sync.OnceFunc(func() { close(goOn) })
	s, hs := newTestServer(t, Options{NoPonder: true, beforeSolve: func() {
		once.Do(func() {
			close(held)
			<-goOn
		})
	}})
	t.Cleanup(release) // before the server's Close, which waits for the slot
	p := page{t: t, ctx: newBrowser(t)}
	r, _ := engine.NewVariant(3, engine.NoEmptyCapture)
	ev := kalah.EGDBBuild{Dir: t.TempDir(), Variant: r, MaxSeeds: 9, Positions: 7919}
	s.egdbBuild(ev)
	p.run("loading the page", chromedp.Navigate(hs.URL+"/?pits=3&seeds=2"))
	<-held
	p.waitFor("the request waiting", `document.getElementById('status').textContent.includes('waiting for the server: endgame database build (0%)')`)
	pct := regexp.MustCompile(`(\d+)%`)
	for done := int64(0); done < ev.Positions; done += 613 {
		ev.Done = done
		s.egdbBuild(ev)
		want := fmt.Sprintf("%d%%", 100*done/ev.Positions)
		p.waitFor("the banner at "+want, fmt.Sprintf(`document.getElementById('server-text').textContent.includes(' %s of ')`, want))
		// Each sample reads both at once; the page's polls run meanwhile.
		for range 3 {
			got := eval[[]string](p, "reading the banner and the status line",
				`[document.getElementById('server-text').textContent, document.getElementById('status').textContent]`)
			a, b := pct.FindStringSubmatch(got[0]), pct.FindStringSubmatch(got[1])
			if a == nil || b == nil || a[1] != b[1] || !strings.Contains(got[1], "waiting for the server: endgame database build") {
				t.Fatalf("the banner %q and the status line %q disagree", got[0], got[1])
			}
			time.Sleep(150 * time.Millisecond)
		}
	}
	ev.Finished, ev.Done = true, ev.Positions
	s.egdbBuild(ev)
	release()
	start, _ := r.StartPosition(2)
	p.checkValues(r.Rule, start)
}
