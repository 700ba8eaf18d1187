package kalah

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/internal/reference"
)

// randomGame plays random legal moves from the start of Kalah(m,n) until
// the game ends or plies sowings are made (plies < 0: to the end).
func randomGame(rng *rand.Rand, m, n int, rule Rule, plies int) Game {
	r := engine.Variant{Pits: m, Rule: rule}
	p, _ := r.StartPosition(n)
	g := Game{Pits: m, Seeds: n, Rule: rule}
	for len(g.Moves) != plies && !p.Board.Over() {
		ms := p.Board.MoveList()
		i := ms[rng.IntN(len(ms))]
		g.Moves = append(g.Moves, engine.Ply{Side: p.ToMove, Pit: i})
		p, _ = r.PlayPosition(p, i)
	}
	return g
}

// refSouth is the reference's value of p for South, stores counted, and
// the moves of p that keep it.
func refSouth(ref *reference.Solver, rr reference.Rules, p engine.Position) (int, []string) {
	h := p.Holes()
	g := rr.Game(h, p.ToMove == engine.North)
	m := p.Pits
	diff := h[m] - h[2*m+1]
	if p.ToMove == engine.North {
		diff = -diff
	}
	v := diff + ref.Value(g)
	var best []string
	if !p.Board.Over() {
		for _, i := range p.Board.MoveList() {
			if diff+ref.MoveValue(g, i) == v {
				best = append(best, engine.MoveLetter(p.ToMove, i))
			}
		}
	}
	if p.ToMove == engine.North {
		v = -v
	}
	return v, best
}

// TestAnalyzeRandomGames: over random games of small boards under both
// rules, every figure of an analysis is the brute-force reference's (the
// values before and after, the best moves, the loss and its class), and
// the start's value minus the end's is South's total loss minus North's.
func TestAnalyzeRandomGames(t *testing.T) {
	games := 60
	if testing.Short() {
		games = 20
	}
	rng := rand.New(rand.NewPCG(65, 1))
	for _, c := range []struct {
		m, n int
		rule Rule
	}{{3, 3, NoEmptyCapture}, {4, 3, NoEmptyCapture}, {4, 3, EmptyCapture}, {3, 4, EmptyCapture}} {
		k, err := Open(Config{Pits: c.m, Seeds: c.n, Rule: c.rule, NoEGDB: true, NoCache: true, NoBook: true, Threads: 2, TableSize: 1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		rr := reference.Rules{Pits: c.m, EmptyCapture: c.rule == EmptyCapture}
		ref := reference.NewSolver(rr, 0)
		for gi := range games {
			g := randomGame(rng, c.m, c.n, c.rule, -1)
			opt := AnalyzeOptions{AllBest: gi%2 == 0}
			if gi%3 == 0 {
				opt.Thresholds = Thresholds{Inaccuracy: 1, Mistake: 2, Blunder: 3}
			}
			a, err := k.Analyze(context.Background(), g, opt)
			if err != nil {
				t.Fatal(err)
			}
			checkAnalysis(t, a, g, ref, rr, opt)
		}
		k.Close()
	}
}

func checkAnalysis(t *testing.T, a *Analysis, g Game, ref *reference.Solver, rr reference.Rules, opt AnalyzeOptions) {
	t.Helper()
	ps, _ := g.Positions()
	th := opt.Thresholds
	if th == (Thresholds{}) {
		th = DefaultThresholds
	}
	if a.Bound || len(a.Moves) != len(g.Moves) {
		t.Fatalf("%s: bound %v, %d moves of %d", a.Line, a.Bound, len(a.Moves), len(g.Moves))
	}
	if got := a.Value - a.End; got != a.South.Loss-a.North.Loss {
		t.Errorf("%s: start %d minus end %d is %d, South's loss %d minus North's %d", a.Line, a.Value, a.End, got, a.South.Loss, a.North.Loss)
	}
	if v, _ := refSouth(ref, rr, ps[0]); a.Value != v {
		t.Errorf("%s: start value %d, reference %d", a.Line, a.Value, v)
	}
	if v, _ := refSouth(ref, rr, ps[len(ps)-1]); a.End != v || a.Over != ps[len(ps)-1].Board.Over() {
		t.Errorf("%s: end %d (over %v), reference %d", a.Line, a.End, a.Over, v)
	}
	for i, mv := range a.Moves {
		before, best := refSouth(ref, rr, ps[i])
		after, _ := refSouth(ref, rr, ps[i+1])
		loss := before - after
		if mv.Side == "north" {
			loss = -loss
		}
		if mv.Before != before || mv.After != after || mv.Loss != loss || mv.BestValue != before || mv.Bound {
			t.Errorf("%s ply %d: before %d after %d loss %d bound %v, reference %d %d %d", a.Line, mv.Ply, mv.Before, mv.After, mv.Loss, mv.Bound, before, after, loss)
		}
		if mv.Class != th.Classify(loss) {
			t.Errorf("%s ply %d: class %s for a loss of %d", a.Line, mv.Ply, mv.Class, loss)
		}
		subset := len(mv.Best) > 0
		for _, b := range mv.Best {
			subset = subset && slices.Contains(best, b)
		}
		// Every best move, with AllBest or from a root record; else one, the
		// move played when it keeps the value.
		switch {
		case opt.AllBest || len(mv.Best) > 1:
			if !slices.Equal(mv.Best, best) {
				t.Errorf("%s ply %d: best %v, reference %v", a.Line, mv.Ply, mv.Best, best)
			}
		case !subset || (loss == 0 && mv.Best[0] != mv.Move && !slices.Equal(mv.Best, best)):
			t.Errorf("%s ply %d (%s, loss %d): best %v, reference %v", a.Line, mv.Ply, mv.Move, loss, mv.Best, best)
		}
	}
	for _, s := range []SideAnalysis{a.South, a.North} {
		n, kept, sum := 0, 0, 0
		for _, mv := range a.Moves {
			if mv.Side == s.Side {
				n++
				sum += mv.Loss
				if mv.Loss == 0 {
					kept++
				}
			}
		}
		if s.Moves != n || s.Best != kept || s.Loss != sum || s.Classes[ClassBest] != kept {
			t.Errorf("%s %s: %d moves, %d best, loss %d; counted %d, %d, %d", a.Line, s.Side, s.Moves, s.Best, s.Loss, n, kept, sum)
		}
		if n > 0 && s.Accuracy != float64(kept)/float64(n) {
			t.Errorf("%s %s: accuracy %v", a.Line, s.Side, s.Accuracy)
		}
		for j, m := range s.Largest {
			if m.Loss <= 0 || j > 0 && m.Loss > s.Largest[j-1].Loss || a.Moves[m.Ply-1].Move != m.Move {
				t.Errorf("%s %s: largest mistakes %+v", a.Line, s.Side, s.Largest)
			}
		}
	}
}

// TestAnalyzeBounds: with no time for any position, the figures are
// bounds, flagged, that hold the reference's values.
func TestAnalyzeBounds(t *testing.T) {
	k, err := Open(Config{Pits: 4, Seeds: 3, NoEGDB: true, NoCache: true, NoBook: true, Threads: 1, TableSize: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	g := randomGame(rand.New(rand.NewPCG(1, 2)), 4, 3, NoEmptyCapture, 8)
	a, err := k.Analyze(context.Background(), g, AnalyzeOptions{PositionTime: 1})
	if err != nil {
		t.Fatal(err)
	}
	rr := reference.Rules{Pits: 4}
	ref := reference.NewSolver(rr, 0)
	ps, _ := g.Positions()
	if !a.Bound {
		t.Fatal("no bound with no time")
	}
	for i, mv := range a.Moves {
		before, _ := refSouth(ref, rr, ps[i])
		after, _ := refSouth(ref, rr, ps[i+1])
		if !mv.Bound || mv.BeforeBounds == nil || mv.BeforeBounds.Lower > before || mv.BeforeBounds.Upper < before ||
			mv.AfterBounds.Lower > after || mv.AfterBounds.Upper < after || mv.Before != mv.BeforeBounds.Lower {
			t.Errorf("ply %d: %+v, reference before %d after %d", mv.Ply, mv, before, after)
		}
	}
}

// TestAnalyzeInterrupted: a context that ends returns the error.
func TestAnalyzeInterrupted(t *testing.T) {
	k, err := Open(Config{Pits: 4, Seeds: 3, NoEGDB: true, NoCache: true, NoBook: true, Threads: 1, TableSize: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g := randomGame(rand.New(rand.NewPCG(1, 3)), 4, 3, NoEmptyCapture, 6)
	if _, err := k.Analyze(ctx, g, AnalyzeOptions{}); err == nil {
		t.Fatal("an ended context gave no error")
	}
	if _, err := k.Analyze(context.Background(), Game{Pits: 5, Seeds: 3}, AnalyzeOptions{}); err == nil {
		t.Error("a game of another board was analysed")
	}
	if _, err := k.Analyze(context.Background(), g, AnalyzeOptions{Thresholds: Thresholds{Inaccuracy: 3, Mistake: 2, Blunder: 5}}); err == nil {
		t.Error("thresholds out of order were taken")
	}
	bad := g
	bad.Moves = append(slices.Clone(g.Moves), engine.Ply{Side: engine.South, Pit: 9})
	var me *MoveError
	if _, err := k.Analyze(context.Background(), bad, AnalyzeOptions{}); !errors.As(err, &me) || me.Index != len(g.Moves) {
		t.Errorf("an illegal move: %v", err)
	}
}

// TestAnalysisJSON: the analysis and its game survive JSON.
func TestAnalysisJSON(t *testing.T) {
	k, err := Open(Config{Pits: 3, Seeds: 3, NoEGDB: true, NoCache: true, NoBook: true, Threads: 1, TableSize: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	g := randomGame(rand.New(rand.NewPCG(4, 4)), 3, 3, NoEmptyCapture, -1)
	a, err := k.Analyze(context.Background(), g, AnalyzeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	var back Analysis
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.Game.Moves, g.Moves) || back.Game.Pits != 3 || back.Game.Seeds != 3 || back.South.Loss != a.South.Loss || len(back.Moves) != len(a.Moves) {
		t.Errorf("JSON round trip: %s", b)
	}
}

// TestAnalyzeFromRecords: positions whose root records the cache holds are
// answered from them, the move played from its record too, and the
// figures are still the reference's.
func TestAnalyzeFromRecords(t *testing.T) {
	k, err := Open(Config{Pits: 4, Seeds: 3, NoEGDB: true, CacheDir: t.TempDir(), NoBook: true, Threads: 1, TableSize: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	rng := rand.New(rand.NewPCG(9, 9))
	rr := reference.Rules{Pits: 4}
	ref := reference.NewSolver(rr, 0)
	fromCache := 0
	for range 8 {
		g := randomGame(rng, 4, 3, NoEmptyCapture, -1)
		ps, _ := g.Positions()
		for _, p := range ps[:min(4, len(ps))] { // root records of the first plies
			if !p.Board.Over() {
				if _, err := k.Solve(context.Background(), p); err != nil {
					t.Fatal(err)
				}
			}
		}
		a, err := k.Analyze(context.Background(), g, AnalyzeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		checkAnalysis(t, a, g, ref, rr, AnalyzeOptions{})
		for _, m := range a.Moves {
			if m.Source == "cache" {
				fromCache++
			}
		}
	}
	if fromCache == 0 {
		t.Error("no value came from the cache's records")
	}
}
