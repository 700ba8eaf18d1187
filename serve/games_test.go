//go:build unix

package serve

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/kalah-solver/kalah/engine"
)

// BenchmarkRandomGames is the explorer's latency measurement
// (docs/explorer.md, "How fast it answers"): it plays random games from
// the start of Kalah(6,4) and asks the server, through HTTP, for every
// move's value (/api/solve, what the page asks) of each position along
// them, as a page that follows the games would. It reports the median,
// 99th percentile and largest wall time of an answer, and the largest
// CPU time (the process's, so the solve's over all its threads). It is a
// measurement, not a test: it runs only when $KALAH_GAMES_STORE names the
// store to use (which a 'kalah book build' has filled beforehand), once
// (-benchtime 1x); serve/measure.sh sets it up. The variables:
//
//	KALAH_GAMES_STORE    the persistent store (required); the answers found are added to it
//	KALAH_GAMES_EGDB     the endgame databases ("" for none)
//	KALAH_GAMES_RULE     no-empty-capture (default) or empty-capture
//	KALAH_GAMES_PITS     pits a side (default 6), and KALAH_GAMES_SEEDS seeds a pit (default 4)
//	KALAH_GAMES_N        games (default 200)
//	KALAH_GAMES_SEED     the random moves' seed (default 1)
//	KALAH_GAMES_THREADS  search threads (default all cores)
//	KALAH_GAMES_TT_MIB   the sessions' table in MiB (default the server's)
//	KALAH_GAMES_CAP      a solve's time limit, e.g. 30s (default none): a longer one
//	                     stops, answers with its bounds and counts as taking the limit
//	KALAH_GAMES_NO_WARM  set: do not warm the session before the games (Server.Warm)
//	KALAH_GAMES_OUT      a file for one line per position (game, ply, seeds on the
//	                     board, wall s, CPU s, nodes, from the store, solved, the
//	                     position and the side to move, for 'kalah solve --position')
func BenchmarkRandomGames(b *testing.B) {
	store := os.Getenv("KALAH_GAMES_STORE")
	if store == "" {
		b.Skip("set KALAH_GAMES_STORE (and KALAH_GAMES_EGDB) to run the latency measurement; see serve/measure.sh")
	}
	env := func(name string, def int) int {
		if v := os.Getenv(name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				b.Fatalf("%s: %v", name, err)
			}
			return n
		}
		return def
	}
	rule, err := engine.ParseCapture(get(os.Getenv("KALAH_GAMES_RULE"), "no-empty-capture"))
	if err != nil {
		b.Fatal(err)
	}
	games, seed := env("KALAH_GAMES_N", 200), uint64(env("KALAH_GAMES_SEED", 1))
	opts := Options{StoreDir: store, EGDBDir: os.Getenv("KALAH_GAMES_EGDB"), Threads: env("KALAH_GAMES_THREADS", 0), MaxQueue: -1}
	opts.NoEGDB = opts.EGDBDir == ""
	opts.TableBytes = int64(env("KALAH_GAMES_TT_MIB", 0)) << 20
	if c := os.Getenv("KALAH_GAMES_CAP"); c != "" {
		if opts.SolveTimeout, err = time.ParseDuration(c); err != nil {
			b.Fatalf("KALAH_GAMES_CAP: %v", err)
		}
	}
	var out *bufio.Writer
	if path := os.Getenv("KALAH_GAMES_OUT"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		out = bufio.NewWriter(f)
		defer out.Flush()
		fmt.Fprintf(out, "game\tply\tseeds\twall_s\tcpu_s\tnodes\tfrom_store\tsolved\tposition\tto_move\n")
	}
	r, err := engine.NewRules(env("KALAH_GAMES_PITS", 6), rule)
	if err != nil {
		b.Fatal(err)
	}
	start, err := r.StartPosition(env("KALAH_GAMES_SEEDS", 4))
	if err != nil {
		b.Fatal(err)
	}
	s := New(opts)
	hs := httptest.NewServer(s)
	defer func() {
		hs.Close()
		if err := s.Close(); err != nil {
			b.Error(err)
		}
	}()
	// As 'kalah serve' does at start (KALAH_GAMES_NO_WARM=1 does not).
	if os.Getenv("KALAH_GAMES_NO_WARM") == "" {
		w, err := s.Warm(context.Background(), r.Pits, env("KALAH_GAMES_SEEDS", 4), rule)
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("warmed in %v: %d-byte table, %d-seed database", w.Took, w.TableBytes, w.EGDBSeeds)
	}
	var wall, cpu []float64
	b.ResetTimer()
	for range b.N {
		wall, cpu = wall[:0], cpu[:0]
		capped := 0
		for g := range games {
			rng := rand.New(rand.NewPCG(seed, uint64(g)))
			p := start
			for ply := 0; !p.Board.Over(); ply++ {
				c0, t0 := cpuSeconds(b), time.Now()
				var rep solveReply
				path := fmt.Sprintf("/api/solve?%s&seeds=%d", query(rule, p), env("KALAH_GAMES_SEEDS", 4))
				if code := fetchJSON(b, hs, path, &rep); code != 200 {
					b.Fatalf("%s: status %d", path, code)
				}
				w, c := time.Since(t0).Seconds(), cpuSeconds(b)-c0
				wall, cpu = append(wall, w), append(cpu, c)
				if !rep.Solved {
					capped++
				}
				if out != nil {
					fmt.Fprintf(out, "%d\t%d\t%d\t%.3f\t%.3f\t%d\t%v\t%v\t%s\t%s\n", g, ply, p.Board.Seeds(), w, c, rep.Nodes, rep.FromStore, rep.Solved, p, p.ToMove)
					out.Flush()
				}
				moves := p.Board.MoveList()
				p, _ = r.PlayPosition(p, moves[rng.IntN(len(moves))])
			}
		}
		slices.Sort(wall)
		slices.Sort(cpu)
		b.ReportMetric(float64(len(wall)), "positions")
		b.ReportMetric(float64(capped), "capped")
		b.ReportMetric(quantile(wall, 0.5), "median-s")
		b.ReportMetric(quantile(wall, 0.99), "p99-s")
		b.ReportMetric(wall[len(wall)-1], "max-s")
		b.ReportMetric(cpu[len(cpu)-1], "max-cpu-s")
	}
}

// quantile is the q-quantile of sorted xs (the nearest rank).
func quantile(xs []float64, q float64) float64 {
	i := int(q*float64(len(xs))+0.5) - 1
	return xs[max(0, min(i, len(xs)-1))]
}

// cpuSeconds is the process's CPU time so far, user and system.
func cpuSeconds(tb testing.TB) float64 {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano()).Seconds()
}
