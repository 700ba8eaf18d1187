// Package bench is kalah's fixed benchmark: a suite of positions, each
// solved by a fresh solver with a fixed table size, whose total node count
// is a behavioural signature of the search (Stockfish's "Bench:" line).
//
// With one thread and no endgame database the search is deterministic, so
// the same build gives the same node count on every machine; a change to
// the search (move ordering, cut-offs, table replacement) shows as a new
// count. With several threads they race over the shared table and
// the count varies from run to run; only the speed is then meaningful.
//
// Every position is solved with (*solver.Solver).Solve, which is what the
// solve command runs: the value of every legal move and a principal
// variation, not only the root value.
package bench

import (
	"fmt"
	"strings"

	"github.com/kalah-solver/kalah/engine"
)

// DefaultTableSize is the table size of a benchmark run: small enough for any
// machine, fixed so that node counts compare across machines.
const DefaultTableSize = 64 << 20

// StartTableSize is the table size for the start positions of the full suite
// and the growth series: a 64 MiB table makes Kalah(6,4) many times slower
// (it thrashes), while 1 GiB is still within any machine that solves it.
const StartTableSize = 1 << 30

// Case is one position of the suite: a start position, or the position
// reached from it by a fixed sequence of moves.
type Case struct {
	Name    string         // short and unique, e.g. "6x5-e-03"
	Variant engine.Variant // pits and capture convention
	Seeds   int            // seeds per pit at the start
	// Moves are the sowings played from the start, space-separated, by
	// letter: a.. for South, A.. for North. Each letter names its side, so
	// a sequence that does not match the extra turns fails to parse.
	Moves string
	// TableSize is the case's table size when the run does not set one;
	// 0 means DefaultTableSize.
	TableSize int64
}

// Start reports whether the case is a start position.
func (c Case) Start() bool { return c.Moves == "" }

// Game is "Kalah(m,n)".
func (c Case) Game() string { return fmt.Sprintf("Kalah(%d,%d)", c.Variant.Pits, c.Seeds) }

// Position plays the case's moves from the start.
func (c Case) Position() (engine.Position, error) {
	p, err := c.Variant.StartPosition(c.Seeds)
	if err != nil {
		return p, fmt.Errorf("%s: %w", c.Name, err)
	}
	for k, mv := range strings.Fields(c.Moves) {
		i, err := engine.ParseMove(p, mv)
		if err != nil {
			return p, fmt.Errorf("%s: move %d: %w", c.Name, k+1, err)
		}
		p, _ = c.Variant.PlayPosition(p, i)
	}
	if p.Board.Over() {
		return p, fmt.Errorf("%s: the moves end the game", c.Name)
	}
	return p, nil
}

// Suites names the suites Suite knows, the default first.
var Suites = []string{"quick", "full"}

// Suite returns the named suite: "quick" is the mid-game positions,
// "full" adds the start positions of Kalah(6,3) and Kalah(6,4) under both
// rules.
func Suite(name string) ([]Case, error) {
	switch name {
	case "quick":
		return Quick(), nil
	case "full":
		return Full(), nil
	}
	return nil, fmt.Errorf("unknown suite %q: want %s", name, strings.Join(Suites, " or "))
}

// Quick returns the mid-game positions.
func Quick() []Case { return append([]Case(nil), midgame...) }

// Full returns the start positions of Kalah(6,3) and Kalah(6,4) under both
// rules, each with a StartTableSize table, then the mid-game positions.
func Full() []Case {
	var out []Case
	for _, n := range []int{3, 4} {
		for _, c := range engine.AllRules {
			out = append(out, Case{
				Name:      fmt.Sprintf("6x%d-%s-start", n, ruleTag(c)),
				Variant:   engine.Variant{Pits: 6, Rule: c},
				Seeds:     n,
				TableSize: StartTableSize,
			})
		}
	}
	return append(out, midgame...)
}

// ruleTag is "n" for no-empty-capture and "e" for empty-capture.
func ruleTag(c engine.Rule) string {
	if c == engine.EmptyCapture {
		return "e"
	}
	return "n"
}
