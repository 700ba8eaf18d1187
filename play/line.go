// Package play holds what the interactive front ends share: a line of
// play from a position with what each sowing did (captures, extra turns,
// the end of the game), and the levels of the computer player, which
// choose among the moves by their exact values. 'kalah serve' and 'kalah
// play' both use it; neither holds rules of its own.
package play

import (
	"fmt"
	"strings"

	"github.com/kalah-solver/kalah/engine"
)

// Step is one sowing of a line and the position it leads to.
type Step struct {
	Ply    engine.Ply
	Move   string          // the pit's letter, a.. for South, A.. for North
	Result engine.Result   // extra turn, capture, game over
	After  engine.Position // the position after the sowing
	// Captured is the seeds a capture banked, the last seed included (0
	// without a capture); CapturedFrom the opponent's pit it emptied.
	Captured     int
	CapturedFrom string
}

// Line is a start position and the sowings played from it.
type Line struct {
	Variant engine.Variant
	Start   engine.Position
	Steps   []Step
}

// Current is the position at the end of the line.
func (l *Line) Current() engine.Position {
	if len(l.Steps) == 0 {
		return l.Start
	}
	return l.Steps[len(l.Steps)-1].After
}

// Play sows the pit named by move (a letter or a 1-based number, as
// engine.ParseMove reads it) at the end of the line. An illegal move, or a
// move after the end of the game, is an error naming the ply.
func (l *Line) Play(move string) error {
	p := l.Current()
	ply := len(l.Steps) + 1
	if p.Board.Over() {
		return fmt.Errorf("ply %d (%s): the game is already over", ply, move)
	}
	i, err := engine.ParseMove(p, move)
	if err != nil {
		return fmt.Errorf("ply %d: %w", ply, err)
	}
	l.Steps = append(l.Steps, sow(l.Variant, p, i))
	return nil
}

// Undo takes back the last n sowings (all of them when n is larger).
func (l *Line) Undo(n int) {
	l.Steps = l.Steps[:max(0, len(l.Steps)-n)]
}

// Replay plays moves from start: the line they make, or an error naming
// the first bad one.
func Replay(r engine.Variant, start engine.Position, moves []string) (*Line, error) {
	l := &Line{Variant: r, Start: start}
	for _, m := range moves {
		if err := l.Play(m); err != nil {
			return l, err
		}
	}
	return l, nil
}

// SplitMoves reads a list of moves separated by commas or spaces
// ("c,f,B" or "c f B"); empty fields are skipped.
func SplitMoves(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
}

// Letters writes the line in the letter notation, turns separated by
// dashes ("cf-B").
func (l *Line) Letters() string {
	plies := make([]engine.Ply, len(l.Steps))
	for k, s := range l.Steps {
		plies[k] = s.Ply
	}
	return engine.FormatLetters(plies)
}

// sow plays the mover's pit i of p and says what happened.
func sow(r engine.Variant, p engine.Position, i int) Step {
	after, res := r.PlayPosition(p, i)
	st := Step{Ply: engine.Ply{Side: p.ToMove, Pit: i}, Move: engine.MoveLetter(p.ToMove, i), Result: res, After: after}
	if res.Capture() {
		n, from := capture(p, i)
		st.Captured, st.CapturedFrom = n, engine.MoveLetter(p.ToMove.Other(), from)
	}
	return st
}

// capture counts what a capturing sowing of the mover's pit i banks. The
// sowing runs round the mover's cycle of 2m+1 holes (own pits 0..m-1, own
// store m, the opponent's pits, skipping the opponent's store) and ends in
// an own pit; the pit facing it, the opponent's pit m-1-last, holds its
// seeds from before plus one for every lap of the sowing that passed it.
func capture(p engine.Position, i int) (seeds, from int) {
	m, s := p.Pits, p.Board.Pit(i)
	cycle := 2*m + 1
	last := (i + s) % cycle
	from = m - 1 - last
	first := m + 1 + from - i // the sowing's first seed there is its first-th
	laps := 0
	if s >= first {
		laps = (s-first)/cycle + 1
	}
	return p.Board.OppPit(from) + laps + 1, from
}
