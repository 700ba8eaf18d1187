package players

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// The brute-force references: plain recursion over whole boards, no table,
// no window, no ordering. They return final stores.

// bruteMaxN is the max^n outcome of b: the mover takes the move with the
// largest own final store, the lowest pit among equal ones.
func bruteMaxN(r Variant, b Board) [MaxPlayers]int {
	var best [MaxPlayers]int
	if b.Over() {
		for p := range best {
			best[p] = int(b.Stores[p])
		}
		return best
	}
	mover := b.ToMove
	first := true
	for _, i := range b.MoveList() {
		c, _ := r.Play(b, i)
		v := bruteMaxN(r, c)
		if first || v[mover] > best[mover] {
			best, first = v, false
		}
	}
	return best
}

// bruteParanoid is root's final store when root maximises it and every
// other player minimises it.
func bruteParanoid(r Variant, b Board, root uint8) int {
	if b.Over() {
		return int(b.Stores[root])
	}
	best := -1
	if b.ToMove != root {
		best = 1 << 30
	}
	for _, i := range b.MoveList() {
		c, _ := r.Play(b, i)
		v := bruteParanoid(r, c, root)
		if b.ToMove == root {
			best = max(best, v)
		} else {
			best = min(best, v)
		}
	}
	return best
}

// smallCases are start positions and random positions small enough for
// the brute force.
func smallCases(t *testing.T) []struct {
	r Variant
	p Position
} {
	var out []struct {
		r Variant
		p Position
	}
	add := func(r Variant, p Position) {
		out = append(out, struct {
			r Variant
			p Position
		}{r, p})
	}
	starts := [][3]int{{3, 1, 1}, {3, 1, 2}, {3, 2, 1}, {3, 2, 2}, {3, 3, 1}, {4, 1, 1}, {4, 1, 2}, {4, 2, 1}, {2, 3, 2}}
	if !testing.Short() {
		starts = append(starts, [][3]int{{3, 3, 2}, {4, 2, 2}, {4, 3, 1}, {3, 4, 1}}...)
	}
	for _, c := range starts {
		for _, tg := range Targets {
			r := Variant{Players: c[0], Pits: c[1], Target: tg}
			p, err := r.StartPosition(c[2])
			if err != nil {
				t.Fatal(err)
			}
			add(r, p)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 60 {
		r := Variant{Players: 3 + rng.IntN(2), Pits: 2 + rng.IntN(3), Target: Targets[rng.IntN(3)]}
		add(r, randomPosition(rng, r, r.Players+rng.IntN(8)))
	}
	return out
}

func TestSearchAgainstBruteForce(t *testing.T) {
	ctx := context.Background()
	for _, c := range smallCases(t) {
		for _, concept := range Concepts {
			s, err := NewSolver(c.r, concept, c.p.Board.Seeds(), Options{TableSize: 1 << 20})
			if err != nil {
				t.Fatal(err)
			}
			sol, err := s.Solve(ctx, c.p)
			if err != nil {
				t.Fatal(err)
			}
			b := c.p.Board
			mover := b.ToMove
			for _, mv := range sol.Moves {
				cb, _ := c.r.Play(b, mv.Pit)
				var want int
				if concept == MaxN {
					v := bruteMaxN(c.r, cb)
					if !slices.Equal(mv.Stores, v[:c.r.Players]) {
						t.Errorf("%v %s %s pit %c: stores %v, brute force %v", c.r, c.p, concept, 'a'+mv.Pit, mv.Stores, v[:c.r.Players])
					}
					want = v[mover]
				} else {
					want = bruteParanoid(c.r, cb, mover)
				}
				if mv.Value != want {
					t.Errorf("%v %s %s pit %c: value %d, brute force %d", c.r, c.p, concept, 'a'+mv.Pit, mv.Value, want)
				}
			}
			// The line replays to the stores claimed.
			q := c.p
			for _, pl := range sol.PV {
				if pl.Seat != q.ToMove() {
					t.Fatalf("%v %s: PV %v has %s move at %s's turn", c.r, c.p, sol.PV, SeatName(pl.Seat), SeatName(q.ToMove()))
				}
				q, _ = c.r.PlayPosition(q, pl.Pit)
			}
			if !q.Board.Over() || !slices.Equal(q.Stores(), sol.Stores) || sol.Stores[mover] != sol.Value {
				t.Errorf("%v %s %s: PV %v ends at %s, solution stores %v value %d", c.r, c.p, concept, sol.PV, q, sol.Stores, sol.Value)
			}
			// Every seat's guarantee.
			if concept == Paranoid {
				for seat := 0; seat < c.r.Players; seat++ {
					g, err := s.Guarantee(ctx, c.p, seat)
					if err != nil {
						t.Fatal(err)
					}
					if want := bruteParanoid(c.r, b, uint8(seat)); g != want {
						t.Errorf("%v %s: %s guarantees %d, brute force %d", c.r, c.p, SeatName(seat), g, want)
					}
				}
			}
		}
	}
}

// TestTwoPlayerValues: with two players paranoid is the two-player game;
// 2*store - total is the value in results/data/no-empty-capture.jsonl.
func TestTwoPlayerValues(t *testing.T) {
	want := map[[2]int]int{{3, 3}: 2, {4, 1}: 2, {4, 2}: 6, {3, 4}: 2, {4, 3}: 6, {2, 6}: 8}
	for c, v := range want {
		if testing.Short() && c == [2]int{4, 3} {
			continue
		}
		r := Variant{Players: 2, Pits: c[0]}
		p, _ := r.StartPosition(c[1])
		s, err := NewSolver(r, Paranoid, p.Board.Seeds(), Options{TableSize: 1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		sol, err := s.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if got := 2*sol.Value - p.Board.Total(); got != v {
			t.Errorf("Kalah(%d,%d): %d, want %d", c[0], c[1], got, v)
		}
	}
}

func TestSolveCancelled(t *testing.T) {
	r := Variant{Players: 3, Pits: 4}
	p, _ := r.StartPosition(3)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range Concepts {
		s, _ := NewSolver(r, c, p.Board.Seeds(), Options{TableSize: 1 << 20})
		if _, err := s.Solve(ctx, p); err == nil {
			t.Errorf("%s: solved with a cancelled context", c)
		}
	}
}

// TestSmallTable: a table far too small for the search (constant
// replacement) changes nothing but the work.
func TestSmallTable(t *testing.T) {
	ctx := context.Background()
	for _, c := range [][3]int{{3, 3, 2}, {4, 2, 2}, {3, 4, 1}} {
		r := Variant{Players: c[0], Pits: c[1], Target: TargetNext}
		p, _ := r.StartPosition(c[2])
		big, _ := NewSolver(r, Paranoid, p.Board.Seeds(), Options{TableSize: 1 << 22})
		small, _ := NewSolver(r, Paranoid, p.Board.Seeds(), Options{TableSize: 1 << 10})
		a, err := big.Solve(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		b, err := small.Solve(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(a.Moves, b.Moves, func(x, y MoveValue) bool { return x.Value == y.Value }) {
			t.Errorf("%v n=%d: %v with a big table, %v with a small one", r, c[2], a.Moves, b.Moves)
		}
	}
}

func TestMaxPositions(t *testing.T) {
	r := Variant{Players: 3, Pits: 3, Target: TargetNext}
	p, _ := r.StartPosition(2)
	s, _ := NewSolver(r, MaxN, p.Board.Seeds(), Options{MaxPositions: 1000})
	if _, err := s.Solve(context.Background(), p); !errors.Is(err, ErrTooBig) {
		t.Errorf("error %v, want ErrTooBig", err)
	}
}

// TestMaxnRecord: the table, grown from its smallest size, reproduces the
// record of 3-player Kalah(3,2) in results/data/players.jsonl.
func TestMaxnRecord(t *testing.T) {
	r := Variant{Players: 3, Pits: 3, Target: TargetNext}
	p, _ := r.StartPosition(2)
	s, _ := NewSolver(r, MaxN, p.Board.Seeds(), Options{})
	sol, err := s.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if _, entries := s.Work(); !slices.Equal(sol.Stores, []int{9, 5, 4}) || entries != 86130 {
		t.Errorf("stores %v, %d positions; the record has 9/5/4, 86130", sol.Stores, entries)
	}
	if s.mx.memo.n <= 1<<14 {
		t.Errorf("the table never grew: %d slots", s.mx.memo.n)
	}
}
