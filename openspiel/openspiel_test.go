package openspiel

import (
	"bufio"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kalah-solver/kalah/engine"
)

// shown is one state of the playthrough.
type shown struct {
	move, player int
	board        []int
	returns      [2]int
}

func readPlaythrough(t *testing.T) (actions []int, states []shown) {
	t.Helper()
	f, err := os.Open("testdata/mancala_playthrough.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	ints := func(fs []string) []int {
		out := make([]int, len(fs))
		for i, s := range fs {
			n, err := strconv.Atoi(s)
			if err != nil {
				t.Fatal(err)
			}
			out[i] = n
		}
		return out
	}
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		switch {
		case len(fs) == 0 || strings.HasPrefix(fs[0], "#"):
		case fs[0] == "actions":
			actions = ints(fs[1:])
		case fs[0] == "state" && len(fs) == 19:
			n := ints(fs[1:])
			states = append(states, shown{move: n[0], player: n[1], board: n[2:16], returns: [2]int{n[16], n[17]}})
		default:
			t.Fatalf("testdata line %q", sc.Text())
		}
	}
	return actions, states
}

// TestPlaythrough: OpenSpiel's own playthrough of mancala, its actions
// replayed by the engine under no-empty-capture, gives every board it
// shows, its players to move, its end and its result (a draw, 24-24).
func TestPlaythrough(t *testing.T) {
	actions, states := readPlaythrough(t)
	if len(actions) != 61 || len(states) < 10 {
		t.Fatalf("%d actions, %d states", len(actions), len(states))
	}
	r := engine.Variant{Pits: Pits, Rule: Rule}
	p, _ := r.StartPosition(Seeds)
	positions := []engine.Position{p}
	for i, a := range actions {
		side, pit, err := Move(Pits, a)
		if err != nil || side != p.ToMove || p.Board.Pit(pit) == 0 || p.Board.Over() {
			t.Fatalf("action %d (%d): %v, side %v, %v", i+1, a, err, side, p)
		}
		p, _ = r.PlayPosition(p, pit)
		positions = append(positions, p)
	}
	for _, s := range states {
		p := positions[s.move]
		st := State{Board: s.board, Player: s.player}
		got, err := ToPosition(st)
		if err != nil {
			t.Fatalf("state %d: %v", s.move, err)
		}
		if !slices.Equal(got.Holes(), p.Holes()) || got.Board.Over() != p.Board.Over() {
			t.Errorf("state %d: OpenSpiel's board gives %v, the engine has %v", s.move, got, p)
		}
		if s.player == Terminal {
			if !p.Board.Over() || s.move != len(actions) {
				t.Errorf("state %d is OpenSpiel's end; the engine's game is over: %v", s.move, p.Board.Over())
			}
			d := p.SouthDiff()
			if sign(d) != s.returns[0] || -sign(d) != s.returns[1] {
				t.Errorf("final margin %+d; OpenSpiel's returns %v", d, s.returns)
			}
			continue
		}
		if got.ToMove != p.ToMove || got != p {
			t.Errorf("state %d: player %d gives %v, the engine has %v", s.move, s.player, got, p)
		}
		if back := FromPosition(p); !slices.Equal(back.Board, s.board) || back.Player != s.player {
			t.Errorf("state %d: the engine's position gives %+v, OpenSpiel shows %v player %d", s.move, back, s.board, s.player)
		}
	}
	if !positions[len(positions)-1].Board.Over() {
		t.Error("the playthrough's game does not end in the engine")
	}
}

func sign(d int) int {
	switch {
	case d > 0:
		return 1
	case d < 0:
		return -1
	}
	return 0
}

// osState is OpenSpiel's mancala as its source describes it, played
// directly on its board: sowing towards higher indices, skipping the
// opponent's store, capturing from a non-empty opposite pit, an extra
// turn in one's own store, the end when either row is empty (seeds left
// where they are).
type osState struct {
	board  []int
	player int
	m      int
}

func (s *osState) store(p int) int {
	if p == 0 {
		return s.m + 1
	}
	return 0
}

func (s *osState) own(p, i int) bool {
	if p == 0 {
		return i >= 1 && i <= s.m
	}
	return i >= s.m+2
}

func (s *osState) terminal() bool {
	a, b := 0, 0
	for i := 1; i <= s.m; i++ {
		a += s.board[i]
		b += s.board[s.m+1+i]
	}
	return a == 0 || b == 0
}

func (s *osState) legal() []int {
	var out []int
	for i := range s.board {
		if s.own(s.player, i) && s.board[i] > 0 {
			out = append(out, i)
		}
	}
	return out
}

func (s *osState) apply(a int) {
	n := len(s.board)
	seeds := s.board[a]
	s.board[a] = 0
	at := a
	for ; seeds > 0; seeds-- {
		at = (at + 1) % n
		if at == s.store(1-s.player) {
			at = (at + 1) % n
		}
		s.board[at]++
	}
	if opp := n - at; s.own(s.player, at) && s.board[at] == 1 && s.board[opp] > 0 {
		s.board[s.store(s.player)] += 1 + s.board[opp]
		s.board[at], s.board[opp] = 0, 0
	}
	if at != s.store(s.player) {
		s.player = 1 - s.player
	}
}

// TestRoundTrip: along random games of several board sizes, played both
// on OpenSpiel's board and by the engine, every state converts to the
// engine's position and back, the legal actions are the engine's legal
// moves, and the games end together.
func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(65, 14))
	games := 300
	if testing.Short() {
		games = 100
	}
	for g := range games {
		m, n := Pits, Seeds
		if g%3 == 1 {
			m, n = 1+rng.IntN(engine.MaxPits), 1+rng.IntN(6)
		}
		r := engine.Variant{Pits: m, Rule: Rule}
		p, _ := r.StartPosition(n)
		s := &osState{board: FromPosition(p).Board, m: m}
		for {
			st := State{Board: slices.Clone(s.board), Player: s.player}
			if s.terminal() {
				st.Player = Terminal
			}
			got, err := ToPosition(st)
			if err != nil {
				t.Fatalf("%v: %v", st, err)
			}
			if !slices.Equal(got.Holes(), p.Holes()) || (!p.Board.Over() && got != p) {
				t.Fatalf("Kalah(%d,%d): OpenSpiel %v gives %v, the engine has %v", m, n, st, got, p)
			}
			if s.terminal() != p.Board.Over() {
				t.Fatalf("Kalah(%d,%d): OpenSpiel terminal %v, the engine %v at %v", m, n, s.terminal(), p.Board.Over(), p)
			}
			back := FromPosition(p)
			if p.Board.Over() {
				if back.Player != Terminal {
					t.Fatalf("a finished game's player %d", back.Player)
				}
				if q, err := ToPosition(back); err != nil || !slices.Equal(q.Holes(), p.Holes()) {
					t.Fatalf("%v: %v %v", back, q, err)
				}
				break
			}
			if !slices.Equal(back.Board, s.board) || back.Player != s.player {
				t.Fatalf("%v gives %+v; OpenSpiel has %v player %d", p, back, s.board, s.player)
			}
			var want []int
			for _, i := range p.Board.MoveList() {
				want = append(want, Action(m, p.ToMove, i))
			}
			slices.Sort(want)
			legal := s.legal()
			if !slices.Equal(legal, want) {
				t.Fatalf("%v: OpenSpiel's legal actions %v, the engine's moves %v", p, legal, want)
			}
			a := legal[rng.IntN(len(legal))]
			side, pit, err := Move(m, a)
			if err != nil || side != p.ToMove {
				t.Fatalf("action %d: %v %v", a, side, err)
			}
			s.apply(a)
			p, _ = r.PlayPosition(p, pit)
		}
	}
}

// TestBadStates: what is no state or no action is an error.
func TestBadStates(t *testing.T) {
	for _, st := range []State{
		{Board: []int{1, 2, 3}},
		{Board: []int{0, 4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4}, Player: 2},
		{Board: []int{0, 4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4}, Player: Terminal},
		{Board: []int{0, -1, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4}},
		{Board: make([]int, 14)},
	} {
		if p, err := ToPosition(st); err == nil {
			t.Errorf("%+v gave %v", st, p)
		}
	}
	for _, a := range []int{0, 7, 14, -1} {
		if _, _, err := Move(Pits, a); err == nil {
			t.Errorf("action %d was taken", a)
		}
	}
}
