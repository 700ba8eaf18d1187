package tt

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/kalah-solver/kalah/engine"
)

func randomKey(rng *rand.Rand, m, seeds int) engine.Key {
	var k engine.Key
	for s := 0; s < seeds; s++ {
		i := rng.IntN(2 * m)
		if i < m {
			k.Own += 1 << (8 * uint(i))
		} else {
			k.Opp += 1 << (8 * uint(i-m))
		}
	}
	return k
}

func TestRankRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for m := 1; m <= engine.MaxPits; m++ {
		for n := 0; n < 3000; n++ {
			k := randomKey(rng, m, rng.IntN(60))
			if got := Unrank(m, Rank(m, k)); got != k {
				t.Fatalf("m=%d: Unrank(Rank(%x)) = %x", m, k, got)
			}
		}
	}
	// Exhaustive: ranks of all positions with at most 5 seeds on 2x2 pits
	// are exactly 0..C(9,4)-1.
	seen := map[uint64]bool{}
	for a := 0; a <= 5; a++ {
		for b := 0; a+b <= 5; b++ {
			for c := 0; a+b+c <= 5; c++ {
				for d := 0; a+b+c+d <= 5; d++ {
					k := engine.Key{Own: uint64(a) | uint64(b)<<8, Opp: uint64(c) | uint64(d)<<8}
					seen[Rank(2, k)] = true
				}
			}
		}
	}
	for r := uint64(0); r < Binom(9, 4); r++ {
		if !seen[r] {
			t.Fatalf("rank %d unused: ranking has a gap", r)
		}
	}
	if len(seen) != int(Binom(9, 4)) {
		t.Fatalf("%d ranks for %d positions", len(seen), Binom(9, 4))
	}
}

func TestMixIsBijection(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, w := range []uint{10, 33, 47, 63, 64} {
		x := newMixer(w)
		for n := 0; n < 10000; n++ {
			v := rng.Uint64() & x.mask
			h := x.mix(v)
			if h&^x.mask != 0 || x.unmix(h) != v {
				t.Fatalf("w=%d: mix(%x)=%x unmix=%x", w, v, h, x.unmix(h))
			}
		}
	}
}

// TestNoFalsePositives fills a small table far beyond its size and checks
// that every hit is the position that was stored, and that every entry's
// slot decodes back to its position.
func TestNoFalsePositives(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	tab, _ := New(6, 1<<15)
	values := map[engine.Key]int{}
	for n := 0; n < 200000; n++ {
		seeds := rng.IntN(72)
		k := randomKey(rng, 6, seeds)
		v := rng.IntN(2*seeds+1) - seeds
		if old, ok := values[k]; ok {
			v = old
		}
		values[k] = v
		tab.Store(tab.SlotOf(k, seeds), MakeEntry(v, BoundExact, 0, DepthSolved, rng.IntN(20)))
	}
	hits := 0
	for k, v := range values {
		e, ok := tab.Probe(tab.SlotOf(k, laneTotal(k)))
		if ok {
			hits++
			if e.Value() != v {
				t.Fatalf("false positive: %x stored %d, probed %d", k, v, e.Value())
			}
		}
	}
	if hits == 0 {
		t.Fatal("no hits at all")
	}
	n := 0
	tab.Range(func(k engine.Key, e Entry) {
		n++
		if values[k] != e.Value() {
			t.Fatalf("slot decodes to %x with value %d, stored %d", k, e.Value(), values[k])
		}
	})
	if n != hits {
		t.Fatalf("Range saw %d entries, probes hit %d", n, hits)
	}
}

func laneTotal(k engine.Key) int {
	return engine.Board{Own: k.Own, Opp: k.Opp}.Seeds()
}

func TestEntryFields(t *testing.T) {
	for _, v := range []int{-255, -3, 0, 7, 255} {
		e := MakeEntry(v, BoundUpper, 5, 17, 40).withTag(1<<TagBits - 1)
		if e.Value() != v || e.Bound() != BoundUpper || e.Move() != 5 || e.Depth() != 17 || e.Work() != 31 || e.tag() != 1<<TagBits-1 {
			t.Fatalf("entry %x does not round-trip", e)
		}
		if e.Upper() != v || e.Lower() != -1000 {
			t.Fatal("bounds")
		}
	}
}

// TestConcurrent hammers one table from several goroutines; run with -race.
func TestConcurrent(t *testing.T) {
	tab, _ := New(4, 1<<14)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 1))
			for n := 0; n < 20000; n++ {
				seeds := rng.IntN(30)
				k := randomKey(rng, 4, seeds)
				s := tab.SlotOf(k, seeds)
				// Every goroutine stores the same value for a key: the
				// seed count, so that a hit can be checked.
				if e, ok := tab.Probe(s); ok && e.Value() != seeds {
					t.Errorf("torn or false entry for %x: %d", k, e.Value())
					return
				}
				tab.Store(s, MakeEntry(seeds, BoundLower, 1, DepthSolved, 3))
			}
		}(g)
	}
	wg.Wait()
}

func BenchmarkProbeStore(b *testing.B) {
	tab, _ := New(6, 64<<20)
	rng := rand.New(rand.NewPCG(1, 1))
	keys := make([]engine.Key, 4096)
	for i := range keys {
		keys[i] = randomKey(rng, 6, 48)
	}
	i := 0
	for b.Loop() {
		k := keys[i&4095]
		s := tab.SlotOf(k, 48)
		if _, ok := tab.Probe(s); !ok {
			tab.Store(s, MakeEntry(2, BoundExact, 1, DepthSolved, 4))
		}
		i++
	}
}
