package playcmd

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/play"
	"github.com/kalah-solver/kalah/results"
)

const help = `commands: a move (letter, or pit number 1..m from the mover's left)
  values   every move's exact value        hint    the best move
  pv       a perfect game from here        undo    take back
  level L  easy, medium or perfect         new     start again
  board    draw the board                  quit    stop (so does end of input)
`

// loop reads commands, one a line, until quit or the end of input.
func (g *game) loop(ctx context.Context) error {
	w := g.opts.IO.Out
	fmt.Fprintf(w, "%s, rule %s; ", g.title, g.line.Variant.Rule)
	if g.mode == "play" {
		fmt.Fprintf(w, "you play %s against the computer (%s, seed %d)\n", g.you, g.level.Name, g.opts.Seed)
	} else {
		fmt.Fprintln(w, "explore: you play both sides")
	}
	fmt.Fprint(w, "type a move, or help\n")
	g.printBoard(w)
	if err := g.turn(ctx); err != nil {
		return err
	}
	in := g.reader
	for {
		text, err := in.ReadLine(g.prompt())
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		f := strings.Fields(text)
		if len(f) == 0 {
			continue
		}
		quit, err := g.command(ctx, w, f)
		if err != nil {
			if err == cmdutil.ErrInterrupted {
				return err
			}
			fmt.Fprintf(w, "%v\n", err)
		}
		if quit {
			return nil
		}
	}
}

// prompt is the command prompt: the side to move and, on a terminal, its
// legal moves.
func (g *game) prompt() string {
	p := g.line.Current()
	if p.Board.Over() {
		return "(game over: undo, new or quit)> "
	}
	if !g.color {
		return fmt.Sprintf("%s> ", p.ToMove)
	}
	var moves []string
	for _, i := range p.Board.MoveList() {
		moves = append(moves, engine.MoveLetter(p.ToMove, i))
	}
	return fmt.Sprintf("%s [%s]> ", p.ToMove, strings.Join(moves, " "))
}

// command runs one command line; quit says to stop.
func (g *game) command(ctx context.Context, w io.Writer, f []string) (quit bool, err error) {
	switch strings.ToLower(f[0]) {
	case "q", "quit", "exit":
		return true, nil
	case "?", "help":
		fmt.Fprint(w, help)
	case "board":
		g.printBoard(w)
	case "v", "values", "hint", "pv":
		if g.line.Current().Board.Over() {
			return false, fmt.Errorf("the game is over")
		}
		res, err := g.solve(ctx)
		if err != nil {
			return false, err
		}
		switch strings.ToLower(f[0]) {
		case "hint":
			fmt.Fprintln(w, hint(res.Record.Best, res.Record.Moves, res.Record.Value))
		case "pv":
			fmt.Fprintf(w, "perfect game: %s (value %s for %s)\n", orNone(res.Record.PVLetters), results.Signed(res.Value), res.Record.ToMove)
		default:
			printValues(w, res)
		}
	case "u", "undo":
		g.undo()
		g.printBoard(w)
		return false, g.turn(ctx)
	case "new":
		g.line.Undo(len(g.line.Steps))
		g.printBoard(w)
		return false, g.turn(ctx)
	case "level":
		if len(f) < 2 {
			return false, fmt.Errorf("level: name one of easy, medium, perfect")
		}
		lv, err := play.ParseLevel(f[1])
		if err != nil {
			return false, err
		}
		g.level = lv
		fmt.Fprintf(w, "the computer plays at level %s\n", lv.Name)
	default:
		if len(f) > 1 {
			return false, fmt.Errorf("unknown command %q (help lists them)", strings.Join(f, " "))
		}
		p := g.line.Current()
		if g.mode == "play" && !p.Board.Over() && p.ToMove != g.you {
			return false, fmt.Errorf("it is the computer's move")
		}
		if err := g.line.Play(f[0]); err != nil {
			return false, err
		}
		g.printBoard(w)
		return false, g.turn(ctx)
	}
	return false, nil
}

// turn lets the computer move while it is its turn, then, at the end of
// the game, prints the score.
func (g *game) turn(ctx context.Context) error {
	w := g.opts.IO.Out
	for g.mode == "play" && !g.line.Current().Board.Over() && g.line.Current().ToMove != g.you {
		res, err := g.solve(ctx)
		if err != nil {
			return err
		}
		mv, ok := g.level.Choose(res.Record, g.opts.Seed)
		if !ok {
			return fmt.Errorf("no move to choose in %v", g.line.Current())
		}
		fmt.Fprintf(w, "the computer (%s) plays %s: %s %s\n", g.level.Name, mv.Move, results.Signed(mv.Value), outcome(mv.Value))
		if err := g.line.Play(mv.Move); err != nil {
			return err
		}
		g.printBoard(w)
	}
	p := g.line.Current()
	if p.Board.Over() {
		h := p.Holes()
		fmt.Fprintf(w, "game over: South %d, North %d: %s", h[p.Pits], h[2*p.Pits+1], cmdutil.Outcome(p.SouthDiff()))
		if g.mode == "play" {
			switch d := p.SouthDiff(); {
			case d == 0:
				fmt.Fprint(w, " (a draw)")
			case (d > 0) == (g.you == engine.South):
				fmt.Fprint(w, " (you win)")
			default:
				fmt.Fprint(w, " (you lose)")
			}
		}
		fmt.Fprintln(w)
	}
	return nil
}

// undo takes back one sowing in explore mode; in play mode, everything
// back to before the player's last sowing.
func (g *game) undo() {
	steps := g.line.Steps
	if g.mode != "play" {
		g.line.Undo(1)
		return
	}
	j := len(steps) - 1
	for j >= 0 && steps[j].Ply.Side != g.you {
		j--
	}
	g.line.Undo(len(steps) - max(j, 0))
}

// hint says which move is best and what it gains against the others.
func hint(best []string, moves []results.MoveValue, value int) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "hint: play %s (%s %s)", strings.Join(best, " or "), results.Signed(value), outcome(value))
	isBest := map[string]bool{}
	for _, b := range best {
		isBest[b] = true
	}
	next, found := 0, false
	for _, m := range moves {
		if !isBest[m.Move] && (!found || m.Value > next) {
			next, found = m.Value, true
		}
	}
	if found {
		fmt.Fprintf(&sb, "; the next best move gives %s (%s)", results.Signed(next), outcome(next))
	} else {
		sb.WriteString("; every move is as good")
	}
	return sb.String()
}
