package solver

import (
	"context"
	"fmt"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/tt"
)

// MoveValue is the exact value of one legal move at the root.
type MoveValue struct {
	Pit    int    `json:"pit"`   // 1-based, from the mover's left
	Move   string `json:"move"`  // letter: a.. for South, A.. for North
	Value  int    `json:"value"` // final store difference for the root's mover after this sowing and perfect play
	Extra  bool   `json:"extra_turn"`
	Solved bool   `json:"solved"` // false when the solve was interrupted: Lower/Upper hold
	Lower  int    `json:"lower"`
	Upper  int    `json:"upper"`
}

// Result is the answer for one position.
type Result struct {
	Position engine.Position
	Variant  engine.Variant
	Value    int // final store difference for the side to move, stores counted
	Lower    int // proven bounds (equal to Value when Solved)
	Upper    int
	Solved   bool
	Moves    []MoveValue
	Best     []int        // 0-based pits of the best moves
	PV       []engine.Ply // a principal variation to the end of the game
	Stats    Stats
	Elapsed  time.Duration
}

// solveDeepenSeeds is the fewest seeds on the board for which SolveEveryMove
// deepens before the moves' searches, and solveDeepenGap the fewest seeds
// past the endgame database's depth: with a deep database the search
// below the board is shallow, and the deepening costs more than it saves
// (record design-deepen-every-move, docs/benchmarks.md).
const (
	solveDeepenSeeds = 40
	solveDeepenGap   = 22
)

// moveGuessDepth is the depth of the depth-limited MTD(f) that guesses
// the value of each move after the first, on boards that SolveEveryMove
// deepens. A deeper guess costs nodes of its own but saves more in the
// exact tests that follow with the default database; without one, or with
// a deeper one, it is level or costs (record design-later-guess,
// docs/benchmarks.md).
const moveGuessDepth = 21

// rootRun is one solve of a root position, as SolveEveryMove and SolveBestMove run
// it: the result being filled in, the stage that progress reports show,
// and what the cost is counted from.
type rootRun struct {
	res    *Result
	stage  atomic.Pointer[Progress]
	start  time.Time
	before Stats
	stop   func() // ends the progress reports
}

// begin checks p and starts a root solve. When the game is already over
// it returns the exact result and a nil run; otherwise the result's bounds
// are those of the seeds on the board, and progress reports run, showing
// stage, until run.stop is called.
func (s *Solver) begin(ctx context.Context, p engine.Position, stage string) (*Result, *rootRun, error) {
	if p.Pits != s.rules.Pits {
		return nil, nil, fmt.Errorf("position has %d pits, solver is for %d", p.Pits, s.rules.Pits)
	}
	base := p.Board.StoreDiff()
	res := &Result{Position: p, Variant: s.rules, Value: base, Lower: base, Upper: base, Solved: true}
	if p.Board.Over() {
		return res, nil, nil
	}
	seeds := p.Board.Seeds()
	res.Lower, res.Upper = base-seeds, base+seeds
	run := &rootRun{res: res, start: time.Now(), before: s.statsNow()}
	run.stage.Store(&Progress{Stage: stage, Lower: res.Lower, Upper: res.Upper})
	run.stop = s.run(ctx, &run.stage, run.start)
	return res, run, nil
}

// account stamps the result with what the solve has cost so far.
func (r *rootRun) account(s *Solver) {
	r.res.Stats = s.statsNow()
	r.res.Stats.sub(r.before)
	r.res.Elapsed = time.Since(r.start)
}

// SolveEveryMove computes the exact value of p, the exact value of every legal move
// and a principal variation. After a depth-limited deepening on p (to
// Options.Deepen, on boards of at least solveDeepenSeeds seeds and
// solveDeepenGap seeds more than the endgame database holds), each
// move's value is pinned down by MTD(f) on the position it leads to, the
// deepening's value serving as the first move's guess and, for each later
// move, a depth-limited MTD(f) on its own position (to moveGuessDepth,
// starting from the best value so far) on a deepened board, the best value
// so far on others. When ctx ends first, SolveEveryMove returns the
// bounds proven so far with an error wrapping ErrInterrupted.
func (s *Solver) SolveEveryMove(ctx context.Context, p engine.Position) (*Result, error) {
	return s.SolveEveryMoveFrom(ctx, p, nil)
}

// Deepens reports whether SolveEveryMove deepens on b before the moves'
// searches: a board of at least solveDeepenSeeds seeds and solveDeepenGap
// seeds more than the endgame database holds, whose every move's value
// takes long enough that a depth-limited search first pays.
func (s *Solver) Deepens(b engine.Board) bool {
	seeds := b.Seeds()
	return seeds >= solveDeepenSeeds && seeds-s.EGDBSeeds() >= solveDeepenGap
}

// SolveEveryMoveFrom is SolveEveryMove for a position whose value, or
// some of whose moves' values, are already proven: best is p's result
// from SolveBestMove on this solver (its table still holding that proof),
// or what an earlier, interrupted solve of p proved. When best is solved
// with a best move, its value replaces the deepening's guess, and its best
// move is searched first, so the first move's MTD(f) is two tests the
// table mostly answers. The moves of best.Moves marked Solved are taken as
// they are, not searched again, and the MTD(f) of each other move of
// best.Moves starts from its Lower and Upper: the caller vouches for
// them. A nil best, or one of another position, is SolveEveryMove.
func (s *Solver) SolveEveryMoveFrom(ctx context.Context, p engine.Position, best *Result) (*Result, error) {
	res, run, err := s.begin(ctx, p, "start")
	if run == nil {
		return res, err
	}
	defer run.stop()
	b := p.Board
	base := b.StoreDiff()
	stage, start := &run.stage, run.start
	given, bounds := givenMoves(s.rules, p, best)
	// On a big board, depth-limited deepening on the position itself
	// first: it fills the table with good moves for every move's search,
	// and its heuristic value is the first move's guess. On smaller boards
	// it costs more than it saves (record design-deepen-every-move).
	guess, bestLo := 0, -inf
	deepened := s.Deepens(b)
	known := best != nil && best.Solved && len(best.Best) > 0 && best.Position == p
	for _, mv := range given {
		res.Moves = append(res.Moves, mv)
		bestLo = max(bestLo, mv.Value-base)
	}
	switch {
	case known:
		guess = best.Value - base
	case deepened:
		stage.Store(&Progress{Stage: "deepening", Lower: res.Lower, Upper: res.Upper})
		guess = s.deepen(ctx, b, 0, s.opts.Deepen)
	}
	if !known && len(given) > 0 {
		// The value is at least the best given move's.
		guess = max(guess, bestLo)
	}
	order := RootOrder(s.rules, b)
	if known {
		// The best move first, the others in root order.
		if k := slices.Index(order, best.Best[0]); k > 0 {
			order = slices.Insert(slices.Delete(order, k, k+1), 0, best.Best[0])
		}
	}
	// The given moves are not searched; the first move searched after
	// them counts as a later one (its guess is searched for, as a later
	// move mostly loses).
	order = slices.DeleteFunc(order, func(i int) bool {
		return slices.ContainsFunc(given, func(mv MoveValue) bool { return mv.Pit == i+1 })
	})
	skip := len(given)
	if len(s.threads) > 1 && len(order) > 1 {
		res.Moves = append(res.Moves, s.everyMoveShared(ctx, p, order, skip, guess, bestLo, bounds, deepened, stage, start)...)
	} else {
		for k, i := range order {
			mv, lo, ok := s.solveMove(ctx, s.test, p, i, skip+k, guess, bounds, deepened, stage, start)
			res.Moves = append(res.Moves, mv)
			if lo > bestLo {
				bestLo, guess = lo, lo
			}
			if !ok {
				break
			}
		}
	}
	run.account(s)
	sortMoves(res.Moves)
	if len(res.Moves) < b.NumMoves() || !allSolved(res.Moves) {
		res.Solved = false
		res.Lower, res.Upper = s.interruptedBounds(b, res.Moves)
		res.Value = res.Lower
		return res, fmt.Errorf("%w: value in [%+d, %+d]", ErrInterrupted, res.Lower, res.Upper)
	}
	res.Value = -inf
	for _, m := range res.Moves {
		res.Value = max(res.Value, m.Value)
	}
	res.Lower, res.Upper = res.Value, res.Value
	for _, m := range res.Moves {
		if m.Value == res.Value {
			res.Best = append(res.Best, m.Pit-1)
		}
	}
	res.PV, err = s.PV(ctx, p, res.Value-base)
	run.account(s)
	return res, err
}

// solveMove pins down the value of pit i of p, the k-th move in root
// order, by MTD(f) with tests run by test: guess is the value (relative to
// p's stores) it starts from, refined on a deepened board for every move
// after the first by a depth-limited MTD(f) on the move's own position. lo
// is the move's proven lower bound relative to p's stores; ok is false
// when the solve was interrupted (then mv holds the bounds proven). known
// holds bounds already proven on the move's value (MoveValue's, absolute),
// if any, which its MTD(f) starts from.
func (s *Solver) solveMove(ctx context.Context, test testFunc, p engine.Position, i, k, guess int, known map[int][2]int, deepened bool, stage *atomic.Pointer[Progress], start time.Time) (mv MoveValue, lo int, ok bool) {
	b := p.Board
	base := b.StoreDiff()
	c, r := s.rules.Sow(b, i)
	gain := int(c.OwnStore - b.OwnStore)
	mv = MoveValue{Pit: i + 1, Move: engine.MoveLetter(p.ToMove, i), Extra: r.Extra()}
	var hi int
	ok = true
	if r.Over() {
		lo = gain - int(c.OppStore-b.OppStore)
		hi = lo
	} else {
		if !r.Extra() {
			c = c.Flip()
		}
		cguess, _ := engine.ChildWindow(r, gain, guess, guess)
		report := s.reporter(stage, start, "move "+mv.Move, r, base+gain, c.Seeds())
		if deepened && k > 0 {
			// A later move mostly loses, by an amount the best
			// value so far says nothing about: a depth-limited
			// MTD(f) on its own child, from the table the earlier
			// searches filled, guesses it (record design-later-guess).
			if g, _, done := s.mtdfWith(ctx, test, c, cguess, moveGuessDepth, nil); done {
				cguess = g
			}
		}
		klo, khi := -inf, inf
		if kb, has := known[i+1]; has {
			klo, khi = engine.ChildWindow(r, gain, kb[0]-base, kb[1]-base)
		}
		clo, chi, done := s.mtdfWithin(ctx, test, c, cguess, tt.DepthSolved, klo, khi, report)
		lo, hi = engine.MoveBounds(r, gain, clo, chi)
		ok = done
	}
	mv.Lower, mv.Upper, mv.Solved = base+lo, base+hi, ok && lo == hi
	mv.Value = mv.Lower
	return mv, lo, ok
}

// everyMoveShared is SolveEveryMove's loop over the root moves with
// several threads: the moves are searched at the same time, as many as
// there are threads, taken in handOutOrder, each MTD(f) test owning one
// thread of a Team, and a thread without a test of its own helping a
// running one (lazy SMP). Lazy SMP on one test scales poorly past one
// thread (record design-split-test); separate moves share only the table. When a
// move ends, its thread joins the test still running at once, not only
// when that move's next test begins (a test of the last move can run for
// seconds). A move starts from the best value proven so far (the
// deepening's guess before any; bestLo is the best proven before the
// loop, relative to p's stores), and skip moves, given, come before
// order's first.
func (s *Solver) everyMoveShared(ctx context.Context, p engine.Position, order []int, skip, guess, bestLo int, bounds map[int][2]int, deepened bool, stage *atomic.Pointer[Progress], start time.Time) []MoveValue {
	order = handOutOrder(order, deepened)
	tm := newTeam(s)
	test := func(b engine.Board, gamma, depth int) (int, bool) {
		v, _, err := tm.test(ctx, b, gamma, depth)
		return v, err == nil
	}
	var mu sync.Mutex
	var moves []MoveValue
	next := 0
	var wg sync.WaitGroup
	// take hands out the next move and the guess it starts from.
	take := func() (k, g int, more bool) {
		mu.Lock()
		defer mu.Unlock()
		if next == len(order) || ctx.Err() != nil {
			return 0, 0, false
		}
		k, next = next, next+1
		return k, guess, true
	}
	for range min(len(s.threads), len(order)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k, g, more := take()
				if !more {
					return
				}
				mv, lo, _ := s.solveMove(ctx, test, p, order[k], skip+k, g, bounds, deepened, stage, start)
				mu.Lock()
				moves = append(moves, mv)
				if lo > bestLo && mv.Solved {
					bestLo, guess = lo, lo
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return moves
}

// handOutOrder is the order in which everyMoveShared hands out the moves
// of order (root order, the first move searched first): the first move
// first, its value being the guess of the others; then, on a deepened
// board, the others from the end of root order. There each later move
// guesses its own value by a depth-limited search, so the order among
// them only decides when each starts, and the moves root order ranks last
// are the likeliest to lose the most, whose exact values cost the most:
// started first, they no longer leave one long move running alone at the
// end, with the other threads only helping it (record
// design-hand-out-order, docs/benchmarks.md). On a
// smaller board a later move starts from the best value proven so far,
// and root order stays. order is not changed.
func handOutOrder(order []int, deepened bool) []int {
	out := slices.Clone(order)
	if deepened && len(out) > 2 {
		slices.Reverse(out[1:])
	}
	return out
}

// givenMoves is the moves of best that SolveEveryMoveFrom takes as they
// are: those marked solved, of p's legal moves, once each, when best is a
// result for p; and the bounds of its moves not solved, by pit (1-based).
func givenMoves(r engine.Variant, p engine.Position, best *Result) ([]MoveValue, map[int][2]int) {
	if best == nil || best.Position != p {
		return nil, nil
	}
	var out []MoveValue
	bounds := map[int][2]int{}
	for _, mv := range best.Moves {
		i := mv.Pit - 1
		if i < 0 || i >= r.Pits || p.Board.Pit(i) == 0 ||
			slices.ContainsFunc(out, func(o MoveValue) bool { return o.Pit == mv.Pit }) {
			continue
		}
		if !mv.Solved {
			if mv.Lower <= mv.Upper {
				bounds[mv.Pit] = [2]int{mv.Lower, mv.Upper}
			}
			continue
		}
		_, res := r.Sow(p.Board, i)
		mv.Move, mv.Extra = engine.MoveLetter(p.ToMove, i), res.Extra()
		mv.Lower, mv.Upper = mv.Value, mv.Value
		out = append(out, mv)
	}
	for _, mv := range out {
		delete(bounds, mv.Pit)
	}
	return out, bounds
}

// SolveBestMove computes the exact value of p, one best move and a principal
// variation, but not the value of every move: MTD(f) on p itself after a
// depth-limited deepening, then the line. It costs a fraction of SolveEveryMove
// (proving a losing move's exact value is most of SolveEveryMove's work), and
// Result.Moves is empty. When ctx ends first it returns the bounds proven
// so far with an error wrapping ErrInterrupted.
func (s *Solver) SolveBestMove(ctx context.Context, p engine.Position) (*Result, error) {
	return s.SolveBestMoveWithin(ctx, p, -inf, inf)
}

// SolveBestMoveWithin is SolveBestMove for a position whose value (absolute,
// for its mover) an earlier solve proved to lie in [lo, hi]: its MTD(f)
// does not run again the tests those bounds decide. The caller vouches
// for them.
func (s *Solver) SolveBestMoveWithin(ctx context.Context, p engine.Position, lo, hi int) (*Result, error) {
	res, run, err := s.begin(ctx, p, "deepening")
	if run == nil {
		return res, err
	}
	defer run.stop()
	b := p.Board
	base := b.StoreDiff()
	guess := s.deepen(ctx, b, 0, s.opts.Deepen)
	// mtdf's bounds start from the seeds' (or lo and hi, relative to the
	// stores, when narrower), so they are proven either way.
	lo, hi, ok := s.mtdfWithin(ctx, s.test, b, guess, tt.DepthSolved, lo-base, hi-base, s.reporter(&run.stage, run.start, "value", engine.ResExtra, base, b.Seeds()))
	res.Lower, res.Upper, res.Value = base+lo, base+hi, base+lo
	if !ok {
		res.Solved = false
		run.account(s)
		return res, fmt.Errorf("%w: value in [%+d, %+d]", ErrInterrupted, res.Lower, res.Upper)
	}
	res.PV, err = s.PV(ctx, p, lo)
	if len(res.PV) > 0 {
		res.Best = []int{res.PV[0].Pit}
	}
	run.account(s)
	return res, err
}

// interruptedBounds bounds the value of b (absolute, for its mover) after an
// interrupted solve: at least the best lower bound proven for any move, at
// most the largest upper bound over every legal move, where a move not
// reached is bounded by the seeds it leaves.
func (s *Solver) interruptedBounds(b engine.Board, done []MoveValue) (lo, hi int) {
	base := b.StoreDiff()
	lo, hi = -inf, -inf
	for mv := b.Moves(); mv != 0; mv &= mv - 1 {
		i := bits.TrailingZeros8(mv)
		mlo, mhi := -inf, inf
		for _, m := range done {
			if m.Pit == i+1 {
				mlo, mhi = m.Lower, m.Upper
			}
		}
		if mlo == -inf {
			c, r := s.rules.Sow(b, i)
			gain := int(c.OwnStore - b.OwnStore)
			if r.Over() {
				mlo = base + gain - int(c.OppStore-b.OppStore)
				mhi = mlo
			} else {
				mlo, mhi = engine.MoveBounds(r, base+gain, -c.Seeds(), c.Seeds())
			}
		}
		lo, hi = max(lo, mlo), max(hi, mhi)
	}
	return lo, hi
}

// reporter returns an MTD(f) callback that publishes the stage's bounds
// and forwards them. The bounds are on the value of a position reached by
// a move with result res from the root, and offset is the root's store
// difference after that move: the sign rule (engine.MoveBounds) turns them
// into absolute values for the root's mover. For the root itself, pass
// engine.ResExtra (the same mover) and the root's store difference. Until
// the first full-depth test the stage shows the bounds of seeds, the
// seeds on the position's board.
func (s *Solver) reporter(stage *atomic.Pointer[Progress], start time.Time, name string, res engine.Result, offset, seeds int) func(lo, hi int) {
	p := &Progress{Stage: name}
	p.Lower, p.Upper = engine.MoveBounds(res, offset, -seeds, seeds)
	stage.Store(p)
	return func(lo, hi int) {
		p := &Progress{Stage: name, Tests: s.statsNow().Tests}
		p.Lower, p.Upper = engine.MoveBounds(res, offset, lo, hi)
		stage.Store(p)
		if s.opts.Progress != nil {
			q := *p
			q.Total = s.nodes.Load()
			q.Nodes = q.Total - s.nodes0
			q.Elapsed = time.Since(start)
			s.opts.Progress(q)
		}
	}
}

// PV follows optimal moves from p, whose board value (relative to its
// stores) is v, to the end of the game. At each step the first move whose
// value reaches v is played, the table's move for the board first, then
// in root order: one null-window test each, nearly all answered by the
// table.
//
// The table's move first: the search that proved v cut, or found its
// best, with that move, so it nearly always reaches v at once. In root
// order alone, every move before the first that reaches v must be
// refuted by a proof of its own, which the table seldom holds, and such
// refutations can cost a large share of a solve (record design-pv,
// docs/benchmarks.md).
func (s *Solver) PV(ctx context.Context, p engine.Position, v int) ([]engine.Ply, error) {
	return FollowPV(s.rules, p, v, func(c engine.Board, gamma int) (int, error) {
		t, ok := s.test(c, gamma, tt.DepthSolved)
		if !ok {
			return 0, ErrInterrupted
		}
		return t, nil
	}, s.tableMove)
}

// tableMove is the move the table holds for b (the best or cut-off move
// of the last search of b), if b has an entry.
func (s *Solver) tableMove(b engine.Board) (int, bool) {
	seeds := b.Seeds()
	if len(s.threads) == 0 || seeds < s.threads[0].tabMin {
		return 0, false
	}
	e, ok := s.tab.Probe(s.tab.SlotOf(b.Key(), seeds))
	if !ok {
		return 0, false
	}
	return e.Move(), true
}

// FollowPV is PV with the null-window test given: test(c, gamma) answers
// "is the value of c (relative, from its mover; c is in play) at least
// gamma?" with a fail-soft bound, as NullWindow does. A distributed
// campaign passes its own test, split over its workers. first, if not
// nil, names a move to try before the root order at a board (PV passes
// the table's); it changes only which of several optimal moves the line
// takes and how many tests that costs. An error of test ends the line
// there; so does a board where no move reaches v, which only inconsistent
// answers can make.
func FollowPV(rules engine.Variant, p engine.Position, v int, test func(c engine.Board, gamma int) (int, error), first func(b engine.Board) (int, bool)) ([]engine.Ply, error) {
	var line []engine.Ply
	for !p.Board.Over() {
		b := p.Board
		found := false
		order := RootOrder(rules, b)
		if first != nil {
			if m, ok := first(b); ok {
				order = moveToFront(order, m)
			}
		}
		for _, i := range order {
			c, r := rules.Sow(b, i)
			gain := int(c.OwnStore - b.OwnStore)
			var reach bool
			var next int
			if r.Over() {
				reach = gain-int(c.OppStore-b.OppStore) >= v
			} else {
				if !r.Extra() {
					c = c.Flip()
				}
				// The move reaches v if its value passes the null window
				// (v-1, v): one test of the child at that window's upper
				// end, seen through the sign rule. The line then continues
				// from the child with the value the move needs of it.
				_, gamma := engine.ChildWindow(r, gain, v-1, v)
				t, err := test(c, gamma)
				if err != nil {
					return line, err
				}
				reach = engine.MoveValue(r, gain, t) >= v
				next, _ = engine.ChildWindow(r, gain, v, v)
			}
			if reach {
				line = append(line, engine.Ply{Side: p.ToMove, Pit: i})
				p, _ = rules.PlayPosition(p, i)
				v = next
				found = true
				break
			}
		}
		if !found {
			return line, fmt.Errorf("solver: no move reaches value %d at %v (inconsistent test answers)", v, p)
		}
	}
	return line, nil
}

// moveToFront returns order with move m first, the others in their order;
// order itself when m is not in it.
func moveToFront(order []int, m int) []int {
	for k, i := range order {
		if i == m {
			out := append([]int{m}, order[:k]...)
			return append(out, order[k+1:]...)
		}
	}
	return order
}

// RootOrder lists the legal moves (the order the root and the principal variation try them): extra turns nearest the store first,
// then captures, then the rest from the store backwards.
func RootOrder(r engine.Variant, b engine.Board) []int {
	var extra, capt, rest []int
	for i := r.Pits - 1; i >= 0; i-- {
		if b.Pit(i) == 0 {
			continue
		}
		_, res := r.Sow(b, i)
		switch {
		case res.Extra():
			extra = append(extra, i)
		case res.Capture():
			capt = append(capt, i)
		default:
			rest = append(rest, i)
		}
	}
	return append(append(extra, capt...), rest...)
}

func sortMoves(ms []MoveValue) {
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && ms[j].Pit < ms[j-1].Pit; j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
}

func allSolved(ms []MoveValue) bool {
	for _, m := range ms {
		if !m.Solved {
			return false
		}
	}
	return true
}

func (s *Stats) sub(o Stats) {
	s.Nodes -= o.Nodes
	s.Peeks -= o.Peeks
	s.TTProbes -= o.TTProbes
	s.TTHits -= o.TTHits
	s.DBHits -= o.DBHits
	s.CutSeeds -= o.CutSeeds
	s.CutTT -= o.CutTT
	s.CutPeek -= o.CutPeek
	s.CutSearch -= o.CutSearch
	s.Tests -= o.Tests
	s.CacheHits -= o.CacheHits
}
