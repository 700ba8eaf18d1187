package kalah

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/results"
)

// An analysis says, move by move, how much of the margin each sowing of a
// game gave away under perfect play. Values are South's: South's final
// store minus North's under perfect play from the position on, stores
// counted. The value of the move played is the value of the position it
// leads to; the mover's best is the value of the position before it, so
// the move's loss is the difference, counted for the mover (never
// negative). Summed over the game, South's losses minus North's are the
// start's value minus the value of the last position (the final margin
// when the game is over).
//
// The searches are in analyzesearch.go.

// Class is a move's class by the seeds of margin it loses.
type Class string

// The classes, from no loss up (Thresholds draws the lines).
const (
	ClassBest       Class = "best"       // keeps the value: loses nothing
	ClassGood       Class = "good"       // loses less than Thresholds.Inaccuracy
	ClassInaccuracy Class = "inaccuracy" // loses Inaccuracy or more, less than Mistake
	ClassMistake    Class = "mistake"    // loses Mistake or more, less than Blunder
	ClassBlunder    Class = "blunder"    // loses Blunder or more
)

// Classes lists the classes, best first.
var Classes = []Class{ClassBest, ClassGood, ClassInaccuracy, ClassMistake, ClassBlunder}

// Thresholds are the least loss, in seeds, of each class past good: a move
// that loses nothing is best, one that loses less than Inaccuracy good.
type Thresholds struct {
	Inaccuracy int `json:"inaccuracy"`
	Mistake    int `json:"mistake"`
	Blunder    int `json:"blunder"`
}

// DefaultThresholds: a loss of 1 seed is good, 2-3 an inaccuracy, 4-7 a
// mistake, 8 or more a blunder.
var DefaultThresholds = Thresholds{Inaccuracy: 2, Mistake: 4, Blunder: 8}

// Validate checks that 1 <= Inaccuracy <= Mistake <= Blunder.
func (t Thresholds) Validate() error {
	if t.Inaccuracy < 1 || t.Mistake < t.Inaccuracy || t.Blunder < t.Mistake {
		return fmt.Errorf("class thresholds %d, %d, %d: want 1 <= inaccuracy <= mistake <= blunder", t.Inaccuracy, t.Mistake, t.Blunder)
	}
	return nil
}

// Classify is the class of a move that loses loss seeds.
func (t Thresholds) Classify(loss int) Class {
	switch {
	case loss <= 0:
		return ClassBest
	case loss < t.Inaccuracy:
		return ClassGood
	case loss < t.Mistake:
		return ClassInaccuracy
	case loss < t.Blunder:
		return ClassMistake
	}
	return ClassBlunder
}

// AnalyzeOptions tune an analysis; the zero value is the default.
type AnalyzeOptions struct {
	// Thresholds draw the classes; the zero value means
	// DefaultThresholds.
	Thresholds Thresholds
	// AllBest names every best move of every position (a null-window test
	// of each other move); by default a move that keeps the value is named
	// alone, and where the move played loses, the first best move found.
	AllBest bool
	// PositionTime, if positive, bounds the search of one position (its
	// value and its best-move tests): past it the figures are the bounds
	// proven so far, flagged Bound.
	PositionTime time.Duration
	// Progress, if not nil, is called after each move's analysis with the
	// moves done and the game's total.
	Progress func(done, total int)
}

// Interval is a proven range [Lower, Upper] of a figure that is a bound.
type Interval struct {
	Lower int `json:"lower"`
	Upper int `json:"upper"`
}

// MoveAnalysis is one sowing of a game, analysed. Values are South's;
// Loss is the mover's. When Bound is set, a figure is not exact: Before,
// After and Loss then hold the lower end of the interval given beside
// them (BeforeBounds, AfterBounds, LossBounds), Class is that of the
// least loss proven, and Best may be incomplete or empty.
type MoveAnalysis struct {
	Ply       int    `json:"ply"`              // 1-based
	Side      string `json:"side"`             // the mover: "south" or "north"
	Move      string `json:"move"`             // the pit letter
	Pit       int    `json:"pit"`              // 0-based from the mover's left (the paper's digit)
	Action    int    `json:"openspiel_action"` // the same sowing as an OpenSpiel action
	Position  string `json:"position"`         // the position before the move
	ExtraTurn bool   `json:"extra_turn"`       // the move earns another
	Before    int    `json:"before"`           // the position's value
	After     int    `json:"after"`            // the value of the move played
	// Best are the moves that keep the value (pit letters in pit order);
	// BestValue, their value, is Before.
	Best      []string `json:"best"`
	BestValue int      `json:"best_value"`
	Loss      int      `json:"loss"` // seeds of margin the move gives away, for its mover
	Class     Class    `json:"class"`
	Bound     bool     `json:"bound"`
	// Source says where the value before came from: "book", "cache",
	// "test" (one null-window test: the move before kept the value),
	// "search", or "over" (a finished game needs none).
	Source       string    `json:"source"`
	Seconds      float64   `json:"seconds"` // the time this move's figures took
	BeforeBounds *Interval `json:"before_bounds,omitempty"`
	AfterBounds  *Interval `json:"after_bounds,omitempty"`
	LossBounds   *Interval `json:"loss_bounds,omitempty"`
}

// Mistake names one of a side's costly moves.
type Mistake struct {
	Ply   int    `json:"ply"`
	Move  string `json:"move"`
	Loss  int    `json:"loss"`
	Class Class  `json:"class"`
}

// SideAnalysis sums up one side's moves. Accuracy is the share of its
// moves that keep the value (class best), 1 when it made none. With
// Bound, Loss is the least total loss proven and LossUpper the most.
type SideAnalysis struct {
	Side     string        `json:"side"`
	Moves    int           `json:"moves"`
	Best     int           `json:"best"`
	Classes  map[Class]int `json:"classes"`
	Loss     int           `json:"loss"`
	Accuracy float64       `json:"accuracy"`
	// Largest are the side's largest losses, largest first (the earlier
	// of two equal ones first), at most three, losing moves only.
	Largest   []Mistake `json:"largest_mistakes"`
	Bound     bool      `json:"bound"`
	LossUpper *int      `json:"loss_upper,omitempty"`
}

// Analysis is a game analysed. Value is the start's value, End the last
// position's (the final margin when Over); with every figure exact,
// Value - End == South.Loss - North.Loss.
type Analysis struct {
	Game       Game           `json:"game"`
	Rule       string         `json:"rule"`
	Pits       int            `json:"pits"`
	Seeds      int            `json:"seeds,omitempty"`
	Start      string         `json:"start"`
	ToMove     string         `json:"to_move"`
	Line       string         `json:"line"` // the moves in pit letters
	Value      int            `json:"value"`
	End        int            `json:"end"`
	Over       bool           `json:"game_over"`
	Bound      bool           `json:"bound"` // some figure is a bound
	Moves      []MoveAnalysis `json:"moves"`
	South      SideAnalysis   `json:"south"`
	North      SideAnalysis   `json:"north"`
	Thresholds Thresholds     `json:"thresholds"`
	EGDBSeeds  int            `json:"egdb_seeds"`
	Nodes      int64          `json:"nodes"`
	Seconds    float64        `json:"seconds"`
}

// posValue is one position's value for South, an interval while unproven.
type posValue struct {
	lo, hi int
	rec    *results.Record // the root record that answered it, if one did
	source string
}

// Analyze analyses game g, which must be of the session's pits and rule:
// every move's value before and after, its best moves, loss and class,
// and each side's sums. An illegal move is a *MoveError. When ctx ends
// first it returns the moves analysed so far with an error wrapping
// solver.ErrInterrupted.
func (k *Session) Analyze(ctx context.Context, g Game, opt AnalyzeOptions) (*Analysis, error) {
	t0 := time.Now()
	th := opt.Thresholds
	if th == (Thresholds{}) {
		th = DefaultThresholds
	}
	if err := th.Validate(); err != nil {
		return nil, err
	}
	if g.Pits != k.rules.Pits || g.Rule != k.rules.Rule {
		return nil, fmt.Errorf("the game is Kalah(%d) under %s; the session is for %v", g.Pits, g.Rule, k.rules)
	}
	ps, err := g.Positions()
	if err != nil {
		return nil, err
	}
	a := &Analysis{Game: g, Rule: g.Rule.String(), Pits: g.Pits, Seeds: g.Seeds, Start: ps[0].String(), ToMove: ps[0].ToMove.String(),
		Line: engine.FormatLetters(g.Moves), Moves: []MoveAnalysis{}, Thresholds: th, EGDBSeeds: -1}
	if err := k.autoEGDB(ctx, ps[0].Board.Seeds()); err != nil {
		return nil, err
	}
	nodes0 := k.Stats().Nodes
	defer func() {
		a.Nodes = k.Stats().Nodes - nodes0
		a.Seconds = time.Since(t0).Seconds()
		a.EGDBSeeds = k.EGDBSeeds()
		a.sum()
	}()
	lim, cancel := limit(ctx, opt.PositionTime)
	cur, err := k.southValue(lim, ctx, ps[0])
	cancel()
	if err != nil {
		return a, err
	}
	a.Value = cur.lo
	a.Bound = cur.lo != cur.hi
	for i, pl := range g.Moves {
		t := time.Now()
		lim, cancel := limit(ctx, opt.PositionTime)
		next, err := k.nextValue(lim, ctx, ps[i], pl.Pit, ps[i+1], cur)
		if err != nil {
			cancel()
			return a, err
		}
		mv, err := k.analyzeMove(lim, ctx, ps[i], pl, cur, next, th, opt)
		cancel()
		mv.Ply = i + 1
		mv.Seconds = time.Since(t).Seconds()
		if err != nil {
			return a, err
		}
		a.Moves = append(a.Moves, mv)
		a.Bound = a.Bound || mv.Bound
		cur = next
		if opt.Progress != nil {
			opt.Progress(i+1, len(g.Moves))
		}
	}
	a.End = cur.lo
	a.Over = ps[len(ps)-1].Board.Over()
	return a, nil
}

// sum fills in each side's sums from the moves.
func (a *Analysis) sum() {
	a.South, a.North = sideSum(a.Moves, engine.South), sideSum(a.Moves, engine.North)
}

func sideSum(moves []MoveAnalysis, s engine.Side) SideAnalysis {
	sa := SideAnalysis{Side: s.String(), Classes: map[Class]int{}, Largest: []Mistake{}, Accuracy: 1}
	for _, c := range Classes {
		sa.Classes[c] = 0
	}
	hi := 0
	for _, m := range moves {
		if m.Side != sa.Side {
			continue
		}
		sa.Moves++
		sa.Classes[m.Class]++
		sa.Loss += m.Loss
		hi += m.Loss
		if m.LossBounds != nil {
			sa.Bound = true
			hi += m.LossBounds.Upper - m.Loss
		}
		if m.Class == ClassBest && m.LossBounds == nil {
			sa.Best++
		}
		if m.Loss > 0 {
			sa.Largest = append(sa.Largest, Mistake{Ply: m.Ply, Move: m.Move, Loss: m.Loss, Class: m.Class})
		}
	}
	if sa.Moves > 0 {
		sa.Accuracy = float64(sa.Best) / float64(sa.Moves)
	}
	if sa.Bound {
		sa.LossUpper = &hi
	}
	sort.SliceStable(sa.Largest, func(i, j int) bool { return sa.Largest[i].Loss > sa.Largest[j].Loss })
	if len(sa.Largest) > 3 {
		sa.Largest = sa.Largest[:3]
	}
	return sa
}
