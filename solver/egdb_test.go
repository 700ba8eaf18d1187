package solver

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/kalah-solver/kalah/egdb"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/tt"
)

// TestSameValuesWithDatabase: with an endgame database the solver gives the
// same value and per-move values as without, on start and mid-game
// positions of both rules.
func TestSameValuesWithDatabase(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for _, c := range engine.AllRules {
		for _, m := range []int{4, 6} {
			r := engine.Variant{Pits: m, Rule: c}
			db, err := egdb.Build(context.Background(), r, 10, egdb.Options{Threads: 2})
			if err != nil {
				t.Fatal(err)
			}
			positions := []engine.Position{}
			for k := 0; k < 12; k++ {
				positions = append(positions, randomPosition(rng, r, 2, rng.IntN(3*m)))
			}
			if m == 4 {
				p, _ := r.StartPosition(3)
				positions = append(positions, p)
			}
			hits := int64(0)
			for _, p := range positions {
				plain := newTestSolver(t, r, 1)
				with, err := New(r, Options{TableSize: 1 << 22, Threads: 1, DB: db})
				if err != nil {
					t.Fatal(err)
				}
				a, err1 := plain.SolveEveryMove(context.Background(), p)
				b, err2 := with.SolveEveryMove(context.Background(), p)
				plain.Close()
				with.Close()
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				if a.Value != b.Value || !slices.Equal(a.Moves, b.Moves) {
					t.Fatalf("%v %v: without db %d %v, with db %d %v", r, p, a.Value, a.Moves, b.Value, b.Moves)
				}
				hits += b.Stats.DBHits
			}
			if hits == 0 {
				t.Fatalf("%v: the database was never used", r)
			}
			db.Close()
		}
	}
}

// TestTableJustAboveDatabase: with a database of k seeds, boards of at
// most k+tableGap seeds are solved without the table (no probe), bigger
// ones with it, and both give the brute-force reference's values, on
// two-thread solvers too (the busy marks need table slots).
func TestTableJustAboveDatabase(t *testing.T) {
	const k = 6
	rng := rand.New(rand.NewPCG(41, 42))
	refs := brutes{}
	for _, c := range engine.AllRules {
		r := engine.Variant{Pits: 4, Rule: c}
		db, err := egdb.Build(context.Background(), r, k, egdb.Options{Threads: 2})
		if err != nil {
			t.Fatal(err)
		}
		near, far := 0, 0
		for n := 0; n < 2000 && (near < 6 || far < 6); n++ {
			p := randomPosition(rng, r, 2+rng.IntN(2), rng.IntN(16))
			s := p.Board.Seeds()
			if s <= k || s > 16 || s < tableMinSeeds(k) && near >= 6 || s >= tableMinSeeds(k) && far >= 6 {
				continue
			}
			// A cache filled without the database holds entries of the
			// boards that skip the table; with the database the search
			// must not ask it for them (cacheMinSeeds), and its values
			// are the reference's.
			cache := &mapCache{m: map[engine.Key]tt.Entry{}}
			filler, err := New(r, Options{TableSize: 1 << 20, Threads: 1, Cache: cache})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := filler.SolveEveryMove(context.Background(), p); err != nil {
				t.Fatal(err)
			}
			filler.Close()
			for _, threads := range []int{1, 2} {
				sv, err := New(r, Options{TableSize: 1 << 20, Threads: threads, DB: db})
				if err != nil {
					t.Fatal(err)
				}
				checkSolve(t, sv, refs.get(r), p)
				sv.Close()
				sv, err = New(r, Options{TableSize: 1 << 20, Threads: threads, DB: db, Cache: cache})
				if err != nil {
					t.Fatal(err)
				}
				cache.asked = map[int]int{}
				checkSolve(t, sv, refs.get(r), p)
				res, err := sv.SolveEveryMove(context.Background(), p)
				sv.Close()
				if err != nil {
					t.Fatal(err)
				}
				for seeds, n := range cache.asked {
					if seeds < tableMinSeeds(k) {
						t.Fatalf("%v, %d seeds, database %d: the cache was asked %d times at %d seeds, below the table's %d", r, s, k, n, seeds, tableMinSeeds(k))
					}
				}
				switch probes := res.Stats.TTProbes; {
				case s < tableMinSeeds(k) && probes != 0:
					t.Fatalf("%v, %d seeds, database %d: %d table probes, want none", r, s, k, probes)
				case s >= tableMinSeeds(k)+4 && probes == 0 && res.Stats.Nodes > 1:
					t.Fatalf("%v, %d seeds, database %d: no table probe in %d nodes", r, s, k, res.Stats.Nodes)
				}
			}
			if s < tableMinSeeds(k) {
				near++
			} else {
				far++
			}
		}
		if near < 6 || far < 6 {
			t.Fatalf("%v: %d positions just above the database, %d further", r, near, far)
		}
		db.Close()
	}
	if tableMinSeeds(-1) != 0 {
		t.Errorf("without a database every board must use the table, not from %d seeds", tableMinSeeds(-1))
	}
}

// mapCache is a cache in a map, asked at every board; asked,
// when not nil, counts the look-ups by the board's seeds.
type mapCache struct {
	mu    sync.Mutex
	m     map[engine.Key]tt.Entry
	asked map[int]int
}

func (c *mapCache) Get(k engine.Key) (tt.Entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.asked != nil {
		c.asked[engine.Board{Own: k.Own, Opp: k.Opp}.Seeds()]++
	}
	e, ok := c.m[k]
	return e, ok
}

func (c *mapCache) Put(k engine.Key, e tt.Entry) {
	c.mu.Lock()
	c.m[k] = e
	c.mu.Unlock()
}

func (c *mapCache) MinSeeds() int { return 1 }
func (c *mapCache) MinWork() int  { return 1 }
