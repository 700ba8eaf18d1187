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

// Rule names a capture convention: the rule a game is played under.
type Rule uint8

const (
	// NoEmptyCapture is the rule sheets' convention and the default: the last
	// seed in an own empty pit captures only when the opposite pit holds
	// seeds; otherwise it stays.
	NoEmptyCapture Rule = iota
	// EmptyCapture is the convention of Irving, Donkers & Uiterwijk (2000):
	// the last seed in an own empty pit is banked with the opposite pit's
	// seeds, even when the opposite pit is empty.
	EmptyCapture
)

// AllRules lists both conventions, default first.
var AllRules = []Rule{NoEmptyCapture, EmptyCapture}

// String returns the convention's name as the command line spells it.
func (c Rule) String() string {
	switch c {
	case NoEmptyCapture:
		return "no-empty-capture"
	case EmptyCapture:
		return "empty-capture"
	}
	return fmt.Sprintf("Rule(%d)", uint8(c))
}

// ParseRule reads a convention name ("empty-capture" or "no-empty-capture").
func ParseRule(s string) (Rule, error) {
	switch s {
	case "no-empty-capture":
		return NoEmptyCapture, nil
	case "empty-capture":
		return EmptyCapture, nil
	}
	return 0, fmt.Errorf("unknown rule %q: want empty-capture or no-empty-capture", s)
}

// Variant is a game of two-player Kalah short of its seeds: the pit count
// and the rule. The zero value is not valid; use NewVariant.
type Variant struct {
	Pits int  // m, pits per side, 1..MaxPits
	Rule Rule // capture convention
}

// NewVariant validates m and the convention.
func NewVariant(pits int, c Rule) (Variant, error) {
	r := Variant{Pits: pits, Rule: c}
	return r, r.Validate()
}

// Validate reports whether the pit count and convention are supported.
func (r Variant) Validate() error {
	if r.Pits < 1 || r.Pits > MaxPits {
		return fmt.Errorf("pits must be 1..%d, got %d", MaxPits, r.Pits)
	}
	if r.Rule != NoEmptyCapture && r.Rule != EmptyCapture {
		return fmt.Errorf("unknown capture convention %d", r.Rule)
	}
	return nil
}

// String is "Kalah(m) rule", for messages.
func (r Variant) String() string { return fmt.Sprintf("Kalah(%d) %s", r.Pits, r.Rule) }

// Start returns the start position of Kalah(m,n), South to move. It checks
// that 2mn fits the packed board (at most MaxSeeds seeds in all).
func (r Variant) Start(seeds int) (Board, error) {
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
