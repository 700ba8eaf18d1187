package engine

import (
	"slices"
	"testing"
)

// perftTable was computed by the reference (internal/reference) and by the packed
// engine, which agree; both are checked against it here.
var perftTable = []struct {
	pits, seeds int
	rule        Rule
	counts      []uint64
}{
	{6, 4, NoEmptyCapture, []uint64{6, 35, 185, 942, 4690, 23233, 114430, 563055, 2763490, 13519607}},
	{6, 4, EmptyCapture, []uint64{6, 35, 185, 942, 4685, 23169, 113959, 559885, 2743126, 13394138}},
	{4, 3, NoEmptyCapture, []uint64{4, 15, 50, 158, 488, 1510, 4637, 14102, 41831, 120669, 340951, 937774}},
	{4, 3, EmptyCapture, []uint64{4, 15, 50, 158, 488, 1507, 4621, 14011, 41335, 118427, 331638, 902040}},
}

func TestPerft(t *testing.T) {
	for _, c := range perftTable {
		r := Variant{Pits: c.pits, Rule: c.rule}
		p, err := r.StartPosition(c.seeds)
		if err != nil {
			t.Fatal(err)
		}
		depth := len(c.counts)
		if testing.Short() {
			depth -= 2
		}
		if got := r.Perft(p.Board, depth); !slices.Equal(got, c.counts[:depth]) {
			t.Errorf("Kalah(%d,%d) %s perft: engine %v, want %v", c.pits, c.seeds, c.rule, got, c.counts[:depth])
		}
		refDepth := depth - 2 // the reference is slow
		ref := refRules(r).Perft(refGame(p), refDepth)
		for d := range ref {
			if uint64(ref[d]) != c.counts[d] {
				t.Errorf("Kalah(%d,%d) %s perft: reference %v, want %v", c.pits, c.seeds, c.rule, ref, c.counts[:refDepth])
				break
			}
		}
	}
}

func BenchmarkPerft64(b *testing.B) {
	r := Variant{Pits: 6, Rule: NoEmptyCapture}
	s, _ := r.Start(4)
	var n uint64
	for b.Loop() {
		n = r.Perft(s, 7)[6]
	}
	b.ReportMetric(float64(n*uint64(b.N))/b.Elapsed().Seconds()/1e6, "Mleaves/s")
}

// BenchmarkSow measures one sowing with its flip, over the moves of a
// mid-game Kalah(6,4) position.
func BenchmarkSow(b *testing.B) {
	r := Variant{Pits: 6, Rule: NoEmptyCapture}
	p, _ := ParsePosition("3,0,7,5,1,6,9,2,5,0,4,6,1,7", South)
	moves := p.Board.MoveList()
	var sink Board
	for b.Loop() {
		for _, i := range moves {
			c, _ := r.Play(p.Board, i)
			sink.Own ^= c.Own
		}
	}
	b.ReportMetric(float64(len(moves)*b.N)/b.Elapsed().Seconds()/1e6, "Msow/s")
	_ = sink
}
