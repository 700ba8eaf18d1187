package players

import (
	"context"
	"fmt"
	"time"
)

// Concept names a solution concept of the k-player game.
type Concept uint8

const (
	// Paranoid: the player to move at the root maximises its own final
	// store and every other player minimises it, as one coalition. The
	// value is what the root player can guarantee whatever the others do.
	Paranoid Concept = iota
	// MaxN: every player maximises its own final store; a player with
	// several moves of the same own value plays the lowest pit index among
	// them. The value is the final store vector of that play.
	MaxN
)

// Concepts lists both concepts.
var Concepts = []Concept{Paranoid, MaxN}

// String is "paranoid" or "maxn".
func (c Concept) String() string {
	switch c {
	case Paranoid:
		return "paranoid"
	case MaxN:
		return "maxn"
	}
	return fmt.Sprintf("Concept(%d)", uint8(c))
}

// ParseConcept reads "paranoid" or "maxn" ("max^n" too).
func ParseConcept(s string) (Concept, error) {
	switch s {
	case "paranoid":
		return Paranoid, nil
	case "maxn", "max^n", "max-n":
		return MaxN, nil
	}
	return 0, fmt.Errorf("unknown solution concept %q: want paranoid or maxn", s)
}

// Ply is one sowing of a line: the seat that sowed and its pit.
type Ply struct{ Seat, Pit int }

// String is the move's name, "1c".
func (p Ply) String() string { return MoveName(p.Seat, p.Pit) }

// MoveValue is one legal move's value at the root.
type MoveValue struct {
	Pit int
	// Value is the mover's final store under the concept after this move:
	// paranoid, what the mover guarantees; max^n, what it gets.
	Value int
	// Stores are every seat's final stores: under max^n the outcome of the
	// play after the move; under paranoid those of the principal variation
	// after it (only the mover's entry, Value, is guaranteed).
	Stores []int
}

// Solution is a solved position.
type Solution struct {
	Concept Concept
	Variant Variant
	Mover   int         // the seat to move at the root
	Value   int         // the mover's final store under the concept
	Stores  []int       // final stores along PV
	Moves   []MoveValue // every legal move, in pit order
	Best    []int       // the pits whose Value is the mover's best
	PV      []Ply       // a principal variation to the end of the game
	Nodes   uint64      // positions expanded
	Entries int         // positions in the table at the end
	Seconds float64
}

// Solver solves positions of one rule set under one concept, keeping its
// table between calls.
type Solver struct {
	r       Variant
	concept Concept
	opts    Options
	mx      *maxnSearch
	par     *paranoidSearch // nil until needed
	kr      keyer
	seeds   int // seeds in play at most
	ctx     context.Context
}

// Options size a solver's tables.
type Options struct {
	// TableSize is the paranoid table's size (DefaultParanoidTableSize when 0).
	TableSize int64
	// MaxNBytes is the max^n table's size (DefaultMaxNBytes when 0; no
	// larger than the game needs). Max^n keeps every position it meets, a
	// few bytes each (maxntable.go); a search that fills the table stops
	// with an error wrapping ErrTooBig.
	MaxNBytes int64
	// MaxPositions stops a max^n search, with an error wrapping
	// ErrTooBig, when its table would hold more positions (0: no bound
	// but the table's).
	MaxPositions int
	// Progress, when set, is called during a search about every
	// ProgressEvery (a minute when 0) with the nodes expanded, the
	// positions in the table and the table's size (paranoid: the solver's
	// nodes and entries over every search so far).
	Progress      func(nodes uint64, entries int, tableSize int64)
	ProgressEvery time.Duration
}

// DefaultParanoidTableSize is the default size of the paranoid table.
const DefaultParanoidTableSize = 256 << 20

// DefaultTableSize is the table-size policy of the k-player game, the one
// place it is set (kalah.OpenPlayers applies it when no size is given):
// the paranoid search's table is DefaultParanoidTableSize, and max^n, which keeps
// every position it meets, may grow its table up to DefaultMaxNBytes.
func DefaultTableSize(c Concept) int64 {
	if c == MaxN {
		return DefaultMaxNBytes
	}
	return DefaultParanoidTableSize
}

// NewSolver returns a solver for positions with at most seeds seeds in
// play (the key's width).
func NewSolver(r Variant, c Concept, seeds int, opts Options) (*Solver, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	var b Board
	b.Pits[0] = uint64(seeds)
	kr, err := newKeyer(r, b) // the paranoid table's key
	if err != nil && c == Paranoid {
		return nil, err
	}
	if opts.TableSize <= 0 {
		opts.TableSize = DefaultParanoidTableSize
	}
	if opts.MaxNBytes <= 0 {
		opts.MaxNBytes = DefaultMaxNBytes
	}
	s := &Solver{r: r, concept: c, kr: kr, seeds: seeds, opts: opts, ctx: context.Background()}
	prog := &progress{fn: opts.Progress, every: opts.ProgressEvery, last: time.Now()}
	if prog.every <= 0 {
		prog.every = time.Minute
	}
	s.mx = &maxnSearch{r: r, limit: opts.MaxPositions, prog: prog}
	if c == MaxN {
		if s.mx.rk, err = newRanker(r, seeds); err != nil {
			return nil, err
		}
		if s.mx.memo, err = newMaxnTable(s.mx.rk, seeds, opts.MaxNBytes); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// paranoid returns the paranoid search for root (one table serves every
// root seat).
func (s *Solver) paranoid(root uint8) *paranoidSearch {
	if s.par == nil {
		s.par = &paranoidSearch{r: s.r, kr: s.kr, memo: newTable(s.opts.TableSize), ctx: s.ctx, prog: s.mx.prog}
	}
	s.par.root = root
	return s.par
}

// start sets the context of a call and clears any earlier stop.
func (s *Solver) start(ctx context.Context) {
	s.ctx = ctx
	s.mx.ctx, s.mx.err = ctx, nil
	if s.par != nil {
		s.par.ctx, s.par.err = ctx, nil
	}
}

// check refuses a position the solver cannot take.
func (s *Solver) check(p Position) error {
	if p.Players != s.r.Players || p.Pits != s.r.Pits {
		return fmt.Errorf("a %d-player position with %d pits, for a %v solver", p.Players, p.Pits, s.r)
	}
	if p.Board.Seeds() > s.seeds {
		return fmt.Errorf("position has %d seeds in play; the solver was made for at most %d", p.Board.Seeds(), s.seeds)
	}
	if p.Board.Over() {
		return fmt.Errorf("the game is over")
	}
	return nil
}

func (s *Solver) nodes() (n uint64, entries int) {
	n = s.mx.nodes
	if s.mx.memo != nil {
		entries = s.mx.memo.used
	}
	if s.par != nil {
		n += s.par.nodes
		entries += s.par.memo.used
	}
	return n, entries
}

// Solve solves p: the value of every legal move, the best moves and a
// principal variation. ctx stops it (the error is then ctx's).
func (s *Solver) Solve(ctx context.Context, p Position) (*Solution, error) {
	if err := s.check(p); err != nil {
		return nil, err
	}
	s.start(ctx)
	t0 := time.Now()
	n0, _ := s.nodes()
	b := p.Board
	sol := &Solution{Concept: s.concept, Variant: s.r, Mover: p.ToMove(), Value: -1}
	// The line and the stores of every move follow the concept's play
	// from each child; the values are exact.
	for _, i := range b.MoveList() {
		mv, err := s.moveValue(ctx, b, i)
		if err != nil {
			return nil, err
		}
		sol.Moves = append(sol.Moves, mv)
		sol.Value = max(sol.Value, mv.Value)
	}
	for _, mv := range sol.Moves {
		if mv.Value == sol.Value {
			sol.Best = append(sol.Best, mv.Pit)
		}
	}
	sol.PV = append([]Ply{{sol.Mover, sol.Best[0]}}, s.line(ctx, s.after(b, sol.Best[0]), b.ToMove)...)
	for _, mv := range sol.Moves {
		if mv.Pit == sol.Best[0] {
			sol.Stores = mv.Stores
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	n1, entries := s.nodes()
	sol.Nodes, sol.Entries, sol.Seconds = n1-n0, entries, time.Since(t0).Seconds()
	return sol, nil
}

// after is b after pit i (over or not).
func (s *Solver) after(b Board, i int) Board {
	c, _ := s.r.Play(b, i)
	return c
}

// moveValue is pit i's value at b, with its final stores.
func (s *Solver) moveValue(ctx context.Context, b Board, i int) (MoveValue, error) {
	mover := b.ToMove
	c, res := s.r.Play(b, i)
	mv := MoveValue{Pit: i}
	switch s.concept {
	case MaxN:
		g := packStores(c)
		if !res.Over() {
			g += s.mx.value(c)
		}
		if s.mx.err != nil {
			return mv, s.mx.err
		}
		mv.Stores = unpack(g, s.r.Players)
	default:
		ps := s.paranoid(mover)
		v := int(c.Stores[mover])
		if !res.Over() {
			v += ps.exact(c)
		}
		if ps.err != nil {
			return mv, ps.err
		}
		end := s.playOut(ctx, c, mover)
		mv.Stores = make([]int, s.r.Players)
		for p := range mv.Stores {
			mv.Stores[p] = int(end.Stores[p])
		}
		if mv.Stores[mover] != v {
			return mv, fmt.Errorf("internal error: principal variation ends with %d for %s, the search says %d", mv.Stores[mover], SeatName(int(mover)), v)
		}
	}
	mv.Value = mv.Stores[mover]
	return mv, nil
}

// unpack spreads a packed store vector.
func unpack(g uint32, k int) []int {
	out := make([]int, k)
	for p := range out {
		out[p] = int(g >> (8 * uint(p)) & 0xff)
	}
	return out
}

// line is the principal variation from b under the solver's concept (for
// paranoid, with root the seat whose store is the value): at each
// position the lowest pit among the moves whose value is the position's.
func (s *Solver) line(ctx context.Context, b Board, root uint8) []Ply {
	var out []Ply
	for !b.Over() && ctx.Err() == nil {
		i := s.bestPit(b, root)
		out = append(out, Ply{int(b.ToMove), i})
		b = s.after(b, i)
	}
	return out
}

// playOut is the end of the principal variation from b.
func (s *Solver) playOut(ctx context.Context, b Board, root uint8) Board {
	for !b.Over() && ctx.Err() == nil {
		b = s.after(b, s.bestPit(b, root))
	}
	return b
}

// bestPit is the move the concept plays at b (not over): max^n, the
// mover's best own gain, lowest pit first; paranoid, the lowest pit whose
// value for root equals the position's.
func (s *Solver) bestPit(b Board, root uint8) int {
	if s.concept == MaxN {
		sh := 8 * uint(b.ToMove)
		best, bestOwn := 0, -1
		for _, i := range b.MoveList() {
			if own := int(s.mx.move(b, i) >> sh & 0xff); own > bestOwn {
				best, bestOwn = i, own
			}
		}
		return best
	}
	ps := s.paranoid(root)
	v := ps.exact(b)
	for _, i := range b.MoveList() {
		c, res := s.r.Play(b, i)
		imm := int(c.Stores[root]) - int(b.Stores[root])
		if res.Over() {
			if imm == v {
				return i
			}
		} else if ps.is(c, v-imm) {
			return i
		}
	}
	if ps.err != nil {
		return lowBit(b.Moves()) // stopped: the caller returns the error
	}
	panic("players: no move reaches the position's paranoid value")
}

// Guarantee returns what seat can guarantee at p (whoever is to move):
// its final store when every other player plays against it.
func (s *Solver) Guarantee(ctx context.Context, p Position, seat int) (int, error) {
	if err := s.check(p); err != nil {
		return 0, err
	}
	s.start(ctx)
	ps := s.paranoid(uint8(seat))
	v := int(p.Board.Stores[seat]) + ps.exact(p.Board)
	if ps.err != nil {
		return 0, ps.err
	}
	return v, nil
}

// TableSize is the size of the concept's table: max^n's, allocated when
// the solver was made; paranoid's, once a search has used it.
func (s *Solver) TableSize() int64 {
	if s.concept == MaxN {
		return s.mx.memo.Bytes()
	}
	return s.opts.TableSize
}

// Work is the solver's nodes and table entries so far.
func (s *Solver) Work() (nodes uint64, entries int) { return s.nodes() }
