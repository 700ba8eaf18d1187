// Package openspiel converts between OpenSpiel's game "mancala" and the
// engine's positions and moves.
//
// OpenSpiel's mancala (google-deepmind/open_spiel,
// open_spiel/games/mancala) is Kalah(6,4) under no-empty-capture: a last
// seed in an own empty pit captures only when the opposite pit holds
// seeds. Its state is a board of 14 counts and the current player:
//
//	index:   0           1..6            7            8..13
//	holds:   player 1's  player 0's      player 0's   player 1's
//	         store       pits, sowing    store        pits, sowing
//	                     order
//
// Player 0 moves first: it is South, its pits 1..6 are a..f; player 1 is
// North, its pits 8..13 are A..F. Seeds are sown towards higher indices,
// wrapping from 13 to 0 and skipping the opponent's store, so index
// 14-i faces index i. An action is the index of the pit sown (1..6 for
// player 0, 8..13 for player 1). The game ends when either side's pits
// are empty; OpenSpiel leaves the remaining seeds on the board and counts
// each side's pits and store together, which is the engine's sweep (each
// side's seeds to its own store), so the results agree. Its returns are
// +1, -1 or 0 by the sign of that difference; the value of a position is
// the difference itself.
//
// The functions take the pit count m, so that Kalah(m,n) is numbered the
// same way (index 0 North's store, 1..m South's pits, m+1 South's store,
// m+2..2m+1 North's pits); OpenSpiel's own game is m = 6.
package openspiel

import (
	"fmt"

	"github.com/kalah-solver/kalah/engine"
)

// Pits and Seeds are OpenSpiel's mancala: Kalah(6,4).
const (
	Pits  = 6
	Seeds = 4
)

// Rule is OpenSpiel's capture rule.
const Rule = engine.NoEmptyCapture

// Terminal is OpenSpiel's current player of a finished game
// (kTerminalPlayerId).
const Terminal = -4

// State is an OpenSpiel mancala state: the board in OpenSpiel's order and
// the player to move, 0 (South) or 1 (North), or Terminal.
type State struct {
	Board  []int `json:"board"`
	Player int   `json:"current_player"`
}

// Action is the OpenSpiel action that sows side s's pit i (0-based from
// that side's left) on a board of m pits a side.
func Action(m int, s engine.Side, i int) int {
	if s == engine.North {
		return m + 2 + i
	}
	return 1 + i
}

// Move is the side and pit (0-based from that side's left) that action a
// sows on a board of m pits a side; an index that is no pit is an error.
func Move(m, a int) (engine.Side, int, error) {
	switch {
	case a >= 1 && a <= m:
		return engine.South, a - 1, nil
	case a >= m+2 && a <= 2*m+1:
		return engine.North, a - m - 2, nil
	case a == 0 || a == m+1:
		return 0, 0, fmt.Errorf("action %d is a store, not a pit (pits are 1..%d and %d..%d)", a, m, m+2, 2*m+1)
	}
	return 0, 0, fmt.Errorf("action %d is off the board (pits are 1..%d and %d..%d)", a, m, m+2, 2*m+1)
}

// FromPosition is p as an OpenSpiel state. A finished game's board is the
// engine's, swept (every seed in a store); its player is Terminal.
func FromPosition(p engine.Position) State {
	h := p.Holes() // South's pits, South's store, North's pits, North's store
	n := len(h)
	b := make([]int, n)
	for j := range b {
		b[j] = h[(j+n-1)%n]
	}
	st := State{Board: b, Player: 0}
	switch {
	case p.Board.Over():
		st.Player = Terminal
	case p.ToMove == engine.North:
		st.Player = 1
	}
	return st
}

// ToPosition is st as an engine position. A board on which either side's
// pits are empty is a finished game: its seeds are swept into their
// owners' stores, as the engine keeps a finished game, and the side to
// move is South unless st names player 1. A board of 2m+2 counts gives a
// position of m pits a side.
func ToPosition(st State) (engine.Position, error) {
	n := len(st.Board)
	if n < 4 || n%2 != 0 || n > 2*engine.MaxPits+2 {
		return engine.Position{}, fmt.Errorf("an OpenSpiel board has 2m+2 counts for m = 1..%d, e.g. 14; got %d", engine.MaxPits, n)
	}
	m := (n - 2) / 2
	h := make([]int, n)
	for j := range h {
		h[j] = st.Board[(j+1)%n]
	}
	var south, north int
	for i := 0; i < m; i++ {
		south += h[i]
		north += h[m+1+i]
	}
	for j, v := range st.Board {
		if v < 0 {
			return engine.Position{}, fmt.Errorf("OpenSpiel board index %d holds %d seeds; counts cannot be negative", j, v)
		}
	}
	side := engine.South
	switch st.Player {
	case 0, Terminal:
	case 1:
		side = engine.North
	default:
		return engine.Position{}, fmt.Errorf("OpenSpiel's current player is 0, 1 or %d (terminal); got %d", Terminal, st.Player)
	}
	if south > 0 && north > 0 {
		if st.Player == Terminal {
			return engine.Position{}, fmt.Errorf("OpenSpiel state is terminal but both sides' pits hold seeds")
		}
		return engine.PositionFromHoles(h, side)
	}
	for i := 0; i < m; i++ { // the sweep
		h[m] += h[i]
		h[2*m+1] += h[m+1+i]
		h[i], h[m+1+i] = 0, 0
	}
	return positionOver(h, side)
}

// positionOver is a finished game's position from its swept holes.
func positionOver(h []int, side engine.Side) (engine.Position, error) {
	m := (len(h) - 2) / 2
	if h[m]+h[2*m+1] == 0 {
		return engine.Position{}, fmt.Errorf("OpenSpiel board holds no seeds")
	}
	if h[m]+h[2*m+1] > engine.MaxSeeds {
		return engine.Position{}, fmt.Errorf("OpenSpiel board holds more than %d seeds", engine.MaxSeeds)
	}
	b := engine.Board{OwnStore: uint8(h[m]), OppStore: uint8(h[2*m+1])}
	if side == engine.North {
		b = b.Flip()
	}
	return engine.Position{Pits: m, Board: b, ToMove: side}, nil
}
