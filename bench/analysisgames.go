//go:build ignore

// analysisgames writes the games of the analysis measurement
// (bench/analysis.sh) and sums up what 'kalah analyze --json' printed of
// them:
//
//	go run bench/analysisgames.go random RULE N SEED > games.txt
//	go run bench/analysisgames.go levels RULE N SEED EGDB > games.txt
//	go run bench/analysisgames.go summary < analysis.jsonl
//
// random: N games of Kalah(6,4) under RULE, each move chosen uniformly
// among the legal ones (PCG seeded by SEED and the game's number).
// levels: N games between the play levels (play.Levels), the pairs
// easy-medium, medium-perfect, easy-perfect and each level against itself
// in turn, South and North swapped every other game; each move is the
// level's choice (play.Level.Choose, seeded by SEED plus the game's number)
// from every move's exact value, solved with the database EGDB and no
// cache. summary: the bench.Record metrics (JSON) of the analyses: games,
// whole-game seconds and nodes, each move's seconds, and by groups of
// plies (the median and largest, and the 99th percentile, nearest rank).
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/bench"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/play"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "analysisgames:", err)
		os.Exit(2)
	}
}

func run(args []string) error {
	if len(args) == 1 && args[0] == "summary" {
		return summary()
	}
	if len(args) < 4 {
		return fmt.Errorf("usage: random RULE N SEED | levels RULE N SEED EGDB | summary")
	}
	rule, err := engine.ParseRule(args[1])
	if err != nil {
		return err
	}
	n, err := strconv.Atoi(args[2])
	if err != nil {
		return err
	}
	seed, err := strconv.ParseUint(args[3], 10, 64)
	if err != nil {
		return err
	}
	r, err := engine.NewVariant(6, rule)
	if err != nil {
		return err
	}
	start, err := r.StartPosition(4)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	fmt.Fprintf(w, "# pits=6 seeds=4 rule=%v format=notation\n", rule)
	switch {
	case args[0] == "random":
		for g := range n {
			rng := rand.New(rand.NewPCG(seed, uint64(g)))
			fmt.Fprintln(w, engine.FormatLetters(randomGame(r, start, rng)))
		}
		return nil
	case args[0] == "levels" && len(args) == 5:
		k, err := kalah.Open(kalah.Config{Rule: rule, EGDBDir: args[4], NoCache: true})
		if err != nil {
			return err
		}
		defer k.Close()
		pairs := [][2]int{{0, 1}, {1, 2}, {0, 2}, {0, 0}, {1, 1}, {2, 2}}
		for g := range n {
			pr := pairs[(g/2)%len(pairs)]
			if g%2 == 1 {
				pr[0], pr[1] = pr[1], pr[0]
			}
			line, err := levelGame(k, start, play.Levels[pr[0]], play.Levels[pr[1]], seed+uint64(g))
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "# game %d: south %s, north %s\n%s\n", g+1, play.Levels[pr[0]].Name, play.Levels[pr[1]].Name, engine.FormatLetters(line))
			w.Flush()
		}
		return nil
	}
	return fmt.Errorf("unknown mode %q", args[0])
}

func randomGame(r engine.Variant, p engine.Position, rng *rand.Rand) []engine.Ply {
	var line []engine.Ply
	for !p.Board.Over() {
		var legal []int
		for i := range r.Pits {
			if p.Board.Pit(i) > 0 {
				legal = append(legal, i)
			}
		}
		i := legal[rng.IntN(len(legal))]
		line = append(line, engine.Ply{Side: p.ToMove, Pit: i})
		p, _ = r.PlayPosition(p, i)
	}
	return line
}

func levelGame(k *kalah.Session, p engine.Position, south, north play.Level, seed uint64) ([]engine.Ply, error) {
	r := k.Variant()
	var line []engine.Ply
	for !p.Board.Over() {
		res, err := k.Solve(context.Background(), p)
		if err != nil {
			return nil, err
		}
		lv := south
		if p.ToMove == engine.North {
			lv = north
		}
		mv, ok := lv.Choose(res.Record, seed)
		if !ok {
			return nil, fmt.Errorf("%v: no move to choose", p)
		}
		i := mv.Pit - 1
		line = append(line, engine.Ply{Side: p.ToMove, Pit: i})
		p, _ = r.PlayPosition(p, i)
	}
	return line, nil
}

// plyGroups are the summary's groups of plies: [from, to], 0 for no end.
var plyGroups = [][2]int{{1, 5}, {6, 10}, {11, 15}, {16, 20}, {21, 30}, {31, 0}}

func summary() error {
	var game, nodes, moves []float64
	byGroup := make([][]float64, len(plyGroups))
	bound := 0
	dec := json.NewDecoder(bufio.NewReader(os.Stdin))
	for {
		var a kalah.Analysis
		if err := dec.Decode(&a); err != nil {
			if err.Error() == "EOF" {
				break
			}
			return err
		}
		if a.Bound {
			bound++
		}
		if a.Value-a.End != a.South.Loss-a.North.Loss {
			return fmt.Errorf("game %q: start %d - end %d != south's loss %d - north's %d", a.Line, a.Value, a.End, a.South.Loss, a.North.Loss)
		}
		game = append(game, a.Seconds)
		nodes = append(nodes, float64(a.Nodes)/1e6)
		for _, m := range a.Moves {
			moves = append(moves, m.Seconds)
			for j, g := range plyGroups {
				if m.Ply >= g[0] && (g[1] == 0 || m.Ply <= g[1]) {
					byGroup[j] = append(byGroup[j], m.Seconds)
				}
			}
		}
	}
	if len(game) == 0 {
		return fmt.Errorf("no analyses read")
	}
	ms := []bench.Metric{value("games", float64(len(game))), value("games with a bound", float64(bound))}
	ms = append(ms, spread("game s", game, 3)...)
	ms = append(ms, median("game M nodes", nodes, 3))
	ms = append(ms, spread("move s", moves, 3)...)
	for j, g := range plyGroups {
		name := fmt.Sprintf("plies %d-%d", g[0], g[1])
		if g[1] == 0 {
			name = fmt.Sprintf("plies %d+", g[0])
		}
		if len(byGroup[j]) > 0 {
			ms = append(ms, spread(name+" s", byGroup[j], 3)...)
		}
	}
	out, err := json.Marshal(ms)
	if err != nil {
		return err
	}
	fmt.Println(string(out))
	return nil
}

func round(x float64, digits int) *float64 {
	if x == 0 {
		return &x
	}
	// digits significant figures, at most 4 decimals
	d := digits - 1 - int(math.Floor(math.Log10(math.Abs(x))))
	d = min(max(d, 0), 4)
	p := math.Pow(10, float64(d))
	v := math.Round(x*p) / p
	return &v
}

func value(name string, x float64) bench.Metric { return bench.Metric{Name: name, Value: &x} }

// rank is the nearest-rank q-quantile of sorted xs.
func rank(xs []float64, q float64) float64 {
	i := int(math.Ceil(q*float64(len(xs)))) - 1
	return xs[min(max(i, 0), len(xs)-1)]
}

func median(name string, xs []float64, digits int) bench.Metric {
	xs = slices.Sorted(slices.Values(xs))
	return bench.Metric{Name: name, Median: round(rank(xs, 0.5), digits), Max: round(xs[len(xs)-1], digits)}
}

// spread is the median and largest of xs, and its 99th percentile.
func spread(name string, xs []float64, digits int) []bench.Metric {
	xs = slices.Sorted(slices.Values(xs))
	return []bench.Metric{median(name, xs, digits),
		{Name: name[:len(name)-2] + " 99th percentile s", Value: round(rank(xs, 0.99), digits)}}
}
