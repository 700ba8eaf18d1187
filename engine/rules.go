// Package engine implements the rules of Kalah(m,n): the packed board, sowing
// under both capture conventions, position and move notation, and perft.
//
// The package imports nothing else from the module; everything else builds on
// it.
package engine

import "fmt"

// MaxPits is the largest pit count a side may have: one 8-bit lane per pit in
// a 64-bit word.
const MaxPits = 8

// MaxSeeds is the largest number of seeds a game may hold: every pit and
// store is an 8-bit lane, and the total must fit one lane so that lane sums
// never carry.
const MaxSeeds = 255

// Capture names a capture convention.
type Capture uint8

const (
	// NoEmptyCapture is the rule sheets' convention and the default: the last
	// seed in an own empty pit captures only when the opposite pit holds
	// seeds; otherwise it stays.
	NoEmptyCapture Capture = iota
	// EmptyCapture is the convention of Irving, Donkers & Uiterwijk (2000):
	// the last seed in an own empty pit is banked with the opposite pit's
	// seeds, even when the opposite pit is empty.
	EmptyCapture
)

// Captures lists both conventions, default first.
var Captures = []Capture{NoEmptyCapture, EmptyCapture}

// String returns the convention's name as the command line spells it.
func (c Capture) String() string {
	switch c {
	case NoEmptyCapture:
		return "no-empty-capture"
	case EmptyCapture:
		return "empty-capture"
	}
	return fmt.Sprintf("Capture(%d)", uint8(c))
}

// ParseCapture reads a convention name ("empty-capture" or "no-empty-capture").
func ParseCapture(s string) (Capture, error) {
	switch s {
	case "no-empty-capture":
		return NoEmptyCapture, nil
	case "empty-capture":
		return EmptyCapture, nil
	}
	return 0, fmt.Errorf("unknown rule %q: want empty-capture or no-empty-capture", s)
}

// Rules fixes the board size and the capture convention. The zero value is
// not valid; use NewRules.
type Rules struct {
	Pits    int     // m, pits per side, 1..MaxPits
	Capture Capture // capture convention
}

// NewRules validates m and the convention.
func NewRules(pits int, c Capture) (Rules, error) {
	r := Rules{Pits: pits, Capture: c}
	return r, r.Validate()
}

// Validate reports whether the pit count and convention are supported.
func (r Rules) Validate() error {
	if r.Pits < 1 || r.Pits > MaxPits {
		return fmt.Errorf("pits must be 1..%d, got %d", MaxPits, r.Pits)
	}
	if r.Capture != NoEmptyCapture && r.Capture != EmptyCapture {
		return fmt.Errorf("unknown capture convention %d", r.Capture)
	}
	return nil
}

// String is "Kalah(m) rule", for messages.
func (r Rules) String() string { return fmt.Sprintf("Kalah(%d) %s", r.Pits, r.Capture) }

// Start returns the start position of Kalah(m,n), South to move. It checks
// that 2mn fits the packed board (at most MaxSeeds seeds in all).
func (r Rules) Start(seeds int) (Board, error) {
	if err := r.Validate(); err != nil {
		return Board{}, err
	}
	if seeds < 1 {
		return Board{}, fmt.Errorf("seeds per pit must be at least 1, got %d", seeds)
	}
	if 2*r.Pits*seeds > MaxSeeds {
		return Board{}, fmt.Errorf("Kalah(%d,%d) has %d seeds; at most %d fit the packed board", r.Pits, seeds, 2*r.Pits*seeds, MaxSeeds)
	}
	side := uint64(seeds) * laneOnes[r.Pits]
	return Board{Own: side, Opp: side}, nil
}
