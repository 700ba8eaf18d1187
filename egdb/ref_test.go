package egdb

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/kalah-solver/kalah/engine"
)

// ref is an independent reference: the game played seed by seed on a
// plain array, solved by memoized recursion over whole positions. It uses
// neither the engine's sowing nor any of the database's ranking.
type ref struct {
	m       int
	capture engine.Capture
	memo    map[string]int
}

func newRef(m int, c engine.Capture) *ref {
	return &ref{m: m, capture: c, memo: map[string]int{}}
}

// gain is what the mover banks, of the seeds in pits, with own pits
// pits[0..m-1] and the opponent's pits[m..2m-1] (each from its owner's
// left). Both sides must hold seeds.
func (r *ref) gain(pits []int) int {
	key := fmt.Sprint(pits)
	if v, ok := r.memo[key]; ok {
		return v
	}
	best := -1
	for i := 0; i < r.m; i++ {
		if pits[i] > 0 {
			best = max(best, r.move(pits, i))
		}
	}
	r.memo[key] = best
	return best
}

// move plays pit i and returns what the mover banks from then on.
func (r *ref) move(pits []int, i int) int {
	m := r.m
	// Holes in the mover's cycle: own pits 0..m-1, own store m, opponent's
	// pits m+1..2m. The opponent's store is never sown.
	h := make([]int, 2*m+1)
	copy(h, pits[:m])
	copy(h[m+1:], pits[m:])
	seeds := h[i]
	h[i] = 0
	pos := i
	for ; seeds > 0; seeds-- {
		pos = (pos + 1) % (2*m + 1)
		h[pos]++
	}
	extra := pos == m
	if pos < m && h[pos] == 1 {
		opp := m + 1 + (m - 1 - pos)
		if h[opp] > 0 || r.capture == engine.EmptyCapture {
			h[m] += h[opp] + 1
			h[pos], h[opp] = 0, 0
		}
	}
	own, oth := 0, 0
	for j := 0; j < m; j++ {
		own += h[j]
		oth += h[m+1+j]
	}
	banked := h[m]
	if own == 0 || oth == 0 {
		return banked + own // the mover's remaining seeds are swept to its store
	}
	child := make([]int, 2*m)
	if extra {
		copy(child, h[:m])
		copy(child[m:], h[m+1:])
		return banked + r.gain(child)
	}
	copy(child, h[m+1:])
	copy(child[m:], h[:m])
	return banked + (own + oth) - r.gain(child)
}

var (
	cacheMu sync.Mutex
	cache   = map[string]*DB{}
)

// shared returns the in-memory database of rules up to maxSeeds, built
// once per test binary; tests must not modify it.
func shared(t *testing.T, rules engine.Rules, maxSeeds int) *DB {
	t.Helper()
	key := fmt.Sprint(rules, maxSeeds)
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if db := cache[key]; db != nil {
		return db
	}
	db, err := Build(context.Background(), rules, maxSeeds, Options{})
	if err != nil {
		t.Fatal(err)
	}
	cache[key] = db
	return db
}

func pitsOf(m int, own, opp uint64) []int {
	p := make([]int, 2*m)
	for j := 0; j < m; j++ {
		p[j] = int(own >> (8 * uint(j)) & 0xff)
		p[m+j] = int(opp >> (8 * uint(j)) & 0xff)
	}
	return p
}

// TestAgainstReferenceSmall compares every position of the small slices.
func TestAgainstReferenceSmall(t *testing.T) {
	limit := map[int]int{2: 14, 3: 12, 4: 10, 5: 8}
	if testing.Short() {
		limit = map[int]int{2: 12, 3: 10, 4: 8, 5: 6}
	}
	for m := 2; m <= 5; m++ {
		for _, c := range engine.Captures {
			rules := engine.Rules{Pits: m, Capture: c}
			t.Run(rules.String(), func(t *testing.T) {
				db := shared(t, rules, limit[m])
				rf := newRef(m, c)
				for s := 0; s <= limit[m]; s++ {
					cur := db.Index().Cursor(s, 0, db.Index().Size(s))
					for cur.Next() {
						got, ok := db.Probe(engine.Board{Own: cur.Own, Opp: cur.Opp})
						want := rf.gain(pitsOf(m, cur.Own, cur.Opp))
						if !ok || got != want {
							t.Fatalf("slice %d rank %d %v: got %d (ok %v), reference %d", s, cur.Rank, pitsOf(m, cur.Own, cur.Opp), got, ok, want)
						}
					}
				}
			})
		}
	}
}

// TestAgainstReferenceRandom compares random positions of six-pit slices.
func TestAgainstReferenceRandom(t *testing.T) {
	maxS, samples := 14, 3000
	if testing.Short() {
		maxS, samples = 12, 1000
	}
	for _, c := range engine.Captures {
		rules := engine.Rules{Pits: 6, Capture: c}
		t.Run(rules.String(), func(t *testing.T) {
			db := shared(t, rules, maxS)
			rf := newRef(6, c)
			rng := rand.New(rand.NewPCG(1, uint64(c)))
			for range samples {
				s := 2 + rng.IntN(maxS-1)
				r := rng.Int64N(db.Index().Size(s))
				own, opp := db.Index().Unrank(s, r)
				got, _ := db.Probe(engine.Board{Own: own, Opp: opp, OwnStore: 3, OppStore: 7})
				if want := rf.gain(pitsOf(6, own, opp)); got != want {
					t.Fatalf("slice %d rank %d %v: got %d, reference %d", s, r, pitsOf(6, own, opp), got, want)
				}
			}
		})
	}
}
