package solver

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/internal/reference"
)

// brute is the independent reference (internal/reference: plain memoized
// negamax over seed-by-seed sowing; no bounds, no windows, no table
// tricks, no code shared with the engine) for one rule set, speaking
// engine boards. Its values are the mover's final store difference.
type brute struct{ *reference.Solver }

func newBrute(r engine.Variant) *brute {
	return &brute{reference.NewSolver(reference.Rules{Pits: r.Pits, EmptyCapture: r.Rule == engine.EmptyCapture}, 0)}
}

// brutes shares one reference per rule set across a test's positions, so
// that positions from the same game reuse the memo.
type brutes map[engine.Variant]*brute

func (bs brutes) get(r engine.Variant) *brute {
	if bs[r] == nil {
		bs[r] = newBrute(r)
	}
	return bs[r]
}

// game is b for the reference: b's mover as South.
func (br *brute) game(b engine.Board) reference.Game {
	m := br.Pits
	h := make([]int, 2*m+2)
	for i := 0; i < m; i++ {
		h[i], h[m+1+i] = b.Pit(i), b.OppPit(i)
	}
	h[m], h[2*m+1] = int(b.OwnStore), int(b.OppStore)
	return br.Game(h, false)
}

// value is the mover's final store difference from b under perfect play.
func (br *brute) value(b engine.Board) int { return b.StoreDiff() + br.Value(br.game(b)) }

// move is the mover's final store difference after pit i and perfect play.
func (br *brute) move(b engine.Board, i int) int {
	return b.StoreDiff() + br.MoveValue(br.game(b), i)
}

func newTestSolver(t testing.TB, r engine.Variant, threads int) *Solver {
	s, err := New(r, Options{TableSize: 1 << 22, Threads: threads})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// solvedStart is the start of Kalah(r.Pits, seeds) and its complete
// solve on one thread, every move's value included.
func solvedStart(t *testing.T, r engine.Variant, seeds int) (engine.Position, *Result) {
	t.Helper()
	p, err := r.StartPosition(seeds)
	if err != nil {
		t.Fatal(err)
	}
	s := newTestSolver(t, r, 1)
	defer s.Close()
	res, err := s.SolveEveryMove(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	return p, res
}

// checkSolve compares every move's value and the PV with the reference.
func checkSolve(t *testing.T, s *Solver, br *brute, p engine.Position) {
	t.Helper()
	res, err := s.SolveEveryMove(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	want := br.value(p.Board)
	if res.Value != want {
		t.Fatalf("%v %s to move at %v: value %d, reference %d", s.rules, p.ToMove, p, res.Value, want)
	}
	for _, mv := range res.Moves {
		if w := br.move(p.Board, mv.Pit-1); mv.Value != w {
			t.Fatalf("%v at %v move %s: value %d, reference %d", s.rules, p, mv.Move, mv.Value, w)
		}
	}
	checkPV(t, s, p, res.PV, want)
}

// checkSolveValue checks SolveBestMove's value, best move and PV against the
// reference, then SolveEveryMoveFrom's from that result.
func checkSolveValue(t *testing.T, s *Solver, br *brute, p engine.Position) {
	t.Helper()
	res, err := s.SolveBestMove(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	want := br.value(p.Board)
	if res.Value != want || res.Lower != want || res.Upper != want || !res.Solved || len(res.Moves) != 0 {
		t.Fatalf("%v %s to move at %v: SolveBestMove %d [%d, %d] solved %v, %d moves; reference %d",
			s.rules, p.ToMove, p, res.Value, res.Lower, res.Upper, res.Solved, len(res.Moves), want)
	}
	if len(res.Best) != 1 || br.move(p.Board, res.Best[0]) != want {
		t.Fatalf("%v at %v: SolveBestMove's best move %v is not optimal", s.rules, p, res.Best)
	}
	checkPV(t, s, p, res.PV, want)
	// Every move's value from the value just proven (as kalah sweep does).
	all, err := s.SolveEveryMoveFrom(context.Background(), p, res)
	if err != nil {
		t.Fatal(err)
	}
	if all.Value != want || len(all.Moves) != p.Board.NumMoves() {
		t.Fatalf("%v at %v: SolveEveryMoveFrom %d with %d moves; reference %d", s.rules, p, all.Value, len(all.Moves), want)
	}
	for _, mv := range all.Moves {
		if w := br.move(p.Board, mv.Pit-1); mv.Value != w || !mv.Solved {
			t.Fatalf("%v at %v move %s: SolveEveryMoveFrom %d (solved %v), reference %d", s.rules, p, mv.Move, mv.Value, mv.Solved, w)
		}
	}
	checkPV(t, s, p, all.PV, want)
}

// checkPV checks that a principal variation plays out to the value.
func checkPV(t *testing.T, s *Solver, p engine.Position, pv []engine.Ply, want int) {
	t.Helper()
	q := p
	for _, st := range pv {
		if st.Side != q.ToMove {
			t.Fatalf("PV step for %v while %v is to move", st.Side, q.ToMove)
		}
		q, _ = s.rules.PlayPosition(q, st.Pit)
	}
	if !q.Board.Over() {
		t.Fatalf("PV does not end the game")
	}
	final := q.SouthDiff()
	if p.ToMove == engine.North {
		final = -final
	}
	if final != want {
		t.Fatalf("PV ends with %d for the mover, value %d", final, want)
	}
}

func TestStartPositionsMatchBruteForce(t *testing.T) {
	for m := 1; m <= 4; m++ {
		for n := 1; n <= 6-m; n++ {
			for _, c := range engine.AllRules {
				r := engine.Variant{Pits: m, Rule: c}
				p, _ := r.StartPosition(n)
				br := newBrute(r)
				checkSolve(t, newTestSolver(t, r, 1), br, p)
				checkSolveValue(t, newTestSolver(t, r, 1), br, p)
			}
		}
	}
}

// randomPosition plays random moves from a start position.
func randomPosition(rng *rand.Rand, r engine.Variant, seeds, plies int) engine.Position {
	for {
		p, _ := r.StartPosition(seeds)
		for k := 0; k < plies && !p.Board.Over(); k++ {
			moves := p.Board.MoveList()
			p, _ = r.PlayPosition(p, moves[rng.IntN(len(moves))])
		}
		if !p.Board.Over() {
			return p
		}
	}
}

func TestRandomPositionsMatchBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	refs := brutes{}
	count, maxSeeds := 300, 18
	if testing.Short() {
		count, maxSeeds = 200, 13
	}
	for k := 0; k < count; k++ {
		m := 2 + k%5
		c := engine.AllRules[k%2]
		r := engine.Variant{Pits: m, Rule: c}
		seeds := 1 + rng.IntN(3)
		if m <= 3 {
			seeds += 2
		}
		// Deep enough into the game that brute force stays quick.
		p := randomPosition(rng, r, seeds, 4*m)
		if p.Board.Seeds() > maxSeeds {
			continue
		}
		checkSolve(t, newTestSolver(t, r, 1), refs.get(r), p)
		checkSolveValue(t, newTestSolver(t, r, 1), refs.get(r), p)
	}
}

func TestDefaultTableSizeFor(t *testing.T) {
	def := DefaultTableSize()
	for _, c := range []struct {
		m, seeds, db int
		want         int64
		why          string
	}{
		{1, 2, 0, 16 << 20, "tiny game: the 16 MiB floor"},
		{4, 24, 0, 16 << 20, "Kalah(4,3): 24 seeds, the work's floor"},
		{6, 24, 18, 16 << 20, "Kalah(6,2): 24 seeds, the work's floor"},
		{6, 36, 0, 16 << 20, "Kalah(6,3): 36 seeds, 1 GiB halved 8 times, the floor"},
		{6, 42, 18, min(def, 64<<20), "Kalah(6,3) with six seeds more: 1 GiB halved 4 times"},
		{3, 36, 0, 16 << 20, "Kalah(3,6): the work's floor, under C(42,6) = 5.2 M positions"},
		{6, 48, 0, def, "Kalah(6,4) without a database: as with the 18-seed one"},
		{6, 48, 18, def, "Kalah(6,4), the 18-seed database: 1 GiB"},
		{6, 48, 20, min(def, 256<<20), "Kalah(6,4), the 20-seed database: 4 half seeds less, halved twice"},
		{6, 48, 24, min(def, 64<<20), "Kalah(6,4), the 24-seed database: 12 half seeds less, halved 4 times"},
		{6, 48, 28, 16 << 20, "Kalah(6,4), the 28-seed database: 20 half seeds less, the floor"},
		{6, 60, 28, def, "Kalah(6,5), the 28-seed database: 100 half seeds, the machine's default"},
		{6, 72, 28, def, "Kalah(6,6): the machine's default"},
		{7, 56, 20, def, "Kalah(7,4): the machine's default"},
		{5, 60, 28, def, "Kalah(5,6), the 28-seed database: 100 half seeds, as on six pits"},
		{3, 48, 0, 16 << 20, "Kalah(3,8): 48 seeds count 24, the floor"},
		{3, 72, 0, 16 << 20, "Kalah(3,12): 72 seeds count 36, the floor"},
		{4, 48, 0, 16 << 20, "Kalah(4,6): 48 seeds count 32, the floor"},
		{4, 64, 0, min(def, 64<<20), "Kalah(4,8): 64 seeds count 42.5, 1 GiB halved 4 times"},
		{4, 80, 44, min(def, 64<<20), "Kalah(4,10), the 44-seed database: 106 half seeds less 22, halved 4 times"},
		{4, 88, 44, min(def, 512<<20), "Kalah(4,11), the 44-seed database: 117 half seeds less 22, halved once"},
		{4, 96, 44, def, "Kalah(4,12), the 44-seed database: 128 half seeds less 22, the machine's default"},
	} {
		if got := DefaultTableSizeFor(c.m, c.seeds, c.db); got != c.want {
			t.Errorf("DefaultTableSizeFor(%d, %d, %d) = %d MiB, want %d MiB (%s)", c.m, c.seeds, c.db, got>>20, c.want>>20, c.why)
		}
		if got, want := DefaultTableSizeForValue(c.m, c.seeds, c.db), max(c.want/4, 16<<20); got != want {
			t.Errorf("DefaultTableSizeForValue(%d, %d, %d) = %d, want %d", c.m, c.seeds, c.db, got, want)
		}
	}
}

// TestInterruptedSolveBounds: a solve cancelled part-way returns bounds that
// hold the true value, never a guessed value, for the root and for every
// move it reports, with one thread and with several searching moves at
// once.
func TestInterruptedSolveBounds(t *testing.T) {
	r := engine.Variant{Pits: 6, Rule: engine.EmptyCapture}
	p, want := solvedStart(t, r, 3)
	exact := map[int]int{}
	for _, m := range want.Moves {
		exact[m.Pit] = m.Value
	}
	for _, threads := range []int{1, 2} {
		for _, wait := range []time.Duration{0, 20 * time.Millisecond, 80 * time.Millisecond, 300 * time.Millisecond} {
			s := newTestSolver(t, r, threads)
			ctx, cancel := context.WithTimeout(context.Background(), wait)
			res, err := s.SolveEveryMove(ctx, p)
			cancel()
			s.Close()
			if err == nil {
				continue // finished before the deadline: nothing to check
			}
			if !errors.Is(err, ErrInterrupted) || res.Solved {
				t.Fatalf("err %v, solved %v", err, res.Solved)
			}
			if res.Lower > want.Value || res.Upper < want.Value || res.Lower < -36 || res.Upper > 36 {
				t.Fatalf("threads=%d, interrupted after %v: bounds [%d, %d] miss the value %+d", threads, wait, res.Lower, res.Upper, want.Value)
			}
			for _, m := range res.Moves {
				if v := exact[m.Pit]; m.Lower > v || m.Upper < v || (m.Solved && m.Value != v) {
					t.Fatalf("threads=%d, interrupted after %v: move %s in [%d, %d] (solved %v), exact %+d", threads, wait, m.Move, m.Lower, m.Upper, m.Solved, v)
				}
			}
		}
	}
}

// TestMoveToFront: the principal variation's move order with the table's
// move first.
func TestMoveToFront(t *testing.T) {
	for _, c := range []struct {
		order []int
		m     int
		want  string
	}{
		{[]int{5, 2, 4, 0}, 4, "[4 5 2 0]"},
		{[]int{5, 2, 4, 0}, 5, "[5 2 4 0]"},
		{[]int{5, 2, 4, 0}, 0, "[0 5 2 4]"},
		{[]int{5, 2, 4, 0}, 3, "[5 2 4 0]"}, // not a legal move: the order as it was
	} {
		in := fmt.Sprint(c.order)
		if got := fmt.Sprint(moveToFront(c.order, c.m)); got != c.want || fmt.Sprint(c.order) != in {
			t.Errorf("moveToFront(%s, %d) = %s (order now %v), want %s", in, c.m, got, c.order, c.want)
		}
	}
}

// TestGivenMoves: SolveEveryMoveFrom takes the solved moves it is given as
// they are (a losing move's value planted two seeds low comes back
// unchanged, so it was not searched), searches the others to the reference's values, and costs
// fewer nodes than solving every move; moves given for another position
// are ignored.
func TestGivenMoves(t *testing.T) {
	ctx := context.Background()
	for _, c := range engine.AllRules {
		for _, cell := range [][2]int{{3, 3}, {4, 2}, {2, 4}} {
			r := engine.Variant{Pits: cell[0], Rule: c}
			p, _ := r.StartPosition(cell[1])
			br := newBrute(r)
			for _, threads := range []int{1, 2} {
				root := br.value(p.Board)
				for drop := range p.Board.MoveList() {
					// Every move given but d, and one losing move given
					// two seeds worse than it is (the best stays best,
					// so that the line still reaches the value).
					var given []MoveValue
					wrong := -1
					for k, i := range p.Board.MoveList() {
						if k == drop {
							continue
						}
						v := br.move(p.Board, i)
						if wrong < 0 && v < root {
							wrong, v = i, v-2
						}
						given = append(given, MoveValue{Pit: i + 1, Value: v, Solved: true})
					}
					s := newTestSolver(t, r, threads)
					res, err := s.SolveEveryMoveFrom(ctx, p, &Result{Position: p, Moves: given})
					s.Close()
					if err != nil {
						t.Fatal(err)
					}
					if len(res.Moves) != p.Board.NumMoves() {
						t.Fatalf("%v: %d moves, want %d", r, len(res.Moves), p.Board.NumMoves())
					}
					for _, mv := range res.Moves {
						want := br.move(p.Board, mv.Pit-1)
						if mv.Pit-1 == wrong {
							want -= 2
						}
						if mv.Value != want || !mv.Solved || mv.Move != engine.MoveLetter(p.ToMove, mv.Pit-1) {
							t.Fatalf("%v threads=%d: move %s = %d (solved %v), want %d", r, threads, mv.Move, mv.Value, mv.Solved, want)
						}
					}
				}
			}
		}
	}

	// Cheaper than every move: Kalah(4,4) with its losing moves given, one
	// thread (deterministic node counts).
	r := engine.Variant{Pits: 4, Rule: engine.NoEmptyCapture}
	p, full := solvedStart(t, r, 4)
	var best []MoveValue
	for _, mv := range full.Moves {
		if mv.Value < full.Value {
			best = append(best, mv)
		}
	}
	s := newTestSolver(t, r, 1)
	defer s.Close()
	res, err := s.SolveEveryMoveFrom(ctx, p, &Result{Position: p, Moves: best})
	if err != nil {
		t.Fatal(err)
	}
	if res.Value != full.Value || res.Stats.Nodes >= full.Stats.Nodes {
		t.Fatalf("losing moves given: value %d in %d nodes; every move solved: %d in %d nodes", res.Value, res.Stats.Nodes, full.Value, full.Stats.Nodes)
	}
	for k, mv := range res.Moves {
		if mv != full.Moves[k] {
			t.Fatalf("move %d: %+v, want %+v", k, mv, full.Moves[k])
		}
	}
	// Given for another position: ignored, the same as a fresh solve.
	q, _ := r.StartPosition(2)
	s2 := newTestSolver(t, r, 1)
	defer s2.Close()
	res2, err := s2.SolveEveryMoveFrom(ctx, p, &Result{Position: q, Moves: []MoveValue{{Pit: 1, Value: 99, Solved: true}}})
	if err != nil {
		t.Fatal(err)
	}
	if res2.Stats.Nodes != full.Stats.Nodes || res2.Moves[0] != full.Moves[0] {
		t.Fatalf("moves of another position: %d nodes, first move %+v; fresh %d, %+v", res2.Stats.Nodes, res2.Moves[0], full.Stats.Nodes, full.Moves[0])
	}
	t.Logf("Kalah(4,4) %s: every move %d nodes, the losing moves given %d", r.Rule, full.Stats.Nodes, res.Stats.Nodes)
}

// TestGivenBounds: the MTD(f) of a move given with proven bounds (not
// solved) starts from them: every move's value is still the reference's,
// with bounds of either parity, and costs fewer nodes when the bounds
// are narrow.
func TestGivenBounds(t *testing.T) {
	ctx := context.Background()
	withBounds := func(r engine.Variant, p engine.Position, threads int, value func(i int) int, w [2]int) *Result {
		var given []MoveValue
		for _, i := range p.Board.MoveList() {
			v := value(i)
			given = append(given, MoveValue{Pit: i + 1, Lower: v + w[0], Upper: v + w[1]})
		}
		s := newTestSolver(t, r, threads)
		defer s.Close()
		res, err := s.SolveEveryMoveFrom(ctx, p, &Result{Position: p, Moves: given})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	for _, c := range engine.AllRules {
		for _, cell := range [][2]int{{3, 3}, {4, 2}, {2, 4}} {
			r := engine.Variant{Pits: cell[0], Rule: c}
			p, _ := r.StartPosition(cell[1])
			br := newBrute(r)
			value := func(i int) int { return br.move(p.Board, i) }
			for _, threads := range []int{1, 2} {
				for _, w := range [][2]int{{-4, 2}, {-1, 3}, {0, 2}, {-2, 0}, {-100, 100}} {
					res := withBounds(r, p, threads, value, w)
					for _, mv := range res.Moves {
						if want := value(mv.Pit - 1); mv.Value != want || !mv.Solved {
							t.Fatalf("%v threads=%d bounds %v: move %s = %d (solved %v), want %d", r, threads, w, mv.Move, mv.Value, mv.Solved, want)
						}
					}
				}
			}
		}
	}
	// Kalah(4,4), one thread: fewer nodes with every move's value within
	// two seeds.
	r := engine.Variant{Pits: 4, Rule: engine.NoEmptyCapture}
	p, full := solvedStart(t, r, 4)
	exact := map[int]int{}
	for _, mv := range full.Moves {
		exact[mv.Pit-1] = mv.Value
	}
	res := withBounds(r, p, 1, func(i int) int { return exact[i] }, [2]int{0, 2})
	for k, mv := range res.Moves {
		if mv.Value != full.Moves[k].Value {
			t.Fatalf("move %s = %d, without bounds %d", mv.Move, mv.Value, full.Moves[k].Value)
		}
	}
	if res.Stats.Nodes >= full.Stats.Nodes {
		t.Errorf("bounds [v, v+2] given: %d nodes; none: %d", res.Stats.Nodes, full.Stats.Nodes)
	}
	t.Logf("Kalah(4,4) %s: every move %d nodes, with bounds [v, v+2] %d", r.Rule, full.Stats.Nodes, res.Stats.Nodes)
}

// TestBestMoveWithin: SolveBestMoveWithin starts its MTD(f) from the
// bounds given: the value is still the reference's, with bounds of either
// parity, and costs fewer nodes when they decide a test (an upper bound
// proven, the failing test its MTD(f) would run).
func TestBestMoveWithin(t *testing.T) {
	ctx := context.Background()
	for _, c := range engine.AllRules {
		for _, cell := range [][2]int{{3, 3}, {4, 2}, {2, 4}} {
			r := engine.Variant{Pits: cell[0], Rule: c}
			p, _ := r.StartPosition(cell[1])
			v := newBrute(r).value(p.Board)
			for _, threads := range []int{1, 2} {
				for _, w := range [][2]int{{-4, 2}, {-1, 3}, {0, 2}, {-2, 0}, {0, 0}, {-100, 100}} {
					s := newTestSolver(t, r, threads)
					res, err := s.SolveBestMoveWithin(ctx, p, v+w[0], v+w[1])
					s.Close()
					if err != nil || res.Value != v || !res.Solved || len(res.Best) != 1 {
						t.Fatalf("%v threads=%d bounds %v: %d (solved %v, best %v), %v; want %d", r, threads, w, res.Value, res.Solved, res.Best, err, v)
					}
				}
			}
		}
	}
	r := engine.Variant{Pits: 4, Rule: engine.NoEmptyCapture}
	p, full := solvedStart(t, r, 4)
	var nodes [2]int64
	for k, w := range [][2]int{{-100, 100}, {-100, 0}} {
		s := newTestSolver(t, r, 1)
		res, err := s.SolveBestMoveWithin(ctx, p, full.Value+w[0], full.Value+w[1])
		s.Close()
		if err != nil || res.Value != full.Value {
			t.Fatalf("bounds %v: %d, %v; want %d", w, res.Value, err, full.Value)
		}
		nodes[k] = res.Stats.Nodes
	}
	if nodes[1] >= nodes[0] {
		t.Errorf("Kalah(4,4) %s: the value known at most v took %d nodes, within the seeds %d", r.Rule, nodes[1], nodes[0])
	}
	t.Logf("Kalah(4,4) %s: the value %d nodes, known at most v %d", r.Rule, nodes[0], nodes[1])
}
