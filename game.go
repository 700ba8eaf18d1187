package kalah

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/openspiel"
)

// Game is a game played: Kalah(Pits,Seeds) under Rule, the position it
// starts from and the sowings played from there, the input of an
// analysis (Session.Analyze). Its JSON form is the one ParseGameJSON
// reads, with the moves as pit letters.
type Game struct {
	Pits  int
	Seeds int // n of Kalah(m,n); 0 when Position is given and is no game's start
	Rule  Rule
	// Position is the position the game starts from; nil means the start
	// of Kalah(Pits,Seeds), South to move.
	Position *engine.Position
	// Moves are the sowings played, in order; each must be legal.
	Moves []engine.Ply
}

// Start is the position the game starts from.
func (g Game) Start() (engine.Position, error) {
	if g.Position != nil {
		if g.Position.Pits != g.Pits {
			return engine.Position{}, fmt.Errorf("the position has %d pits a side; the game has %d", g.Position.Pits, g.Pits)
		}
		return *g.Position, nil
	}
	r := engine.Variant{Pits: g.Pits, Rule: g.Rule}
	return r.StartPosition(g.Seeds)
}

// Positions replays the game: the position before each move and the one
// after the last, len(g.Moves)+1 of them. An illegal move is a
// *MoveError.
func (g Game) Positions() ([]engine.Position, error) {
	r, err := engine.NewVariant(g.Pits, g.Rule)
	if err != nil {
		return nil, err
	}
	p, err := g.Start()
	if err != nil {
		return nil, err
	}
	out := []engine.Position{p}
	for i, pl := range g.Moves {
		text := engine.MoveLetter(pl.Side, pl.Pit)
		switch {
		case p.Board.Over():
			return out, &MoveError{Index: i, Move: text, Reason: "the game is already over"}
		case pl.Side != p.ToMove:
			return out, &MoveError{Index: i, Move: text, Reason: p.ToMove.String() + " is to move"}
		case pl.Pit < 0 || pl.Pit >= g.Pits:
			return out, &MoveError{Index: i, Move: text, Reason: fmt.Sprintf("no such pit (%d pits a side)", g.Pits)}
		case p.Board.Pit(pl.Pit) == 0:
			return out, &MoveError{Index: i, Move: text, Reason: "the pit is empty"}
		}
		p, _ = r.PlayPosition(p, pl.Pit)
		out = append(out, p)
	}
	return out, nil
}

// MoveError is an illegal or unreadable move of a game: Index is its
// 0-based place among the game's moves (the message counts from 1), Move
// the move as written.
type MoveError struct {
	Index  int    `json:"index"`
	Move   string `json:"move"`
	Reason string `json:"reason"`
}

func (e *MoveError) Error() string {
	return fmt.Sprintf("move %d (%s): %s", e.Index+1, e.Move, e.Reason)
}

// gameJSON is a game's JSON form: the variant, the start position (omitted
// for the start of Kalah(pits,seeds)) and exactly one of moves (pit
// letters, or 1-based pit numbers from the mover's left), line (the move
// notation, as ParseNotation reads it) and actions (OpenSpiel actions).
type gameJSON struct {
	Pits     int               `json:"pits,omitempty"`
	Seeds    int               `json:"seeds,omitempty"`
	Rule     string            `json:"rule,omitempty"`
	Position string            `json:"position,omitempty"`
	ToMove   string            `json:"to_move,omitempty"`
	Moves    []json.RawMessage `json:"moves,omitempty"`
	Line     *string           `json:"line,omitempty"`
	Actions  []int             `json:"actions,omitempty"`
}

// MarshalJSON writes the game in the form ParseGameJSON reads, its moves
// as pit letters.
func (g Game) MarshalJSON() ([]byte, error) {
	j := gameJSON{Pits: g.Pits, Seeds: g.Seeds, Rule: g.Rule.String(), Moves: []json.RawMessage{}}
	if g.Position != nil {
		j.Position, j.ToMove = g.Position.String(), g.Position.ToMove.String()
	}
	for _, pl := range g.Moves {
		j.Moves = append(j.Moves, json.RawMessage(`"`+engine.MoveLetter(pl.Side, pl.Pit)+`"`))
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads a game as ParseGameJSON does with no defaults.
func (g *Game) UnmarshalJSON(b []byte) error {
	x, err := ParseGameJSON(b, Game{})
	if err != nil {
		return err
	}
	*g = x
	return nil
}

// withDefaults fills what def leaves out: Kalah(6,4) under
// no-empty-capture.
func withDefaults(def Game) Game {
	if def.Pits == 0 {
		def.Pits = 6
	}
	if def.Seeds == 0 && def.Position == nil {
		def.Seeds = 4
	}
	def.Moves = nil
	return def
}

// ParseGameJSON reads a game written as one JSON object:
//
//	{"pits": 6, "seeds": 4, "rule": "no-empty-capture",
//	 "position": "4,4,4,4,4,4,0,4,4,4,4,4,4,0", "to_move": "south",
//	 "moves": ["c", "f", "B"]}
//
// Every field may be left out: pits, seeds and rule then come from def
// (and default to Kalah(6,4) under no-empty-capture), the position is the
// start of Kalah(pits,seeds), to_move is south. The moves are given by
// exactly one of "moves" (pit letters, or 1-based pit numbers of the side
// to move), "line" (the move notation, ParseNotation) and "actions"
// (OpenSpiel actions, ParseOpenSpiel); none is a game of no moves. A bad
// move is a *MoveError.
func ParseGameJSON(b []byte, def Game) (Game, error) {
	var j gameJSON
	d := json.NewDecoder(strings.NewReader(string(b)))
	d.DisallowUnknownFields()
	if err := d.Decode(&j); err != nil {
		return Game{}, fmt.Errorf("game JSON: %v", err)
	}
	if d.More() {
		return Game{}, errors.New("game JSON: more than one value")
	}
	g := def
	if j.Pits != 0 {
		g.Pits = j.Pits
	}
	if j.Seeds != 0 {
		g.Seeds = j.Seeds
	}
	if j.Rule != "" {
		r, err := engine.ParseRule(j.Rule)
		if err != nil {
			return Game{}, err
		}
		g.Rule = r
	}
	if j.Position != "" {
		side := engine.South
		if j.ToMove != "" {
			s, err := engine.ParseSide(j.ToMove)
			if err != nil {
				return Game{}, err
			}
			side = s
		}
		p, err := engine.ParsePosition(j.Position, side)
		if err != nil {
			return Game{}, err
		}
		if j.Pits != 0 && j.Pits != p.Pits {
			return Game{}, fmt.Errorf("the position has %d pits a side; pits says %d", p.Pits, j.Pits)
		}
		g.Pits, g.Position = p.Pits, &p
		if j.Seeds == 0 {
			g.Seeds = 0
		}
	} else if j.ToMove != "" {
		return Game{}, errors.New("to_move needs a position")
	}
	g = withDefaults(g)
	given := 0
	for _, set := range []bool{j.Moves != nil, j.Line != nil, j.Actions != nil} {
		if set {
			given++
		}
	}
	if given > 1 {
		return Game{}, errors.New("give the moves once: as moves, line or actions")
	}
	switch {
	case j.Line != nil:
		return ParseNotation(*j.Line, g)
	case j.Actions != nil:
		return playActions(g, j.Actions, nil)
	}
	moves := make([]string, len(j.Moves))
	for i, raw := range j.Moves {
		var s string
		var n int
		switch {
		case json.Unmarshal(raw, &s) == nil:
			moves[i] = s
		case json.Unmarshal(raw, &n) == nil:
			moves[i] = fmt.Sprint(n)
		default:
			return Game{}, &MoveError{Index: i, Move: string(raw), Reason: "a move is a pit letter or a pit number"}
		}
	}
	return playMoves(g, moves)
}

// playMoves plays moves one at a time (engine.ParseMove: a pit letter, or
// a 1-based pit number of the side to move) from g's start.
func playMoves(g Game, moves []string) (Game, error) {
	r, err := engine.NewVariant(g.Pits, g.Rule)
	if err != nil {
		return Game{}, err
	}
	p, err := g.Start()
	if err != nil {
		return Game{}, err
	}
	for i, s := range moves {
		pit, err := engine.ParseMove(p, s)
		if err != nil {
			return g, &MoveError{Index: i, Move: s, Reason: trimMove(err)}
		}
		g.Moves = append(g.Moves, engine.Ply{Side: p.ToMove, Pit: pit})
		p, _ = r.PlayPosition(p, pit)
	}
	return g, nil
}

// trimMove drops engine.ParseMove's 'move "x": ' prefix, which a
// MoveError says already.
func trimMove(err error) string {
	s := err.Error()
	if strings.HasPrefix(s, "move ") {
		if i := strings.Index(s, ": "); i > 0 {
			return s[i+2:]
		}
	}
	return s
}

// ParseOpenSpiel reads a game of OpenSpiel's mancala written as its
// actions (package openspiel), separated by commas or spaces, in
// brackets or not: "[6, 11, 4]" or "6 11 4". Pits, seeds and rule come
// from def, by default OpenSpiel's Kalah(6,4) under no-empty-capture. A
// bad action is a *MoveError.
func ParseOpenSpiel(text string, def Game) (Game, error) {
	g := withDefaults(def)
	s := strings.TrimSpace(text)
	s = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	fields := strings.FieldsFunc(s, func(c rune) bool { return c == ',' || c == ' ' || c == '\t' })
	acts := make([]int, len(fields))
	for i, f := range fields {
		var a int
		if _, err := fmt.Sscanf(f, "%d", &a); err != nil || fmt.Sprint(a) != f {
			return g, &MoveError{Index: i, Move: f, Reason: "an OpenSpiel action is a whole number"}
		}
		acts[i] = a
	}
	return playActions(g, acts, fields)
}

// playActions plays OpenSpiel actions from g's start; texts, if not nil,
// are the actions as written.
func playActions(g Game, acts []int, texts []string) (Game, error) {
	r, err := engine.NewVariant(g.Pits, g.Rule)
	if err != nil {
		return Game{}, err
	}
	p, err := g.Start()
	if err != nil {
		return Game{}, err
	}
	for i, a := range acts {
		text := fmt.Sprint(a)
		if texts != nil {
			text = texts[i]
		}
		side, pit, err := openspiel.Move(g.Pits, a)
		switch {
		case err != nil:
			return g, &MoveError{Index: i, Move: text, Reason: err.Error()}
		case p.Board.Over():
			return g, &MoveError{Index: i, Move: text, Reason: "the game is already over"}
		case side != p.ToMove:
			return g, &MoveError{Index: i, Move: text, Reason: fmt.Sprintf("action %d sows %s's pit %s, but player %d (%s) is to move",
				a, side, engine.MoveLetter(side, pit), openspiel.FromPosition(p).Player, p.ToMove)}
		case p.Board.Pit(pit) == 0:
			return g, &MoveError{Index: i, Move: text, Reason: fmt.Sprintf("action %d sows pit %s, which is empty", a, engine.MoveLetter(side, pit))}
		}
		g.Moves = append(g.Moves, engine.Ply{Side: side, Pit: pit})
		p, _ = r.PlayPosition(p, pit)
	}
	return g, nil
}

// Actions are g's moves as OpenSpiel actions.
func (g Game) Actions() []int {
	out := make([]int, len(g.Moves))
	for i, pl := range g.Moves {
		out[i] = openspiel.Action(g.Pits, pl.Side, pl.Pit)
	}
	return out
}
