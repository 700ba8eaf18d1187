package engine

import (
	"fmt"
	"strings"
)

// Lines of play. A line is a sequence of sowings (plies). It is written
// turn by turn, the turns separated by "-": a turn is one player's chain of
// sowings, every one but the last earning an extra turn. Two notations:
//
//	letters  each sowing by its pit letter, a.. for South, A.. for North:
//	         "cf-B-a" is South c (extra turn), South f, North B, South a.
//	paper    each sowing by its 0-based hole number on the mover's own side,
//	         counted from the mover's left, as in Irving, Donkers & Uiterwijk
//	         (2000), table 9: "25-1-0" is the same line.
//
// Since the turn passes after every sowing that neither earns an extra
// turn nor ends the game, a change of mover is exactly a dash: the notation
// needs no side markers, and reading it back checks that the dashes fall
// where the turns change.

// Ply is one sowing: the mover and the pit sown, 0-based from the mover's
// left.
type Ply struct {
	Side Side
	Pit  int
}

// turns splits a line into its turns: maximal runs of one mover's plies.
func turns(line []Ply) [][]Ply {
	var out [][]Ply
	for i := 0; i < len(line); {
		j := i + 1
		for j < len(line) && line[j].Side == line[i].Side {
			j++
		}
		out = append(out, line[i:j])
		i = j
	}
	return out
}

func formatLine(line []Ply, name func(Ply) string) string {
	var sb strings.Builder
	for k, t := range turns(line) {
		if k > 0 {
			sb.WriteByte('-')
		}
		for _, p := range t {
			sb.WriteString(name(p))
		}
	}
	return sb.String()
}

// FormatLetters writes a line in the letter notation, e.g. "cf-B-a".
func FormatLetters(line []Ply) string {
	return formatLine(line, func(p Ply) string { return MoveLetter(p.Side, p.Pit) })
}

// FormatPaper writes a line in the paper's notation, e.g. "25-1-0".
func FormatPaper(line []Ply) string {
	return formatLine(line, func(p Ply) string { return fmt.Sprint(p.Pit) })
}

// PlayLine plays line from p, checking that each ply is by the side to
// move and sows a non-empty pit. It returns the position reached.
func (r Variant) PlayLine(p Position, line []Ply) (Position, error) {
	for k, pl := range line {
		if p.Board.Over() {
			return p, fmt.Errorf("ply %d (%s): the game is already over", k+1, MoveLetter(pl.Side, pl.Pit))
		}
		if pl.Side != p.ToMove {
			return p, fmt.Errorf("ply %d (%s): %s is to move", k+1, MoveLetter(pl.Side, pl.Pit), p.ToMove)
		}
		if pl.Pit < 0 || pl.Pit >= r.Pits || p.Board.Pit(pl.Pit) == 0 {
			return p, fmt.Errorf("ply %d (%s): not a legal move at %v", k+1, MoveLetter(pl.Side, pl.Pit), p)
		}
		p, _ = r.PlayPosition(p, pl.Pit)
	}
	return p, nil
}

// ParseLetters reads a line in the letter notation from p ("cf-B-a"); see
// parseLine for what it checks.
func (r Variant) ParseLetters(p Position, s string) ([]Ply, error) {
	return r.parseLine(p, s, func(c byte, side Side) (int, bool) {
		lo := byte('a')
		if side == North {
			lo = 'A'
		}
		return int(c) - int(lo), c >= lo && c < lo+byte(r.Pits)
	})
}

// ParsePaper reads a line in the paper's notation from p ("25-1-0"): each
// digit a 0-based hole of the mover's side; see parseLine for what it
// checks.
func (r Variant) ParsePaper(p Position, s string) ([]Ply, error) {
	return r.parseLine(p, s, func(c byte, _ Side) (int, bool) {
		return int(c) - '0', c >= '0' && c < '0'+byte(r.Pits)
	})
}

// parseLine reads a line turn by turn, playing it from p: every sowing must
// be legal, every sowing but the last of a turn must earn an extra turn,
// and the last of a turn followed by a dash must pass the turn. The line
// may stop anywhere, also in the middle of a chain of extra turns. Spaces
// are ignored; an empty string is the empty line. On an error it returns
// the legal plies read before it, so a caller can still show them.
func (r Variant) parseLine(p Position, s string, pit func(c byte, side Side) (int, bool)) ([]Ply, error) {
	s = strings.ReplaceAll(strings.TrimSpace(s), " ", "")
	if s == "" {
		return nil, nil
	}
	var line []Ply
	ts := strings.Split(s, "-")
	for k, t := range ts {
		if t == "" {
			return line, fmt.Errorf("line %q: turn %d is empty", s, k+1)
		}
		if k > 0 && p.Board.Over() {
			return line, fmt.Errorf("line %q: turn %d (%s) comes after the end of the game", s, k+1, t)
		}
		for j := 0; j < len(t); j++ {
			if p.Board.Over() {
				return line, fmt.Errorf("line %q: turn %d (%s): move %q comes after the end of the game", s, k+1, t, t[j])
			}
			i, ok := pit(t[j], p.ToMove)
			if !ok {
				return line, fmt.Errorf("line %q: turn %d (%s): %q is not a pit of %s (%d pits)", s, k+1, t, t[j], p.ToMove, r.Pits)
			}
			if p.Board.Pit(i) == 0 {
				return line, fmt.Errorf("line %q: turn %d (%s): %s's pit %s is empty", s, k+1, t, p.ToMove, MoveLetter(p.ToMove, i))
			}
			mover := p.ToMove
			line = append(line, Ply{Side: mover, Pit: i})
			var res Result
			p, res = r.PlayPosition(p, i)
			last := j == len(t)-1
			switch {
			case !last && !res.Extra() && !res.Over():
				return line, fmt.Errorf("line %q: turn %d (%s): %s earns no extra turn, so the turn ends there (a dash is missing)", s, k+1, t, MoveLetter(mover, i))
			case last && res.Extra() && k < len(ts)-1:
				return line, fmt.Errorf("line %q: turn %d (%s): %s earns an extra turn, so %s moves again (no dash after it)", s, k+1, t, MoveLetter(mover, i), mover)
			}
		}
	}
	return line, nil
}
