package players

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kalah-solver/kalah/engine"
)

// allRules lists every rule set of k = 2..4 players and m = 1..pits.
func allRules(pits int) []Variant {
	var out []Variant
	for k := 2; k <= MaxPlayers; k++ {
		for m := 1; m <= pits; m++ {
			for _, t := range Targets {
				out = append(out, Variant{Players: k, Pits: m, Target: t})
			}
		}
	}
	return out
}

// randomPosition deals at most total seeds over the pits of r, every
// player keeping at least one, with a few in the stores.
func randomPosition(rng *rand.Rand, r Variant, total int) Position {
	p := Position{Players: r.Players, Pits: r.Pits}
	for s := 0; s < r.Players; s++ {
		p.Board.Pits[s] |= 1 << (8 * uint(rng.IntN(r.Pits)))
	}
	left := total - r.Players
	for left > 0 {
		s, i := rng.IntN(r.Players), rng.IntN(r.Pits+1)
		n := 1 + rng.IntN(min(left, 2*r.Players*r.Pits+3))
		if i == r.Pits {
			p.Board.Stores[s] += uint8(n)
		} else {
			p.Board.Pits[s] += uint64(n) << (8 * uint(i))
		}
		left -= n
	}
	p.Board.ToMove = uint8(rng.IntN(r.Players))
	return p
}

// checkMove plays pit i of p with the packed rules and the reference and
// reports any difference.
func checkRef(t *testing.T, r Variant, p Position, i int) {
	t.Helper()
	g := refFromPosition(r, p)
	extra, captured, over := g.play(i)
	c, res, banked := r.play(p.Board, i)
	cp := Position{Players: r.Players, Pits: r.Pits, Board: c}
	if !slices.Equal(cp.Holes(), g.holes) || res.Extra() != extra || res.Capture() != captured || res.Over() != over ||
		(!over && cp.ToMove() != g.toMove) || (banked > 0) != captured {
		t.Fatalf("%v: %s %s to move, pit %c:\npacked    %s to move %d, result %03b\nreference %v to move %d, extra %v capture %v over %v",
			r, p, SeatName(p.ToMove()), 'a'+i, cp, cp.ToMove()+1, res, g.holes, g.toMove+1, extra, captured, over)
	}
}

func TestSowAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 17))
	n := 20000
	if testing.Short() {
		n = 3000
	}
	for _, r := range allRules(MaxPits) {
		for range n / 10 {
			p := randomPosition(rng, r, r.Players+rng.IntN(MaxSeeds-r.Players))
			for _, i := range p.Board.MoveList() {
				checkRef(t, r, p, i)
			}
		}
	}
}

// FuzzSow: random positions, decoded from the fuzzer's bytes, sown by the
// packed rules and the reference.
func FuzzSow(f *testing.F) {
	f.Add(uint8(3), uint8(4), uint8(0), uint64(7), uint16(200))
	f.Add(uint8(4), uint8(4), uint8(2), uint64(99), uint16(48))
	f.Fuzz(func(t *testing.T, k, m, target uint8, seed uint64, total uint16) {
		r := Variant{Players: 2 + int(k)%3, Pits: 1 + int(m)%MaxPits, Target: Target(target % 3)}
		tot := r.Players + int(total)%(MaxSeeds-r.Players+1)
		p := randomPosition(rand.New(rand.NewPCG(seed, 0)), r, tot)
		for _, i := range p.Board.MoveList() {
			checkRef(t, r, p, i)
		}
	})
}

// TestExamples: the worked examples of docs/rules.md.
func TestExamples(t *testing.T) {
	cases := []struct {
		k      int
		target Target
		pos    string
		toMove int
		move   int
		after  string
		res    Result
	}{
		// The first move of 3-player Kalah(4,3): c's 3 seeds end in the store.
		{3, TargetNext, "3,3,3,3,0/3,3,3,3,0/3,3,3,3,0", 0, 1, "3,0,4,4,1/3,3,3,3,0/3,3,3,3,0", ResExtra},
		// d's 3 seeds: store, then P2's a and b; P2 to move.
		{3, TargetNext, "3,3,3,3,0/3,3,3,3,0/3,3,3,3,0", 0, 3, "3,3,3,0,1/4,4,3,3,0/3,3,3,3,0", 0},
		// 13 seeds from c go once round (L = 13) into the emptied c: it
		// captures with P2's b (mirror of c), which now holds 2+1.
		{3, TargetNext, "1,0,13,1,0/1,2,1,1,0/1,1,1,1,0", 0, 2, "2,1,0,2,5/2,0,2,2,0/2,2,2,2,0", ResCapture},
		// The last seed in c, which held seeds: no capture.
		{3, TargetNext, "0,1,1,1,0/1,1,1,5,0/2,2,2,2,0", 0, 1, "0,0,2,1,0/1,1,1,5,0/2,2,2,2,0", 0},
		// P1's a to the empty b, whose mirror, P2's c, holds 5: captured.
		{3, TargetNext, "1,0,1,1,0/1,1,5,1,0/2,2,2,2,9", 0, 0, "0,0,1,1,6/1,1,0,1,0/2,2,2,2,9", ResCapture},
		// Target all: P2's c and P3's c both go.
		{3, TargetAll, "1,0,1,1,0/1,1,5,1,0/2,2,2,2,9", 0, 0, "0,0,1,1,8/1,1,0,1,0/2,2,0,2,9", ResCapture},
		// Target next with P2's c empty: no capture, the seed stays, even
		// though P3's c holds seeds.
		{3, TargetNext, "1,0,1,1,0/1,1,0,1,0/2,2,2,2,0", 0, 0, "0,1,1,1,0/1,1,0,1,0/2,2,2,2,0", 0},
		// Four players, opposite: P1 takes from P3.
		{4, TargetOpposite, "1,0,1,1,0/1,1,5,1,0/1,1,4,1,0/1,1,1,1,0", 0, 0, "0,0,1,1,5/1,1,5,1,0/1,1,0,1,0/1,1,1,1,0", ResCapture},
		// The capture empties P2: the game ends and everyone banks.
		{3, TargetNext, "1,0,1,1,0/0,0,5,0,0/2,2,2,2,9", 0, 0, "0,0,0,0,8/0,0,0,0,0/0,0,0,0,17", ResCapture | ResOver},
		// P3 sows into P1's row (the last row feeds the first) and empties
		// its own: the game ends.
		{3, TargetNext, "1,1,1,1,0/1,1,1,1,0/0,0,0,3,0", 2, 3, "0,0,0,0,6/0,0,0,0,4/0,0,0,0,1", ResOver},
	}
	for _, c := range cases {
		r := Variant{Players: c.k, Pits: 4, Target: c.target}
		p, err := ParsePosition(c.pos, c.toMove)
		if err != nil {
			t.Fatal(err)
		}
		q, res := r.PlayPosition(p, c.move)
		if q.String() != c.after || res != c.res {
			t.Errorf("%v %s P%d pit %c: got %s result %03b, want %s result %03b", r, c.pos, c.toMove+1, 'a'+c.move, q, res, c.after, c.res)
		}
		checkRef(t, r, p, c.move)
	}
}

// TestTwoPlayers: with k = 2 the package plays engine's game under
// no-empty-capture, for either target.
func TestTwoPlayers(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	for m := 1; m <= MaxPits; m++ {
		er := engine.Variant{Pits: m, Rule: engine.NoEmptyCapture}
		for _, tg := range Targets {
			r := Variant{Players: 2, Pits: m, Target: tg}
			for range 300 {
				p := randomPosition(rng, r, 2+rng.IntN(MaxSeeds-2))
				h := p.Holes()
				side := engine.Side(p.ToMove())
				ep, err := engine.PositionFromHoles(h, side)
				if err != nil {
					t.Fatal(err)
				}
				for _, i := range p.Board.MoveList() {
					q, res := r.PlayPosition(p, i)
					eq, eres := er.PlayPosition(ep, i)
					if !slices.Equal(q.Holes(), eq.Holes()) || uint8(res) != uint8(eres) || (!res.Over() && q.ToMove() != int(eq.ToMove)) {
						t.Fatalf("m=%d %s: %s pit %d: players %s %03b, engine %s %03b", m, tg, p, i, q, res, eq, eres)
					}
				}
			}
		}
	}
}

// perftTable was computed by the reference (refPerft) and by Play, which
// agree; both are checked against it here.
var perftTable = []struct {
	r      Variant
	seeds  int
	counts []uint64
}{
	{Variant{3, 4, TargetNext}, 3, []uint64{4, 15, 56, 195, 629, 1993, 6193, 19276, 60032, 184028}},
	{Variant{3, 4, TargetAll}, 3, []uint64{4, 15, 56, 195, 629, 1993, 6192, 19261, 59916, 183109}},
	{Variant{4, 4, TargetNext}, 3, []uint64{4, 15, 56, 208, 742, 2468, 7871, 24700, 76983, 241097}},
	{Variant{4, 4, TargetOpposite}, 3, []uint64{4, 15, 56, 208, 742, 2468, 7883, 24822, 77595, 243825}},
	{Variant{4, 4, TargetAll}, 3, []uint64{4, 15, 56, 208, 742, 2468, 7871, 24698, 76919, 240536}},
	{Variant{3, 6, TargetNext}, 4, []uint64{6, 35, 204, 1099, 5670, 28956, 145808, 728660, 3621907}},
}

func TestPerft(t *testing.T) {
	for _, c := range perftTable {
		b, err := c.r.Start(c.seeds)
		if err != nil {
			t.Fatal(err)
		}
		depth := len(c.counts)
		if testing.Short() {
			depth -= 2
		}
		got := c.r.Perft(b, depth)
		if !slices.Equal(got, c.counts[:depth]) {
			t.Errorf("%v n=%d perft: %v, want %v", c.r, c.seeds, got, c.counts[:depth])
		}
		ref := make([]uint64, depth-2)
		p := Position{Players: c.r.Players, Pits: c.r.Pits, Board: b}
		refPerft(refFromPosition(c.r, p), ref)
		if !slices.Equal(ref, c.counts[:depth-2]) {
			t.Errorf("%v n=%d reference perft: %v, want %v", c.r, c.seeds, ref, c.counts[:depth-2])
		}
	}
}

// TestPerftTwoPlayers: k = 2 counts engine's no-empty-capture perft.
func TestPerftTwoPlayers(t *testing.T) {
	r := Variant{Players: 2, Pits: 6, Target: TargetNext}
	b, _ := r.Start(4)
	er := engine.Variant{Pits: 6, Rule: engine.NoEmptyCapture}
	eb, _ := er.Start(4)
	if got, want := r.Perft(b, 7), er.Perft(eb, 7); !slices.Equal(got, want) {
		t.Errorf("perft %v, engine %v", got, want)
	}
}
