package egdb

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/kalah-solver/kalah/engine"
)

var (
	benchOnce sync.Once
	benchDB   *DB
	benchByte *DB
)

// benchDatabase is six pits, no-empty-capture, up to 14 seeds, built once
// (packed).
func benchDatabase(b *testing.B) *DB {
	benchOnce.Do(func() {
		db, err := Build(context.Background(), engine.Variant{Pits: 6}, 14, Options{})
		if err != nil {
			b.Fatal(err)
		}
		benchDB = db
		benchByte = &DB{rules: db.rules, x: db.x}
		for s := range db.slices {
			benchByte.slices = append(benchByte.slices, byteTable(db.Slice(s)))
		}
	})
	return benchDB
}

// probeDir and probeRule name a database on disk for BenchmarkProbe, flags
// of the test binary:
// go test -run '^$' -bench Probe -probe-egdb DIR -probe-rule empty-capture ./egdb/
var (
	probeDir  = flag.String("probe-egdb", "", "BenchmarkProbe: also probe the six-pit database in this directory")
	probeRule = flag.String("probe-rule", "no-empty-capture", "BenchmarkProbe: its rule")
)

// BenchmarkProbe probes random positions of the five largest slices: of
// the in-memory database up to 14 seeds in each encoding (slices 10..14,
// 12 MB as bytes and 3.4 MB packed), and of the database in -probe-egdb
// if given (as stored, opened with Open: the whole database is mapped).
func BenchmarkProbe(b *testing.B) {
	db := benchDatabase(b)
	b.Run("mem14/packed", func(b *testing.B) { benchProbe(b, db) })
	b.Run("mem14/byte", func(b *testing.B) { benchProbe(b, benchByte) })
	if *probeDir != "" {
		c, err := engine.ParseRule(*probeRule)
		if err != nil {
			b.Fatal(err)
		}
		disk, err := Open(*probeDir, engine.Variant{Pits: 6, Rule: c})
		if err != nil {
			b.Fatal(err)
		}
		defer disk.Close()
		s := disk.MaxSeeds()
		b.Run(fmt.Sprintf("disk%d/%s", s, EncodingName(disk.Encoding(s))), func(b *testing.B) { benchProbe(b, disk) })
	}
}

func benchProbe(b *testing.B, db *DB) {
	rng := rand.New(rand.NewPCG(1, 2))
	boards := make([]engine.Board, 1<<16)
	top := db.MaxSeeds()
	for i := range boards {
		s := top - 4 + rng.IntN(5)
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

// buildSeeds is the largest slice of BenchmarkBuild, a flag of the test
// binary: go test -run '^$' -bench 'Build$' -build-seeds 20 -cpu 1 -v ./egdb/
var buildSeeds = flag.Int("build-seeds", 14, "BenchmarkBuild: build six pits up to this many seeds")

// BenchmarkBuild builds six pits up to -build-seeds seeds in memory, for
// each rule, with GOMAXPROCS threads (-cpu sets it), and reports positions
// per second over the whole build. With -v it logs each slice's time of
// the last run.
func BenchmarkBuild(b *testing.B) {
	for _, c := range []engine.Rule{engine.NoEmptyCapture, engine.EmptyCapture} {
		b.Run("rule="+c.String(), func(b *testing.B) {
			var reps []SliceReport
			var total int64
			for i := 0; i < b.N; i++ {
				reps, total = reps[:0], 0
				db, err := Build(context.Background(), engine.Variant{Pits: 6, Rule: c}, *buildSeeds, Options{SliceDone: func(r SliceReport) {
					reps = append(reps, r)
					total += r.Positions
				}})
				if err != nil {
					b.Fatal(err)
				}
				db.Close()
			}
			b.ReportMetric(float64(total)*float64(b.N)/b.Elapsed().Seconds(), "pos/s")
			if testing.Verbose() {
				for _, r := range reps {
					b.Logf("slice %d: %d positions, %.2f s, %.1f M pos/s", r.Seeds, r.Positions, r.Seconds, float64(r.Positions)/r.Seconds/1e6)
				}
			}
		})
	}
}

// readGiB lists the footprints of BenchmarkRandomRead, a flag of the test
// binary: go test -run '^$' -bench RandomRead -read-gib 0.5,4,16 ./egdb/
var readGiB = flag.String("read-gib", "", "BenchmarkRandomRead: footprints in GiB, comma-separated (none: skipped)")

// BenchmarkRandomRead measures the machine, not the database: random
// one-byte reads over anonymous memory of each footprint in -read-gib, in
// huge pages where the kernel gives them (the arena a part is built in),
// independent of each other (as a probe after its prefetch) and dependent
// (each address from the byte read before: the latency). A probe of a
// database file is such a read; how its cost grows with the footprint is
// what the deep databases pay (docs/egdb.md, "Probe cost").
func BenchmarkRandomRead(b *testing.B) {
	if *readGiB == "" {
		b.Skip("no -read-gib")
	}
	for _, f := range strings.Split(*readGiB, ",") {
		gib, err := strconv.ParseFloat(f, 64)
		if err != nil || gib <= 0 {
			b.Fatalf("-read-gib: %q is not a positive number", f)
		}
		n := int64(gib * (1 << 30))
		a, err := newArena(n)
		if err != nil {
			b.Fatal(err)
		}
		if err := a.open([]span{{0, n}}); err != nil {
			b.Fatal(err)
		}
		mem := a.bytes()[:n]
		for i := int64(0); i < n; i += 4096 {
			mem[i] = byte(i >> 12)
		}
		next := func(x uint64) uint64 { x ^= x << 13; x ^= x >> 7; return x ^ x<<17 }
		b.Run(fmt.Sprintf("%sGiB/independent", f), func(b *testing.B) {
			x, sum := uint64(88172645463325252), 0
			for range b.N {
				x = next(x)
				sum += int(mem[x%uint64(n)])
			}
			if sum < 0 {
				b.Fatal(sum)
			}
		})
		b.Run(fmt.Sprintf("%sGiB/dependent", f), func(b *testing.B) {
			x, j := uint64(88172645463325252), uint64(0)
			for range b.N {
				x = next(x)
				j = (x + uint64(mem[j])) % uint64(n)
			}
			if j == uint64(n) {
				b.Fatal(j)
			}
		})
		if err := a.close(); err != nil {
			b.Fatal(err)
		}
	}
}
