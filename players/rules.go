package players

import "fmt"

// Target says whose pits a capture takes from.
type Target uint8

const (
	// TargetNext captures from the next player (the one whose pits the
	// mover sows into after the mover's store): the rule sites' default.
	TargetNext Target = iota
	// TargetOpposite captures from the player opposite: seat mover+k/2, so
	// the next player when k = 2 or 3, the player across the table when
	// k = 4.
	TargetOpposite
	// TargetAll captures from every other player at once.
	TargetAll
)

// Targets lists the capture targets, default first.
var Targets = []Target{TargetNext, TargetOpposite, TargetAll}

// String returns the target's name as the command line spells it.
func (t Target) String() string {
	switch t {
	case TargetNext:
		return "next"
	case TargetOpposite:
		return "opposite"
	case TargetAll:
		return "all"
	}
	return fmt.Sprintf("Target(%d)", uint8(t))
}

// ParseTarget reads "next", "opposite" or "all".
func ParseTarget(s string) (Target, error) {
	for _, t := range Targets {
		if s == t.String() {
			return t, nil
		}
	}
	return 0, fmt.Errorf("unknown capture target %q: want next, opposite or all", s)
}

// Variant fix the number of players, the pits per player and the capture
// target. The capture convention is always no-empty-capture: when every
// target pit is empty nothing is taken and the last seed stays.
type Variant struct {
	Players int    // k, 2..MaxPlayers
	Pits    int    // m, pits per player, 1..MaxPits
	Target  Target // whose pits a capture takes
}

// NewVariant validates the rules.
func NewVariant(players, pits int, t Target) (Variant, error) {
	r := Variant{Players: players, Pits: pits, Target: t}
	return r, r.Validate()
}

// Validate reports whether the rules are supported.
func (r Variant) Validate() error {
	if r.Players < 2 || r.Players > MaxPlayers {
		return fmt.Errorf("players must be 2..%d, got %d", MaxPlayers, r.Players)
	}
	if r.Pits < 1 || r.Pits > MaxPits {
		return fmt.Errorf("pits must be 1..%d, got %d", MaxPits, r.Pits)
	}
	if r.Target > TargetAll {
		return fmt.Errorf("unknown capture target %d", r.Target)
	}
	return nil
}

// Canonical returns the rules with the target that plays identically named
// once: with two or three players the opposite player is the next one, so
// TargetOpposite becomes TargetNext.
func (r Variant) Canonical() Variant {
	if r.Target == TargetOpposite && r.Players < 4 {
		r.Target = TargetNext
	}
	return r
}

// String is "Kalah(k players, m pits) capture target", for messages.
func (r Variant) String() string {
	return fmt.Sprintf("%d-player Kalah(%d), capture from %s", r.Players, r.Pits, r.Target)
}

// Name is "Kalah(m,n) for k players".
func (r Variant) Name(seeds int) string {
	return fmt.Sprintf("%d-player Kalah(%d,%d)", r.Players, r.Pits, seeds)
}

// Start returns the start position of Kalah(m,n) for k players, P1 to move.
// It checks that kmn fits the packed board (at most MaxSeeds seeds).
func (r Variant) Start(seeds int) (Board, error) {
	if err := r.Validate(); err != nil {
		return Board{}, err
	}
	if seeds < 1 {
		return Board{}, fmt.Errorf("seeds per pit must be at least 1, got %d", seeds)
	}
	if r.Players*r.Pits*seeds > MaxSeeds {
		return Board{}, fmt.Errorf("%s has %d seeds; at most %d fit the packed board", r.Name(seeds), r.Players*r.Pits*seeds, MaxSeeds)
	}
	var b Board
	for p := 0; p < r.Players; p++ {
		b.Pits[p] = uint64(seeds) * laneOnes[r.Pits]
	}
	return b, nil
}
