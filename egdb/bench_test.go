package egdb

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/kalah-solver/kalah/engine"
)

var (
	benchOnce sync.Once
	benchDB   *DB
)

// benchDatabase is six pits, no-empty-capture, up to 14 seeds, built once.
func benchDatabase(b *testing.B) *DB {
	benchOnce.Do(func() {
		db, err := Build(context.Background(), engine.Rules{Pits: 6}, 14, Options{})
		if err != nil {
			b.Fatal(err)
		}
		benchDB = db
	})
	return benchDB
}

// BenchmarkProbe probes random positions of slices 10..14 (a spread of
// 12 MB, beyond the CPU caches, as at search nodes).
func BenchmarkProbe(b *testing.B) {
	db := benchDatabase(b)
	rng := rand.New(rand.NewPCG(1, 2))
	boards := make([]engine.Board, 1<<16)
	for i := range boards {
		s := 10 + rng.IntN(5)
		own, opp := db.Index().Unrank(s, rng.Int64N(db.Index().Size(s)))
		boards[i] = engine.Board{Own: own, Opp: opp, OwnStore: 9, OppStore: 4}
	}
	b.ResetTimer()
	sum := 0
	for i := 0; i < b.N; i++ {
		g, _ := db.Probe(boards[i&(len(boards)-1)])
		sum += g
	}
	if sum < 0 {
		b.Fatal(sum)
	}
}

// BenchmarkRank ranks random positions of slice 14.
func BenchmarkRank(b *testing.B) {
	x, _ := NewIndex(6, 14)
	rng := rand.New(rand.NewPCG(1, 3))
	pos := make([][2]uint64, 1<<10)
	for i := range pos {
		pos[i][0], pos[i][1] = x.Unrank(14, rng.Int64N(x.Size(14)))
	}
	b.ResetTimer()
	var sum int64
	for i := 0; i < b.N; i++ {
		p := pos[i&(len(pos)-1)]
		r, _ := x.Rank(p[0], p[1])
		sum += r
	}
	if sum < 0 {
		b.Fatal(sum)
	}
}

// BenchmarkBuildSlice computes slice 14 of six pits (4.4 M positions) from
// the slices below it, with one and with two threads; it reports
// positions per second.
func BenchmarkBuildSlice(b *testing.B) {
	db := benchDatabase(b)
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			n := db.Index().Size(14)
			for i := 0; i < b.N; i++ {
				if _, err := buildSlice(context.Background(), db.rules, db.x, db.slices[:14], 14, threads, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "pos/s")
		})
	}
}

// TestBuildTiming prints per-slice build times for EGDB_TIMING=maxSeeds
// (six pits, EGDB_RULE, EGDB_THREADS); it is skipped otherwise.
func TestBuildTiming(t *testing.T) {
	max, _ := strconv.Atoi(os.Getenv("EGDB_TIMING"))
	if max == 0 {
		t.Skip("set EGDB_TIMING=maxSeeds to time a build")
	}
	threads, _ := strconv.Atoi(os.Getenv("EGDB_THREADS"))
	rules := engine.Rules{Pits: 6, Capture: engine.NoEmptyCapture}
	if os.Getenv("EGDB_RULE") == "empty-capture" {
		rules.Capture = engine.EmptyCapture
	}
	start := time.Now()
	var total int64
	_, err := Build(context.Background(), rules, max, Options{Threads: threads, SliceDone: func(r SliceReport) {
		total += r.Positions
		t.Logf("s=%d positions=%d %.2fs %.1f Mpos/s", r.Seeds, r.Positions, r.Seconds, float64(r.Positions)/r.Seconds/1e6)
	}})
	if err != nil {
		t.Fatal(err)
	}
	el := time.Since(start).Seconds()
	t.Logf("total %d positions %.2fs %.1f Mpos/s", total, el, float64(total)/el/1e6)
}
