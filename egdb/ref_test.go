package egdb

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/internal/reference"
)

// refGain is the reference's value (internal/reference: the game played
// seed by seed on a plain array, solved by memoized recursion; neither the
// engine's sowing nor any of the database's ranking) of the position with
// the mover's pits own and the opponent's opp, in the database's unit:
// the seeds the mover banks, (value + seeds) / 2.
func refGain(rf *reference.Solver, own, opp uint64) int {
	m := rf.Pits
	p := pitsOf(m, own, opp)
	holes := make([]int, 2*m+2) // South (the mover) then North, stores empty
	copy(holes, p[:m])
	copy(holes[m+1:], p[m:])
	s := 0
	for _, n := range p {
		s += n
	}
	return (rf.Value(rf.Game(holes, false)) + s) / 2
}

func newRef(m int, c engine.Rule) *reference.Solver {
	return reference.NewSolver(reference.Rules{Pits: m, EmptyCapture: c == engine.EmptyCapture}, 0)
}

var (
	cacheMu sync.Mutex
	cache   = map[string]*DB{}
)

// shared returns the in-memory database of rules up to maxSeeds in the
// default (packed) encoding, built once per test binary; tests must not
// modify it.
func shared(t *testing.T, rules engine.Variant, maxSeeds int) *DB {
	t.Helper()
	return sharedEnc(t, rules, maxSeeds, EncodingPacked)
}

// sharedEnc is shared in the encoding enc.
func sharedEnc(t *testing.T, rules engine.Variant, maxSeeds, enc int) *DB {
	t.Helper()
	key := fmt.Sprint(rules, maxSeeds, enc)
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if db := cache[key]; db != nil {
		return db
	}
	db, err := Build(context.Background(), rules, maxSeeds, Options{Encoding: enc})
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

// encodings are the two encodings, by name, for subtests.
var encodings = []int{EncodingGainByte, EncodingPacked}

// TestAgainstReferenceSmall compares every position of the small slices,
// in both encodings.
func TestAgainstReferenceSmall(t *testing.T) {
	limit := map[int]int{2: 14, 3: 12, 4: 10, 5: 8}
	if testing.Short() {
		limit = map[int]int{2: 12, 3: 10, 4: 8, 5: 6}
	}
	for m := 2; m <= 5; m++ {
		for _, c := range engine.AllRules {
			for _, enc := range encodings {
				rules := engine.Variant{Pits: m, Rule: c}
				t.Run(rules.String()+"/"+EncodingName(enc), func(t *testing.T) {
					db := sharedEnc(t, rules, limit[m], enc)
					rf := newRef(m, c)
					for s := 0; s <= limit[m]; s++ {
						if db.Encoding(s) != enc {
							t.Fatalf("slice %d is %s", s, EncodingName(db.Encoding(s)))
						}
						cur := db.Index().Cursor(s, 0, db.Index().Size(s))
						for cur.Next() {
							got, ok := db.Probe(engine.Board{Own: cur.Own, Opp: cur.Opp})
							want := refGain(rf, cur.Own, cur.Opp)
							if !ok || got != want {
								t.Fatalf("slice %d rank %d %v: got %d (ok %v), reference %d", s, cur.Rank, pitsOf(m, cur.Own, cur.Opp), got, ok, want)
							}
						}
					}
				})
			}
		}
	}
}

// TestAgainstReferenceRandom compares random positions of six-pit slices
// in the packed encoding (TestEncodingsAgree compares the byte encoding
// with it everywhere).
func TestAgainstReferenceRandom(t *testing.T) {
	maxS, samples := 14, 3000
	if testing.Short() {
		maxS, samples = 12, 1000
	}
	for _, c := range engine.AllRules {
		rules := engine.Variant{Pits: 6, Rule: c}
		t.Run(rules.String(), func(t *testing.T) {
			db := shared(t, rules, maxS)
			rf := newRef(6, c)
			rng := rand.New(rand.NewPCG(1, uint64(c)))
			for range samples {
				s := 2 + rng.IntN(maxS-1)
				r := rng.Int64N(db.Index().Size(s))
				own, opp := db.Index().Unrank(s, r)
				got, _ := db.Probe(engine.Board{Own: own, Opp: opp, OwnStore: 3, OppStore: 7})
				if want := refGain(rf, own, opp); got != want {
					t.Fatalf("slice %d rank %d %v: got %d, reference %d", s, r, pitsOf(6, own, opp), got, want)
				}
			}
		})
	}
}
