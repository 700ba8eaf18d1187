package cmdutil

import (
	"fmt"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/players"
	"github.com/spf13/cobra"
)

// PlayersFlags choose the game with three or four players (package players)
// instead of the two-player game: --players and --capture-target.
type PlayersFlags struct {
	Players int
	Target  string
}

// AddPlayersFlags registers --players and --capture-target.
func AddPlayersFlags(cmd *cobra.Command, f *PlayersFlags) {
	cmd.Flags().IntVar(&f.Players, "players", 2, "players round the board, k (2-4); 3 and 4 play the rule sites' k-player game (docs/rules.md)")
	cmd.Flags().StringVar(&f.Target, "capture-target", players.TargetNext.String(), "with --players 3 or 4, whose pit a capture takes: next, opposite or all")
}

// Multi reports whether the flags name a game of three or more players.
func (f *PlayersFlags) Multi() bool { return f.Players != 2 }

// Check validates --players and --capture-target; the two-player game
// takes no capture target. Errors are BadInput.
func (f *PlayersFlags) Check(changed func(name string) bool) error {
	if f.Players < 2 || f.Players > players.MaxPlayers {
		return BadInputf("--players must be 2..%d, got %d", players.MaxPlayers, f.Players)
	}
	if !f.Multi() && changed("capture-target") {
		return BadInputf("--capture-target is a rule of the 3- and 4-player game; with two players a capture takes the opposite pit (see --rule)")
	}
	if _, err := players.ParseTarget(f.Target); err != nil {
		return BadInput(err)
	}
	return nil
}

// ResolveMulti returns the k-player rules and position that the game and
// players flags name: --position (groups per player separated by '/') with
// --to-move (1..k or P1..Pk, default P1), or the start of Kalah(--pits,
// --seeds) for --players players. The k-player game is played under
// no-empty-capture only. Errors are BadInput.
func (f *PlayersFlags) ResolveMulti(g *GameFlags, changed func(name string) bool) (r players.Variant, p players.Position, start bool, err error) {
	if c, err := g.ParseRule(); err != nil {
		return r, p, false, err
	} else if c != engine.NoEmptyCapture {
		return r, p, false, BadInputf("the %d-player game is played under no-empty-capture only (--rule %s)", f.Players, c)
	}
	t, err := players.ParseTarget(f.Target)
	if err != nil {
		return r, p, false, BadInput(err)
	}
	if g.Position == "" {
		if changed("to-move") {
			return r, p, false, BadInputf("--to-move needs --position: a start position has P1 to move")
		}
		r, err = players.NewVariant(f.Players, g.Pits, t)
		if err != nil {
			return r, p, false, BadInput(err)
		}
		p, err = r.StartPosition(g.Seeds)
		return r, p, true, BadInput(err)
	}
	if changed("seeds") {
		return r, p, false, BadInputf("--seeds names a start position; give either --position or --pits/--seeds")
	}
	seat := 0
	if changed("to-move") {
		if seat, err = players.ParseSeat(g.ToMove, f.Players); err != nil {
			return r, p, false, BadInputf("--to-move: %v", err)
		}
	}
	p, err = players.ParsePosition(g.Position, seat)
	if err != nil {
		return r, p, false, BadInput(err)
	}
	if p.Players != f.Players {
		return r, p, false, BadInputf("--players %d contradicts --position, which has %d players (groups separated by '/')", f.Players, p.Players)
	}
	if changed("pits") && p.Pits != g.Pits {
		return r, p, false, BadInputf("--pits %d contradicts --position, which has %d pits per player", g.Pits, p.Pits)
	}
	r = players.Variant{Players: p.Players, Pits: p.Pits, Target: t}
	return r, p, false, nil
}

// GameHead opens the JSON record of show, move and perft in both games:
// the game and the position the command starts from. Players and
// CaptureTarget are set in the 3- and 4-player game only, so a two-player
// record starts with its rule.
type GameHead struct {
	Players       int    `json:"players,omitempty"`        // 3 or 4; absent for two players
	CaptureTarget string `json:"capture_target,omitempty"` // k players: next, opposite or all
	Rule          string `json:"rule"`                     // always no-empty-capture for k players
	Pits          int    `json:"pits"`
	Seeds         int    `json:"seeds,omitempty"` // start positions only
	Position      string `json:"position"`
	ToMove        string `json:"to_move"` // south or north; P1..Pk
	// Name is "Kalah(4,3)" or "3-player Kalah(4,3)" for a start
	// position, else "Kalah(4)" or "3-player Kalah(4)".
	Name string `json:"-"`
}

// Title is the first line of a text report: "Kalah(4,3), rule
// empty-capture" or "3-player Kalah(4,3), capture from next, rule
// no-empty-capture".
func (h GameHead) Title() string {
	if h.Players == 0 {
		return fmt.Sprintf("%s, rule %s", h.Name, h.Rule)
	}
	return fmt.Sprintf("%s, capture from %s, rule %s", h.Name, h.CaptureTarget, h.Rule)
}

// Head is the GameHead of a two-player position; start reports a start
// position of Kalah(pits, --seeds).
func (f *GameFlags) Head(r engine.Variant, p engine.Position, start bool) GameHead {
	h := GameHead{Rule: r.Rule.String(), Pits: p.Pits, Position: p.String(), ToMove: p.ToMove.String(), Name: GameName(p, f.Seeds, start)}
	if start {
		h.Seeds = f.Seeds
	}
	return h
}

// MultiHead is the GameHead of a k-player position.
func (f *GameFlags) MultiHead(r players.Variant, p players.Position, start bool) GameHead {
	h := GameHead{Players: r.Players, CaptureTarget: r.Target.String(), Rule: engine.NoEmptyCapture.String(), Pits: r.Pits,
		Position: p.String(), ToMove: players.SeatName(p.ToMove()), Name: fmt.Sprintf("%d-player Kalah(%d)", r.Players, r.Pits)}
	if start {
		h.Seeds, h.Name = f.Seeds, r.Name(f.Seeds)
	}
	return h
}

// RunGame is the body of a command that plays the two-player game and,
// with --players 3 or 4, the k-player one (show, move, perft): it checks
// the game and players flags, resolves the game and position they name
// and hands them to two or to k. Errors are BadInput.
func RunGame(cmd *cobra.Command, g *GameFlags, f *PlayersFlags,
	two func(engine.Variant, engine.Position, GameHead) error,
	k func(players.Variant, players.Position, GameHead) error) error {
	changed := cmd.Flags().Changed
	if f.Multi() {
		// ResolveMulti checks the game flags the k-player way.
		if err := f.Check(changed); err != nil {
			return err
		}
		r, p, start, err := f.ResolveMulti(g, changed)
		if err != nil {
			return err
		}
		return k(r, p, g.MultiHead(r, p, start))
	}
	if err := g.CheckConflicts(changed); err != nil {
		return err
	}
	if err := f.Check(changed); err != nil {
		return err
	}
	r, p, start, err := g.Resolve()
	if err != nil {
		return err
	}
	return two(r, p, g.Head(r, p, start))
}

// MultiLegalMoves lists the legal moves of p by their seat-qualified
// names ("1a"); empty when the game is over.
func MultiLegalMoves(p players.Position) []string {
	out := []string{}
	if p.Board.Over() {
		return out
	}
	for _, i := range p.Board.MoveList() {
		out = append(out, players.MoveName(p.ToMove(), i))
	}
	return out
}
