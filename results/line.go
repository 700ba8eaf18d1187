package results

import (
	"fmt"
	"strings"

	"github.com/kalah-solver/kalah/engine"
)

// A line of play is written two ways.
//
// The paper's notation (Irving, Donkers & Uiterwijk 2000, Table 9): each
// sowing is one digit, the mover's pit numbered from 0 at the mover's left
// (the order it sows in); the sowings of one turn are written together and
// a dash marks a change of player. "45-3" is: the first player sows pit 4,
// earns an extra turn, sows pit 5; then the opponent sows pit 3.
//
// Letters: each sowing is its pit letter, a.. for South and A.. for North
// (engine.MoveLetter), turns separated the same way: "ef-D".
//
// Both are the notations of engine/line.go; this package keeps its own
// parser (written before that file was committed) because it also records
// the position before and after every sowing, which verify-line reports.

// Ply is one sowing of a line.
type Ply struct {
	Side   engine.Side
	Pit    int             // 0-based from the mover's left
	Before engine.Position // the position the sowing is played in
	After  engine.Position // the position after it, seen from the side to move next
	Result engine.Result
}

// Line is a sequence of sowings from a position.
type Line struct {
	Rules engine.Rules
	Start engine.Position
	Plies []Ply
}

// End is the position after the last sowing.
func (l Line) End() engine.Position {
	if len(l.Plies) == 0 {
		return l.Start
	}
	return l.Plies[len(l.Plies)-1].After
}

// Pits returns the 0-based pits of the plies [i, j), clipped to the line.
func (l Line) Pits(i, j int) []int {
	j = min(j, len(l.Plies))
	var out []int
	for k := i; k < j; k++ {
		out = append(out, l.Plies[k].Pit)
	}
	return out
}

// FirstTurn returns the pits of the first turn: the sowings up to and
// including the first one after which the turn passes or the game ends.
func (l Line) FirstTurn() []int {
	for k, p := range l.Plies {
		if !p.Result.Extra() {
			return l.Pits(0, k+1)
		}
	}
	return l.Pits(0, len(l.Plies))
}

// Append plays pit i and adds it to the line; it fails when the move is
// illegal.
func (l *Line) Append(i int) error {
	p := l.End()
	n := len(l.Plies) + 1
	if p.Board.Over() {
		return fmt.Errorf("ply %d: the game is already over", n)
	}
	if i < 0 || i >= p.Pits {
		return fmt.Errorf("ply %d: pit %d does not exist (pits 0..%d)", n, i, p.Pits-1)
	}
	if p.Board.Pit(i) == 0 {
		return fmt.Errorf("ply %d: %s's pit %d (%s) is empty", n, p.ToMove, i, engine.MoveLetter(p.ToMove, i))
	}
	next, res := l.Rules.PlayPosition(p, i)
	l.Plies = append(l.Plies, Ply{Side: p.ToMove, Pit: i, Before: p, After: next, Result: res})
	return nil
}

// ParsePaper reads a line in the paper's notation from start; see
// parseTurns for what it checks.
func ParsePaper(rules engine.Rules, start engine.Position, text string) (Line, error) {
	return parseTurns(rules, start, text, func(c rune, _ engine.Side) (int, bool) {
		return int(c - '0'), c >= '0' && c < '0'+rune(rules.Pits)
	})
}

// ParseLetters reads a line of pit letters from start ("ef-D", a.. South,
// A.. North); see parseTurns for what it checks.
func ParseLetters(rules engine.Rules, start engine.Position, text string) (Line, error) {
	return parseTurns(rules, start, text, func(c rune, side engine.Side) (int, bool) {
		lo := 'a'
		if side == engine.North {
			lo = 'A'
		}
		return int(c - lo), c >= lo && c < lo+rune(rules.Pits)
	})
}

// parseTurns reads a line turn by turn, the turns separated by dashes,
// playing it from start; pit reads one sowing for the side to move. Spaces
// are ignored. Every sowing must be legal; within a turn every sowing but
// the last must earn an extra turn (or end the game), and the last of a
// turn followed by a dash must pass the turn. The line may stop anywhere,
// also in the middle of a turn.
func parseTurns(rules engine.Rules, start engine.Position, text string, pit func(c rune, side engine.Side) (int, bool)) (Line, error) {
	l := Line{Rules: rules, Start: start}
	text = strings.Join(strings.Fields(text), "")
	if text == "" {
		return l, nil
	}
	groups := strings.Split(text, "-")
	for g, grp := range groups {
		if grp == "" {
			return l, fmt.Errorf("turn %d of %q is empty: two dashes in a row, or a dash at an end", g+1, text)
		}
		rs := []rune(grp)
		for k, c := range rs {
			p := l.End()
			if p.Board.Over() {
				return l, fmt.Errorf("turn %d (%s): %q comes after the end of the game", g+1, grp, c)
			}
			i, ok := pit(c, p.ToMove)
			if !ok {
				return l, fmt.Errorf("turn %d (%s): %q is not a pit of %s, who is to move (%d pits)", g+1, grp, c, p.ToMove, rules.Pits)
			}
			if err := l.Append(i); err != nil {
				return l, fmt.Errorf("turn %d (%s): %w", g+1, grp, err)
			}
			res := l.Plies[len(l.Plies)-1].Result
			last := k == len(rs)-1
			switch {
			case !last && !res.Extra() && !res.Over():
				return l, fmt.Errorf("turn %d (%s): %q earns no extra turn, so the turn passes there (a dash is missing)", g+1, grp, c)
			case last && res.Extra() && g < len(groups)-1:
				return l, fmt.Errorf("turn %d (%s): %q earns an extra turn, but the dash after it passes the turn", g+1, grp, c)
			}
		}
	}
	return l, nil
}

// FormatPaper writes the line in the paper's notation, e.g. "45-3".
func (l Line) FormatPaper() string {
	return l.format(func(p Ply) string { return string(rune('0' + p.Pit)) })
}

// FormatLetters writes the line in pit letters, e.g. "ef-D".
func (l Line) FormatLetters() string {
	return l.format(func(p Ply) string { return engine.MoveLetter(p.Side, p.Pit) })
}

func (l Line) format(name func(Ply) string) string {
	var sb strings.Builder
	for k, p := range l.Plies {
		if k > 0 && p.Side != l.Plies[k-1].Side {
			sb.WriteByte('-')
		}
		sb.WriteString(name(p))
	}
	return sb.String()
}

// LineFromPits plays 0-based pits from start.
func LineFromPits(rules engine.Rules, start engine.Position, pits []int) (Line, error) {
	l := Line{Rules: rules, Start: start}
	for _, i := range pits {
		if err := l.Append(i); err != nil {
			return l, err
		}
	}
	return l, nil
}
