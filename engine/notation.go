package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// Side names a player. South moves first.
type Side uint8

const (
	South Side = iota
	North
)

// Other returns the opponent.
func (s Side) Other() Side { return s ^ 1 }

// String is "south" or "north".
func (s Side) String() string {
	if s == North {
		return "north"
	}
	return "south"
}

// ParseSide reads "south"/"s" or "north"/"n", in any case.
func ParseSide(s string) (Side, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "south", "s":
		return South, nil
	case "north", "n":
		return North, nil
	}
	return 0, fmt.Errorf("side to move %q: want south or north", s)
}

// Position is a board with its size and the side to move, in the terms a
// user reads: Board is seen from ToMove.
type Position struct {
	Pits   int
	Board  Board
	ToMove Side
}

// StartPosition is the start of Kalah(m,n), South to move.
func (r Variant) StartPosition(seeds int) (Position, error) {
	b, err := r.Start(seeds)
	return Position{Pits: r.Pits, Board: b, ToMove: South}, err
}

// South returns South's pit words and store.
func (p Position) south() (uint64, uint8) {
	if p.ToMove == South {
		return p.Board.Own, p.Board.OwnStore
	}
	return p.Board.Opp, p.Board.OppStore
}

func (p Position) north() (uint64, uint8) {
	if p.ToMove == South {
		return p.Board.Opp, p.Board.OppStore
	}
	return p.Board.Own, p.Board.OwnStore
}

// Holes returns the 2m+2 counts in the standard order: South's pits 0..m-1,
// South's store (m), North's pits m+1..2m, North's store (2m+1).
func (p Position) Holes() []int {
	m := p.Pits
	h := make([]int, 2*m+2)
	sp, ss := p.south()
	np, ns := p.north()
	for i := 0; i < m; i++ {
		h[i] = int(sp >> (8 * uint(i)) & 0xff)
		h[m+1+i] = int(np >> (8 * uint(i)) & 0xff)
	}
	h[m], h[2*m+1] = int(ss), int(ns)
	return h
}

// String is the comma-separated hole counts, the form ParsePosition reads.
func (p Position) String() string {
	h := p.Holes()
	s := make([]string, len(h))
	for i, v := range h {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, ",")
}

// SouthDiff is South's store minus North's.
func (p Position) SouthDiff() int {
	d := p.Board.StoreDiff()
	if p.ToMove == North {
		d = -d
	}
	return d
}

// PositionFromHoles builds a position from the 2m+2 standard-order counts
// and validates it.
func PositionFromHoles(h []int, toMove Side) (Position, error) {
	n := len(h)
	if n%2 != 0 || n < 4 || n > 2*MaxPits+2 {
		return Position{}, fmt.Errorf("position has %d numbers; want 2m+2 (pits, store, pits, store) for m = 1..%d, e.g. 14 for six pits", n, MaxPits)
	}
	m := (n - 2) / 2
	total := 0
	for i, v := range h {
		if v < 0 {
			return Position{}, fmt.Errorf("position: %s holds %d seeds; counts cannot be negative", HoleName(m, i), v)
		}
		total += v
		if total > MaxSeeds {
			return Position{}, fmt.Errorf("position holds more than %d seeds (at %s); the packed board allows at most %d", MaxSeeds, HoleName(m, i), MaxSeeds)
		}
	}
	if total == 0 {
		return Position{}, fmt.Errorf("position holds no seeds")
	}
	var sp, np uint64
	for i := 0; i < m; i++ {
		sp |= uint64(h[i]) << (8 * uint(i))
		np |= uint64(h[m+1+i]) << (8 * uint(i))
	}
	if (sp == 0) != (np == 0) {
		empty, other := "South", "North"
		if np == 0 {
			empty, other = "North", "South"
		}
		return Position{}, fmt.Errorf("impossible position: %s's pits are all empty while %s's hold seeds; the game ends (and the seeds are swept) as soon as a side is empty", empty, other)
	}
	b := Board{Own: sp, Opp: np, OwnStore: uint8(h[m]), OppStore: uint8(h[2*m+1])}
	if toMove == North {
		b = b.Flip()
	}
	return Position{Pits: m, Board: b, ToMove: toMove}, nil
}

// ParsePosition reads a position written as its 2m+2 comma-separated hole
// counts in the standard order (spaces allowed), e.g. the Kalah(6,4) start
// "4,4,4,4,4,4,0,4,4,4,4,4,4,0". Errors say what is wrong and where.
func ParsePosition(s string, toMove Side) (Position, error) {
	fields := strings.Split(strings.TrimSpace(s), ",")
	h := make([]int, len(fields))
	for i, f := range fields {
		f = strings.TrimSpace(f)
		v, err := strconv.Atoi(f)
		if err != nil {
			return Position{}, fmt.Errorf("position: field %d is %q, not a whole number", i+1, f)
		}
		h[i] = v
	}
	return PositionFromHoles(h, toMove)
}

// HoleName names hole i of the standard order: "pit c (2)", "South's store (6)".
func HoleName(m, i int) string {
	switch {
	case i < m:
		return fmt.Sprintf("pit %c (hole %d)", 'a'+i, i)
	case i == m:
		return fmt.Sprintf("South's store (hole %d)", i)
	case i <= 2*m:
		return fmt.Sprintf("pit %c (hole %d)", 'A'+i-m-1, i)
	case i == 2*m+1:
		return fmt.Sprintf("North's store (hole %d)", i)
	}
	return fmt.Sprintf("hole %d", i)
}

// MoveLetter is the letter of the mover's pit i: a..h for South, A..H for North.
func MoveLetter(s Side, i int) string {
	if s == North {
		return string(rune('A' + i))
	}
	return string(rune('a' + i))
}

// ParseMove reads a move for the side to move of p: its letter (a..h for
// South, A..H for North) or its 1-based pit number from the mover's left.
// It returns the 0-based pit index and checks that the pit holds seeds.
func ParseMove(p Position, s string) (int, error) {
	s = strings.TrimSpace(s)
	i := -1
	if n, err := strconv.Atoi(s); err == nil {
		if n < 1 || n > p.Pits {
			return 0, fmt.Errorf("move %q: pit numbers run 1..%d", s, p.Pits)
		}
		i = n - 1
	} else if len(s) == 1 {
		c := s[0]
		switch {
		case c >= 'a' && c < 'a'+byte(p.Pits):
			if p.ToMove != South {
				return 0, fmt.Errorf("move %q is South's pit, but North is to move (North's pits are A..%c)", s, 'A'+p.Pits-1)
			}
			i = int(c - 'a')
		case c >= 'A' && c < 'A'+byte(p.Pits):
			if p.ToMove != North {
				return 0, fmt.Errorf("move %q is North's pit, but South is to move (South's pits are a..%c)", s, 'a'+p.Pits-1)
			}
			i = int(c - 'A')
		}
	}
	if i < 0 {
		return 0, fmt.Errorf("move %q: want a pit letter (a..%c for South, A..%c for North) or a number 1..%d", s, 'a'+p.Pits-1, 'A'+p.Pits-1, p.Pits)
	}
	if p.Board.Over() {
		return 0, fmt.Errorf("move %q: the game is over", s)
	}
	if p.Board.Pit(i) == 0 {
		return 0, fmt.Errorf("move %q: pit %s is empty", s, MoveLetter(p.ToMove, i))
	}
	return i, nil
}

// Play plays the mover's pit i on p and returns the next position.
func (r Variant) PlayPosition(p Position, i int) (Position, Result) {
	c, res := r.Play(p.Board, i)
	next := p.ToMove
	if res&(ResExtra|ResOver) == 0 {
		next = next.Other()
	}
	return Position{Pits: p.Pits, Board: c, ToMove: next}, res
}

// Diagram draws the board in ASCII, North on top (its pits right to left, as
// North sees them from across the table), North's store on the left and
// South's on the right.
func (p Position) Diagram() string {
	m := p.Pits
	h := p.Holes()
	var sb strings.Builder
	cell := func(v any) { fmt.Fprintf(&sb, "%4v", v) }
	sb.WriteString("     ")
	for i := m - 1; i >= 0; i-- {
		cell(string(rune('A' + i)))
	}
	sb.WriteString("\n     ")
	for i := m - 1; i >= 0; i-- {
		cell(h[m+1+i])
	}
	fmt.Fprintf(&sb, "\n%4d %s %4d\n     ", h[2*m+1], strings.Repeat("    ", m), h[m])
	for i := 0; i < m; i++ {
		cell(h[i])
	}
	sb.WriteString("\n     ")
	for i := 0; i < m; i++ {
		cell(string(rune('a' + i)))
	}
	status := p.ToMove.String() + " to move"
	if p.Board.Over() {
		status = "game over"
	}
	fmt.Fprintf(&sb, "\n(%s; North's store left, South's right)\n", status)
	return sb.String()
}
