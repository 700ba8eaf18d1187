package engine

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kalah-solver/kalah/internal/reference"
)

// randomPosition plays a random game of Kalah(m,n) for a random number of
// plies and returns a position where the game is still on.
func randomPosition(rng *rand.Rand, r Variant, seeds int) Position {
	for {
		p, err := r.StartPosition(seeds)
		if err != nil {
			panic(err)
		}
		plies := rng.IntN(6 * r.Pits * seeds)
		for k := 0; k < plies; k++ {
			moves := p.Board.MoveList()
			next, res := r.PlayPosition(p, moves[rng.IntN(len(moves))])
			if res.Over() {
				break
			}
			p = next
		}
		if !p.Board.Over() {
			return p
		}
	}
}

// refRules is the seed-by-seed reference (internal/reference) for r.
func refRules(r Variant) reference.Rules {
	return reference.Rules{Pits: r.Pits, EmptyCapture: r.Rule == EmptyCapture}
}

// refGame is p for the reference.
func refGame(p Position) reference.Game {
	return refRules(Variant{Pits: p.Pits}).Game(p.Holes(), p.ToMove == North)
}

// checkAgainstReference plays pit i on p with the packed engine and the
// reference and reports any disagreement.
func checkAgainstReference(t *testing.T, r Variant, p Position, i int) Position {
	t.Helper()
	ref, extra, captured, over := refRules(r).Play(refGame(p), i)
	refHoles, refNext := ref.Holes[:2*r.Pits+2], South
	if ref.North {
		refNext = North
	}
	next, res := r.PlayPosition(p, i)
	got := next.Holes()
	if !slices.Equal(got, refHoles) || res.Extra() != extra || res.Capture() != captured || res.Over() != over || (!over && next.ToMove != refNext) {
		t.Fatalf("%v: %s to move at %v plays %s:\n packed %v extra=%v capture=%v over=%v next=%v\n ref    %v extra=%v capture=%v over=%v next=%v",
			r, p.ToMove, p, MoveLetter(p.ToMove, i), got, res.Extra(), res.Capture(), res.Over(), next.ToMove,
			refHoles, extra, captured, over, refNext)
	}
	if next.Board.Total() != p.Board.Total() {
		t.Fatalf("seeds not conserved: %v -> %v", p, next)
	}
	return next
}

// TestSowMatchesReference is the randomized property test: thousands of
// positions on every board size and both rules, every legal move checked.
func TestSowMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for m := 1; m <= MaxPits; m++ {
		for _, c := range AllRules {
			r := Variant{Pits: m, Rule: c}
			for k := 0; k < 400; k++ {
				seeds := 1 + rng.IntN(MaxSeeds/(2*m))
				p := randomPosition(rng, r, seeds)
				for _, i := range p.Board.MoveList() {
					checkAgainstReference(t, r, p, i)
				}
			}
		}
	}
}

// FuzzSow feeds arbitrary boards to both engines.
func FuzzSow(f *testing.F) {
	f.Add(uint8(6), false, []byte{4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0}, uint8(2))
	f.Add(uint8(6), true, []byte{0, 0, 13, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0}, uint8(2))
	f.Fuzz(func(t *testing.T, m uint8, empty bool, raw []byte, pit uint8) {
		pits := int(m%MaxPits) + 1
		h := make([]int, 2*pits+2)
		for i := range h {
			if i < len(raw) {
				h[i] = int(raw[i] % 64)
			}
		}
		p, err := PositionFromHoles(h, Side(pit>>7))
		if err != nil || p.Board.Over() {
			return
		}
		i := int(pit&0x7f) % pits
		if p.Board.Pit(i) == 0 {
			return
		}
		r := Variant{Pits: pits, Rule: NoEmptyCapture}
		if empty {
			r.Rule = EmptyCapture
		}
		checkAgainstReference(t, r, p, i)
	})
}

func TestMovesBitSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for k := 0; k < 10000; k++ {
		var b Board
		var want uint8
		for i := 0; i < 8; i++ {
			v := uint64(0)
			if rng.IntN(2) == 0 {
				v = uint64(rng.IntN(256))
			}
			b.Own |= v << (8 * i)
			if v != 0 {
				want |= 1 << i
			}
		}
		if got := b.Moves(); got != want {
			t.Fatalf("Moves(%016x) = %08b, want %08b", b.Own, got, want)
		}
	}
}

func TestSowAllocs(t *testing.T) {
	r := Variant{Pits: 6, Rule: NoEmptyCapture}
	b, _ := r.Start(4)
	allocs := testing.AllocsPerRun(1000, func() {
		for mv := b.Moves(); mv != 0; mv &= mv - 1 {
			c, _ := r.Play(b, bitIndex(mv))
			b2, _ := r.Play(c, bitIndex(c.Moves()))
			_ = b2
		}
	})
	if allocs != 0 {
		t.Fatalf("Play allocates %v times per run", allocs)
	}
}
