package play

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"

	"github.com/kalah-solver/kalah/results"
)

// Level is how well the computer plays. Every level reads the exact value
// of each legal move (a full solve of the position) and chooses, uniformly
// at random, among the moves that give away at most Slack seeds of final
// margin against the best move: the perfect player only among the best
// moves, the weaker ones also among moves that win by less, draw instead
// of winning, or lose slightly. The choice is reproducible: the random
// source is seeded by the game's seed and the position, so the same seed
// makes the same choice in the same position, in the terminal and on the
// web page alike.
type Level struct {
	Name  string
	Slack int // seeds of margin the level may give away
}

// Levels are the computer's levels, weakest first.
var Levels = []Level{
	{Name: "easy", Slack: 8},
	{Name: "medium", Slack: 3},
	{Name: "perfect", Slack: 0},
}

// ParseLevel reads a level by its name or its 1-based number in Levels.
func ParseLevel(s string) (Level, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	for k, l := range Levels {
		if s == l.Name || s == fmt.Sprint(k+1) {
			return l, nil
		}
	}
	names := make([]string, len(Levels))
	for k, l := range Levels {
		names[k] = l.Name
	}
	return Level{}, fmt.Errorf("level %q: want one of %s (or 1..%d)", s, strings.Join(names, ", "), len(Levels))
}

// Candidates are the moves of rec (a solved position with every move's
// value) that the level may play, in pit order.
func (l Level) Candidates(rec *results.Record) []results.MoveValue {
	best := rec.Value
	if len(rec.Moves) > 0 {
		best = rec.Moves[0].Value
		for _, m := range rec.Moves {
			best = max(best, m.Value)
		}
	}
	var out []results.MoveValue
	for _, m := range rec.Moves {
		if m.Value >= best-l.Slack {
			out = append(out, m)
		}
	}
	return out
}

// Choose picks the level's move in the solved position rec, with the
// random source seeded by seed and the position; ok is false when rec
// has no moves (the game is over, or the solve was value-only).
func (l Level) Choose(rec *results.Record, seed uint64) (mv results.MoveValue, ok bool) {
	c := l.Candidates(rec)
	if len(c) == 0 {
		return mv, false
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%s|%d|%s|%s", rec.Rule, rec.Pits, rec.Position, rec.ToMove)
	rng := rand.New(rand.NewPCG(seed, h.Sum64()))
	return c[rng.IntN(len(c))], true
}
