package kalah

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/kalah-solver/kalah/engine"
)

// Format is a way of writing a game down.
type Format string

// The forms a game is read in.
const (
	// FormatAuto tells them apart by their look (DetectFormat).
	FormatAuto Format = ""
	// FormatNotation is the toolkit's move notation (ParseNotation).
	FormatNotation Format = "notation"
	// FormatJSON is one JSON object a game (ParseGameJSON).
	FormatJSON Format = "json"
	// FormatOpenSpiel is OpenSpiel's mancala actions (ParseOpenSpiel).
	FormatOpenSpiel Format = "openspiel"
)

// ParseFormat reads a format name: notation, json, openspiel, or auto
// (or "") for FormatAuto.
func ParseFormat(s string) (Format, error) {
	switch f := Format(strings.ToLower(strings.TrimSpace(s))); f {
	case "auto", FormatAuto:
		return FormatAuto, nil
	case FormatNotation, FormatJSON, FormatOpenSpiel:
		return f, nil
	}
	return "", fmt.Errorf("unknown game format %q: want notation, json, openspiel or auto", s)
}

// DetectFormat tells a game's format by its look: an object in braces is
// JSON; numbers separated by commas or spaces, or in brackets, are
// OpenSpiel actions; a run of pit letters or digits with dashes between
// the turns is the move notation, as are pit letters separated by spaces
// or commas. A single number ("25") reads as the notation (two sowings of
// one turn): a game of one OpenSpiel action needs FormatOpenSpiel.
func DetectFormat(text string) (Format, error) {
	s := strings.TrimSpace(text)
	switch {
	case s == "":
		return FormatNotation, nil
	case strings.HasPrefix(s, "{"):
		return FormatJSON, nil
	case strings.HasPrefix(s, "["):
		return FormatOpenSpiel, nil
	}
	digits, letters, seps := false, false, false
	for _, c := range s {
		switch {
		case c >= '0' && c <= '9':
			digits = true
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
			letters = true
		case c == ',' || unicode.IsSpace(c):
			seps = true
		case c == '-':
		default:
			return "", fmt.Errorf("cannot tell the game's format from %q (character %q): give the format", clip(s), c)
		}
	}
	if digits && !letters && seps {
		return FormatOpenSpiel, nil
	}
	return FormatNotation, nil
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}

// ParseGame reads one game in format f (FormatAuto: DetectFormat); def
// gives pits, seeds, rule and start position where the text does not.
func ParseGame(text string, f Format, def Game) (Game, error) {
	if f == FormatAuto {
		var err error
		if f, err = DetectFormat(text); err != nil {
			return Game{}, err
		}
	}
	switch f {
	case FormatNotation:
		return ParseNotation(text, def)
	case FormatJSON:
		return ParseGameJSON([]byte(text), def)
	case FormatOpenSpiel:
		return ParseOpenSpiel(text, def)
	}
	return Game{}, fmt.Errorf("unknown game format %q", f)
}

// ParseNotation reads a game in the toolkit's move notation from def's
// start (pits, seeds and rule from def; Kalah(6,4) under no-empty-capture
// by default). Each sowing is its pit letter (a.. for South, A.. for
// North) or, in the notation of Irving, Donkers & Uiterwijk (2000), its
// 0-based pit digit from the mover's left; the sowings of one turn are
// written together and a dash separates the turns: "cf-B-a" and "25-1-0"
// are the same line. A dash must stand where the turn passes and nowhere
// else. Letters may instead be separated by spaces or commas ("c f B a"),
// with no dashes. A bad move is a *MoveError naming it.
func ParseNotation(text string, def Game) (Game, error) {
	g := withDefaults(def)
	r, err := engine.NewVariant(g.Pits, g.Rule)
	if err != nil {
		return Game{}, err
	}
	p, err := g.Start()
	if err != nil {
		return Game{}, err
	}
	s := strings.TrimSpace(text)
	list := strings.ContainsAny(s, " ,\t") && !strings.Contains(s, "-")
	if list {
		return playMoves(g, strings.FieldsFunc(s, func(c rune) bool { return c == ',' || unicode.IsSpace(c) }))
	}
	s = strings.ReplaceAll(s, " ", "")
	paper := strings.ContainsAny(s, "0123456789")
	if paper && strings.IndexFunc(s, unicode.IsLetter) >= 0 {
		return Game{}, fmt.Errorf("line %q mixes pit letters and digits: write it in one notation", clip(s))
	}
	n := 0 // moves read
	turnEnd := false
	for k := 0; k < len(s); k++ {
		c := s[k]
		if c == '-' {
			if k == 0 || s[k-1] == '-' || k == len(s)-1 {
				return g, fmt.Errorf("line %q: a dash with no move before or after it (at character %d)", clip(s), k+1)
			}
			if !turnEnd {
				prev := g.Moves[n-1]
				return g, &MoveError{Index: n - 1, Move: string(s[k-1]), Reason: fmt.Sprintf("earns an extra turn, so %s moves again: no dash after it", prev.Side)}
			}
			turnEnd = false
			continue
		}
		text := string(c)
		if n > 0 && turnEnd {
			if p.Board.Over() {
				return g, &MoveError{Index: n, Move: text, Reason: "the game is already over"}
			}
			return g, &MoveError{Index: n - 1, Move: string(s[k-1]), Reason: "earns no extra turn, so the turn passes: a dash is missing after it"}
		}
		var pit int
		if paper {
			d, err := strconv.Atoi(text)
			if err != nil || d >= g.Pits {
				return g, &MoveError{Index: n, Move: text, Reason: fmt.Sprintf("not a pit digit (0..%d)", g.Pits-1)}
			}
			if p.Board.Over() {
				return g, &MoveError{Index: n, Move: text, Reason: "the game is already over"}
			}
			if p.Board.Pit(d) == 0 {
				return g, &MoveError{Index: n, Move: text, Reason: fmt.Sprintf("%s's pit %s is empty", p.ToMove, engine.MoveLetter(p.ToMove, d))}
			}
			pit = d
		} else if pit, err = engine.ParseMove(p, text); err != nil {
			return g, &MoveError{Index: n, Move: text, Reason: trimMove(err)}
		}
		g.Moves = append(g.Moves, engine.Ply{Side: p.ToMove, Pit: pit})
		var res engine.Result
		p, res = r.PlayPosition(p, pit)
		turnEnd = !res.Extra()
		n++
	}
	return g, nil
}

// ParseHeader reads a header line, a comment ('#' first) that sets the
// variant or the format of the games after it: its words
// "Kalah(m,n)", a rule name, "pits=m", "seeds=n", "rule=NAME",
// "format=NAME", in any order. Other words are ignored; ok is false for a
// line that is no comment. A word it recognises with a bad value is an
// error.
func ParseHeader(line string, def *Game, f *Format) (ok bool, err error) {
	s := strings.TrimSpace(line)
	if !strings.HasPrefix(s, "#") {
		return false, nil
	}
	for _, w := range strings.Fields(strings.TrimLeft(s, "#")) {
		key, val, kv := strings.Cut(w, "=")
		switch {
		case strings.HasPrefix(w, "Kalah(") && strings.HasSuffix(w, ")"):
			var m, n int
			if _, err := fmt.Sscanf(w, "Kalah(%d,%d)", &m, &n); err != nil {
				return true, fmt.Errorf("header %q: want Kalah(m,n)", w)
			}
			def.Pits, def.Seeds, def.Position = m, n, nil
		case w == engine.NoEmptyCapture.String() || w == engine.EmptyCapture.String():
			def.Rule, _ = engine.ParseRule(w)
		case kv && key == "pits", kv && key == "seeds":
			n, err := strconv.Atoi(val)
			if err != nil || n < 1 {
				return true, fmt.Errorf("header %q: want a whole number of at least 1", w)
			}
			if key == "pits" {
				def.Pits = n
			} else {
				def.Seeds = n
			}
			def.Position = nil
		case kv && key == "rule":
			r, err := engine.ParseRule(val)
			if err != nil {
				return true, fmt.Errorf("header: %v", err)
			}
			def.Rule = r
		case kv && key == "format":
			x, err := ParseFormat(val)
			if err != nil {
				return true, fmt.Errorf("header: %v", err)
			}
			*f = x
		}
	}
	return true, nil
}

// LineError is a bad line of a text of games: Line counts from 1.
type LineError struct {
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

// ParseGames reads games one a line, in format f (FormatAuto: each line
// by its look), with def for what a line does not say. Blank lines are
// skipped; a comment line ('#' first) is a header (ParseHeader) that
// changes the defaults or the format for the lines after it. The first
// bad line is a *LineError; the games before it are returned with it.
func ParseGames(text string, f Format, def Game) ([]Game, error) {
	var out []Game
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if ok, err := ParseHeader(line, &def, &f); ok {
			if err != nil {
				return out, &LineError{Line: i + 1, Err: err}
			}
			continue
		}
		g, err := ParseGame(line, f, def)
		if err != nil {
			return out, &LineError{Line: i + 1, Err: err}
		}
		out = append(out, g)
	}
	return out, nil
}
