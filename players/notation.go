package players

import (
	"fmt"
	"strconv"
	"strings"
)

// Position is a board with its size, in the terms a user reads.
type Position struct {
	Players, Pits int
	Board         Board
}

// StartPosition is the start of Kalah(m,n) for k players, P1 to move.
func (r Variant) StartPosition(seeds int) (Position, error) {
	b, err := r.Start(seeds)
	return Position{Players: r.Players, Pits: r.Pits, Board: b}, err
}

// SeatName is "P1".."P4" for seat 0..3.
func SeatName(seat int) string { return "P" + strconv.Itoa(seat+1) }

// ToMove is the seat to move.
func (p Position) ToMove() int { return int(p.Board.ToMove) }

// Holes returns the k(m+1) counts in the standard order: P1's pits a..,
// P1's store, P2's pits a.., P2's store, and so on (the sowing order).
func (p Position) Holes() []int {
	m := p.Pits
	h := make([]int, 0, p.Players*(m+1))
	for s := 0; s < p.Players; s++ {
		for i := 0; i < m; i++ {
			h = append(h, p.Board.Pit(s, i))
		}
		h = append(h, int(p.Board.Stores[s]))
	}
	return h
}

// Stores returns the k stores in seat order.
func (p Position) Stores() []int {
	out := make([]int, p.Players)
	for s := range out {
		out[s] = int(p.Board.Stores[s])
	}
	return out
}

// String writes the position as ParsePosition reads it: one group per
// player in seat order, separated by "/", each the player's pits from the
// player's left then the player's store: "4,4,4,4,0/4,4,4,4,0/4,4,4,4,0".
func (p Position) String() string {
	h := p.Holes()
	groups := make([]string, p.Players)
	for s := range groups {
		f := make([]string, p.Pits+1)
		for j := range f {
			f[j] = strconv.Itoa(h[s*(p.Pits+1)+j])
		}
		groups[s] = strings.Join(f, ",")
	}
	return strings.Join(groups, "/")
}

// ParsePosition reads a position written as String writes it, with the
// seat to move (0-based). Every group must have the same m+1 counts; the
// pits of every player must hold seeds, or all be empty (a finished game).
func ParsePosition(text string, toMove int) (Position, error) {
	groups := strings.Split(strings.TrimSpace(text), "/")
	k := len(groups)
	if k < 2 || k > MaxPlayers {
		return Position{}, fmt.Errorf("position has %d groups; want one per player (2..%d), separated by '/', e.g. 4,4,4,4,0/4,4,4,4,0/4,4,4,4,0", k, MaxPlayers)
	}
	if toMove < 0 || toMove >= k {
		return Position{}, fmt.Errorf("player to move %d: the position has players 1..%d", toMove+1, k)
	}
	var p Position
	p.Players = k
	total := 0
	for s, g := range groups {
		fields := strings.Split(g, ",")
		if s == 0 {
			p.Pits = len(fields) - 1
			if p.Pits < 1 || p.Pits > MaxPits {
				return Position{}, fmt.Errorf("position: %s's group has %d numbers; want m+1 (pits, then the store) for m = 1..%d", SeatName(s), len(fields), MaxPits)
			}
		} else if len(fields) != p.Pits+1 {
			return Position{}, fmt.Errorf("position: %s's group has %d numbers, %s's has %d; every player has the same pits", SeatName(s), len(fields), SeatName(0), p.Pits+1)
		}
		for j, f := range fields {
			f = strings.TrimSpace(f)
			v, err := strconv.Atoi(f)
			if err != nil || v < 0 {
				return Position{}, fmt.Errorf("position: %s is %q, not a count of seeds", holeName(s, j, p.Pits), f)
			}
			if total += v; total > MaxSeeds {
				return Position{}, fmt.Errorf("position holds more than %d seeds (at %s); the packed board allows at most %d", MaxSeeds, holeName(s, j, p.Pits), MaxSeeds)
			}
			if j == p.Pits {
				p.Board.Stores[s] = uint8(v)
			} else {
				p.Board.Pits[s] |= uint64(v) << (8 * uint(j))
			}
		}
	}
	if total == 0 {
		return Position{}, fmt.Errorf("position holds no seeds")
	}
	empty := 0
	for s := 0; s < k; s++ {
		if p.Board.Pits[s] == 0 {
			empty++
		}
	}
	if empty > 0 && empty < k {
		return Position{}, fmt.Errorf("impossible position: some players' pits are all empty while others hold seeds; the game ends (and the seeds are swept) as soon as one player's pits are empty")
	}
	p.Board.ToMove = uint8(toMove)
	return p, nil
}

// ParseSeat reads a seat as "P2", "p2" or "2" and returns it 0-based.
func ParseSeat(s string, players int) (int, error) {
	t := strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(s), "P"), "p")
	n, err := strconv.Atoi(t)
	if err != nil || n < 1 || n > players {
		return 0, fmt.Errorf("player %q: want 1..%d (or P1..P%d)", s, players, players)
	}
	return n - 1, nil
}

func holeName(seat, j, m int) string {
	if j == m {
		return SeatName(seat) + "'s store"
	}
	return fmt.Sprintf("%s's pit %c", SeatName(seat), 'a'+j)
}

// MoveName writes the mover's pit i with its seat: "1c" is P1's pit c.
func MoveName(seat, i int) string { return fmt.Sprintf("%d%c", seat+1, 'a'+i) }

// ParseMove reads a move for the player to move of p: the pit's letter
// (a..h from the mover's left, either case) or 1-based number, optionally
// after the mover's seat ("2c", "P2c"). It returns the 0-based pit and
// checks that the pit holds seeds.
func ParseMove(p Position, s string) (int, error) {
	s = strings.TrimSpace(s)
	mover := p.ToMove()
	if p.Board.Over() {
		return 0, fmt.Errorf("move %q: the game is over", s)
	}
	if n, err := strconv.Atoi(s); err == nil {
		if n < 1 || n > p.Pits {
			return 0, fmt.Errorf("move %q: pit numbers run 1..%d", s, p.Pits)
		}
		return checkMove(p, s, n-1)
	}
	if len(s) >= 2 {
		seat, err := ParseSeat(s[:len(s)-1], p.Players)
		if err != nil {
			return 0, fmt.Errorf("move %q: want a pit letter a..%c, a number 1..%d, or a seat and a letter such as %s", s, 'a'+p.Pits-1, p.Pits, MoveName(mover, 0))
		}
		if seat != mover {
			return 0, fmt.Errorf("move %q is %s's, but %s is to move", s, SeatName(seat), SeatName(mover))
		}
		s = s[len(s)-1:]
	}
	if len(s) == 1 {
		c := s[0] | 0x20 // lower case
		if c >= 'a' && c < 'a'+byte(p.Pits) {
			return checkMove(p, s, int(c-'a'))
		}
	}
	return 0, fmt.Errorf("move %q: want a pit letter a..%c, a number 1..%d, or a seat and a letter such as %s", s, 'a'+p.Pits-1, p.Pits, MoveName(mover, 0))
}

func checkMove(p Position, s string, i int) (int, error) {
	if p.Board.Pit(p.ToMove(), i) == 0 {
		return 0, fmt.Errorf("move %q: %s's pit %c is empty", s, SeatName(p.ToMove()), 'a'+i)
	}
	return i, nil
}

// PlayPosition plays the mover's pit i on p.
func (r Variant) PlayPosition(p Position, i int) (Position, Result) {
	c, res := r.Play(p.Board, i)
	return Position{Players: p.Players, Pits: p.Pits, Board: c}, res
}

// Diagram draws the board as one row per player in seat order, each row's
// pits from the player's left (the sowing order) and its store at the end;
// seeds run along a row, into the mover's store, on to the next row, and
// from the last row back to the first. The mover's row is marked ">".
func (p Position) Diagram() string {
	var sb strings.Builder
	sb.WriteString("      ")
	for i := 0; i < p.Pits; i++ {
		fmt.Fprintf(&sb, "%4c", 'a'+i)
	}
	sb.WriteString("   store\n")
	for s := 0; s < p.Players; s++ {
		mark := ' '
		if !p.Board.Over() && s == p.ToMove() {
			mark = '>'
		}
		fmt.Fprintf(&sb, "%c %-4s", mark, SeatName(s))
		for i := 0; i < p.Pits; i++ {
			fmt.Fprintf(&sb, "%4d", p.Board.Pit(s, i))
		}
		fmt.Fprintf(&sb, " | %4d\n", p.Board.Stores[s])
	}
	status := SeatName(p.ToMove()) + " to move"
	if p.Board.Over() {
		status = "game over"
	}
	fmt.Fprintf(&sb, "(%s; seeds run along each row, into the mover's store only, on to the next row; the last row feeds the first)\n", status)
	return sb.String()
}

// Ranks returns each seat's rank by store, 1 the best; equal stores share
// a rank (1, 1, 3).
func Ranks(stores []int) []int {
	out := make([]int, len(stores))
	for i, v := range stores {
		out[i] = 1
		for _, w := range stores {
			if w > v {
				out[i]++
			}
		}
	}
	return out
}

// Capture says what a move captured: the seeds banked (the last seed
// included) and the seats they came from; zero when it captured nothing.
type Capture struct {
	Seeds int
	From  []int
}

// CaptureOf replays pit i of b and says what it captured.
func (r Variant) CaptureOf(b Board, i int) Capture {
	_, res, banked := r.play(b, i)
	if !res.Capture() {
		return Capture{}
	}
	sown, last := r.sow(b, i)
	c := Capture{Seeds: banked}
	lo, hi := r.targetRange()
	for d := lo; d <= hi; d++ {
		t := (int(b.ToMove) + d) % r.Players
		if sown.Pit(t, r.Pits-1-last) > 0 {
			c.From = append(c.From, t)
		}
	}
	return c
}
