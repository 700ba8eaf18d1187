package results

import (
	"slices"
	"testing"

	"github.com/kalah-solver/kalah/engine"
	shared "github.com/kalah-solver/kalah/internal/reference"
)

// reference is an independent check of the solver's records: a plain
// game-tree search over engine.Variant.Play that answers yes/no questions,
// "does the mover gain at least t?", trying every move until one says yes,
// with a memo of the exact answers; no window arithmetic, no bounds in a
// table, no database, no move ordering. The value is found by bisection
// over t. Gains are counted relative to the store difference (the final
// store difference minus the current one), which no move can depend on, so
// the memo is keyed by the pits and t alone. It asks engine's sowing; the
// shared reference (internal/reference), which sows seed by seed but
// values by full minimax and so fits only up to about twenty seeds,
// checks the start values of the smallest cells in TestVariantsShared.
type reference struct {
	rules engine.Variant
	memo  map[refKey]bool
}

type refKey struct {
	pits engine.Key
	t    int16
}

func newReference(r engine.Variant) *reference {
	return &reference{rules: r, memo: map[refKey]bool{}}
}

// atLeast reports whether the mover of b gains at least t under perfect
// play: final store difference minus b's, in -s..s for s seeds in the pits.
func (x *reference) atLeast(b engine.Board, t int) bool {
	s := b.Seeds()
	switch {
	case b.Over():
		return t <= 0
	case t > s:
		return false
	case t <= -s:
		return true
	}
	k := refKey{b.Key(), int16(t)}
	if v, ok := x.memo[k]; ok {
		return v
	}
	yes := false
	for _, i := range x.order(b) {
		c, res := x.rules.Play(b, i)
		switch {
		case res.Over(): // c is still seen from the mover
			yes = c.StoreDiff()-b.StoreDiff() >= t
		case res.Extra(): // the mover again: it needs t minus what it banked
			yes = x.atLeast(c, t-(c.StoreDiff()-b.StoreDiff()))
		default: // c is seen from the opponent; the mover banked d
			d := -c.StoreDiff() - b.StoreDiff()
			yes = !x.atLeast(c, d-t+1) // the opponent cannot gain more than d-t
		}
		if yes {
			break
		}
	}
	x.memo[k] = yes
	return yes
}

// order lists b's moves, those that keep the turn first, then the others by
// the seeds they bank, most first: the order only changes how soon a "yes"
// is found, never the answer.
func (x *reference) order(b engine.Board) []int {
	moves := b.MoveList()
	key := func(i int) int {
		c, res := x.rules.Sow(b, i)
		k := int(c.OwnStore) - int(b.OwnStore)
		if res.Extra() {
			k += 1000
		}
		return k
	}
	slices.SortStableFunc(moves, func(i, j int) int { return key(j) - key(i) })
	return moves
}

// is reports whether the mover's final store difference from b under
// perfect play is exactly v: two questions, not a search for the value.
func (x *reference) is(b engine.Board, v int) bool {
	t := v - b.StoreDiff()
	return x.atLeast(b, t) && !x.atLeast(b, t+1)
}

// value is the mover's final store difference under perfect play.
func (x *reference) value(b engine.Board) int {
	lo, hi := -b.Seeds(), b.Seeds()+1 // atLeast(lo) holds, atLeast(hi) does not
	for hi-lo > 1 {
		if mid := (lo + hi) / 2; x.atLeast(b, mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return b.StoreDiff() + lo
}

// isSouth reports whether South's final store minus North's from p under
// perfect play is exactly v.
func (x *reference) isSouth(p engine.Position, v int) bool {
	if p.ToMove == engine.North {
		v = -v
	}
	return x.is(p.Board, v)
}

// The committed records of the smallest cells beyond six pits, and of
// the cells of one to three pits with seven to twelve seeds a pit, agree
// with the reference, under both rules: the value, and every opening
// chain's value, each checked by two questions to the reference (at least
// the value, not more). The deeper cases are behind -short: Kalah(8,1)
// no-empty-capture (1.6 M answers), Kalah(7,2), the openings of
// Kalah(7,2) empty-capture, Kalah(3,9..12) (up to 6.4 M answers), and the
// values alone of Kalah(4,7) and (4,8) (3 GB each: 27 M and 33 M answers
// under no-empty-capture); the
// openings of Kalah(7,2) no-empty-capture, the losing chains proven
// exhaustively, take 75 M answers and minutes, so only its value is
// checked.
func TestVariantsMatchReference(t *testing.T) {
	type cell struct {
		rule        string
		pits, seeds int
		openings    bool
	}
	cells := []cell{{"empty-capture", 7, 1, true}, {"no-empty-capture", 7, 1, true}, {"empty-capture", 8, 1, true}}
	if !testing.Short() {
		cells = append(cells, cell{"no-empty-capture", 8, 1, true}, cell{"empty-capture", 7, 2, true}, cell{"no-empty-capture", 7, 2, false})
		for _, rule := range Rules {
			cells = append(cells, cell{rule, 4, 7, false}, cell{rule, 4, 8, false})
		}
	}
	for _, rule := range Rules {
		for m := 1; m <= 3; m++ {
			for n := 7; n <= 12; n++ {
				if m < 3 || n <= 8 || !testing.Short() {
					cells = append(cells, cell{rule, m, n, true})
				}
			}
		}
	}
	s := Archive{Dir: DefaultDir[len("results/"):]}
	for _, c := range cells {
		rec, err := s.Get(c.rule, c.pits, c.seeds)
		if err != nil {
			t.Fatal(err)
		}
		if rec == nil {
			t.Errorf("Kalah(%d,%d) %s: no record", c.pits, c.seeds, c.rule)
			continue
		}
		rules, err := rec.Rules()
		if err != nil {
			t.Fatal(err)
		}
		start, err := rules.StartPosition(c.seeds)
		if err != nil {
			t.Fatal(err)
		}
		x := newReference(rules)
		if !x.isSouth(start, rec.Value) {
			t.Errorf("%s: value %s, the reference says %s", rec.Name(), Signed(rec.Value), Signed(x.southValue(start)))
		}
		for _, o := range rec.Openings {
			if !c.openings {
				break
			}
			chain, err := ChainPits(o.Chain, c.pits)
			if err != nil {
				t.Fatal(err)
			}
			p := start
			for _, i := range chain {
				p, _ = rules.PlayPosition(p, i)
			}
			if !x.isSouth(p, o.Value) {
				t.Errorf("%s: opening %s is %s, the reference says %s", rec.Name(), o.Chain, Signed(o.Value), Signed(x.southValue(p)))
			}
		}
		t.Logf("%s: %s confirmed (openings: %v), %d answers memoized", rec.Name(), Signed(rec.Value), c.openings, len(x.memo))
	}
}

// southValue is South's final store minus North's from p under perfect
// play (for the message of a failed check).
func (x *reference) southValue(p engine.Position) int {
	v := x.value(p.Board)
	if p.ToMove == engine.North {
		v = -v
	}
	return v
}

// The start values of Kalah(7,1) and (8,1) empty-capture agree with the
// shared reference, which shares no code with the engine (slow: full
// minimax, 0.9 M, 5.9 M and 16 M positions, two minutes on the shared
// machine; only outside -short; (8,1) no-empty-capture would need more).
func TestVariantsShared(t *testing.T) {
	if testing.Short() {
		t.Skip("full minimax over up to 1.6e7 positions, minutes")
	}
	for _, c := range []struct {
		rule        string
		pits, seeds int
	}{{"empty-capture", 7, 1}, {"no-empty-capture", 7, 1}, {"empty-capture", 8, 1}} {
		rec, err := Archive{Dir: DefaultDir[len("results/"):]}.Get(c.rule, c.pits, c.seeds)
		if err != nil || rec == nil {
			t.Fatalf("Kalah(%d,%d) %s: no record (%v)", c.pits, c.seeds, c.rule, err)
		}
		holes := make([]int, 2*c.pits+2)
		for i := range c.pits {
			holes[i], holes[c.pits+1+i] = c.seeds, c.seeds
		}
		s := shared.NewSolver(shared.Rules{Pits: c.pits, EmptyCapture: c.rule == "empty-capture"}, 1<<25)
		v := s.Value(s.Game(holes, false))
		switch {
		case s.Overflow:
			t.Errorf("%s: the reference gave up after %d positions", rec.Name(), s.Positions())
		case v != rec.Value:
			t.Errorf("%s: value %s, the shared reference says %s", rec.Name(), Signed(rec.Value), Signed(v))
		}
		t.Logf("%s: %s, %d positions", rec.Name(), Signed(v), s.Positions())
	}
}
