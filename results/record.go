package results

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kalah-solver/kalah/engine"
)

// Record is one solved position: its exact value and how it was computed.
// It is the toolkit's one form of an answer: 'kalah solve --json' prints
// it, the cache keeps it as a position's root record, and a
// start position of Kalah(m,n) with every opening chain's value is one
// line of a results file (see Archive).
//
// Values are final store differences for the side to move under perfect
// play, stores counted; for a start position that is South, the first
// player.
type Record struct {
	Rule  string `json:"rule"`            // capture convention, "empty-capture" or "no-empty-capture"
	Pits  int    `json:"pits"`            // m
	Seeds int    `json:"seeds,omitempty"` // n, seeds per pit, when the position is the start of Kalah(m,n)
	// Position and ToMove name the position solved (engine notation); a
	// results file's records, all start positions, leave them out.
	Position string `json:"position,omitempty"`
	ToMove   string `json:"to_move,omitempty"`
	Value    int    `json:"value"`  // exact value; the lower bound while Lower is set
	Result   string `json:"result"` // "W", "L" or "D" for the side to move; "" while unsolved
	// Lower and Upper are the bounds proven on the value when the solve was
	// stopped before pinning it down; absent once it is exact.
	Lower *int `json:"lower,omitempty"`
	Upper *int `json:"upper,omitempty"`

	// Moves lists every legal move's value in pit order, Best the letters
	// of the moves that reach the value (one best move, Moves empty, for a
	// value-only solve).
	Moves []MoveValue `json:"moves,omitempty"`
	Best  []string    `json:"best,omitempty"`
	// Openings lists every first turn of South, extra-turn chains spelled
	// out, with its exact value (see Opening), in chain order: results
	// files only.
	Openings []Opening `json:"openings,omitempty"`

	// PV is one principal variation to the end of the game in the paper's
	// notation (engine.FormatPaper), PVLetters the same line in pit letters.
	PV        string `json:"pv"`
	PVLetters string `json:"pv_letters"`

	Nodes     int64   `json:"nodes"`      // search nodes, over all threads, openings included
	Seconds   float64 `json:"seconds"`    // wall-clock time, to the millisecond
	Threads   int     `json:"threads"`    // search threads
	TableSize int64   `json:"table_size"` // the table's size in bytes
	EGDBSeeds int     `json:"egdb_seeds"` // largest seed count the endgame database answered; -1 for none
	// CacheHits counts the entries the cache (persist.Cache, from earlier
	// solves) answered; absent when none was used or none found.
	CacheHits int64 `json:"cache_hits,omitempty"`
	// StoreHits is CacheHits and TTBytes is TableSize under their old keys,
	// read from older records and never written (see SyncDeprecated).
	// Deprecated: use CacheHits and TableSize; read until v0.3.0.
	StoreHits int64 `json:"store_hits,omitempty"`
	TTBytes   int64 `json:"tt_bytes,omitempty"`
	// Earlier is what the cell's open runs spent before the run that
	// completed it from their cache (Archive.Put) or from the bounds they
	// proved (kalah.Session.SolveStartFrom); absent otherwise.
	Earlier *EarlierRuns `json:"earlier_runs,omitempty"`
	Date    string       `json:"date"` // UTC day the record was made, YYYY-MM-DD
	Provenance
}

// EarlierRuns are the runs of an open cell (Open) whose proofs reached the
// run that completed it, through the cache or the open record's exact
// bounds: that run's own Nodes and Seconds leave them out.
type EarlierRuns struct {
	Runs      int     `json:"runs"`
	Nodes     int64   `json:"nodes"`      // over all of them
	Seconds   float64 `json:"seconds"`    // wall-clock, over all of them
	EGDBSeeds int     `json:"egdb_seeds"` // of the last of them
	// EGDBSeedsLeast is the shallowest of their databases, when one was
	// shallower than the last's (Open.EGDBSeedsLeast).
	EGDBSeedsLeast *int `json:"egdb_seeds_least,omitempty"`
}

// MoveValue is one legal move's exact value.
type MoveValue struct {
	Move      string `json:"move"`  // letter: a.. for South, A.. for North
	Pit       int    `json:"pit"`   // 1-based from the mover's left
	Value     int    `json:"value"` // final store difference for the mover after this move and perfect play
	ExtraTurn bool   `json:"extra_turn"`
	// Lower and Upper are set only when the solve was stopped before this
	// move's value was pinned down (Value is then the lower bound).
	Lower *int `json:"lower,omitempty"`
	Upper *int `json:"upper,omitempty"`
}

// SyncDeprecated moves what was read under the deprecated keys
// (store_hits, tt_bytes) to their successors (CacheHits, TableSize) and
// clears them, so that the record is written with the glossary's keys
// only. The archive's readers and writers call it; so must any other code
// that decodes or encodes a Record.
func (r *Record) SyncDeprecated() {
	if r.CacheHits == 0 {
		r.CacheHits = r.StoreHits
	}
	if r.TableSize == 0 {
		r.TableSize = r.TTBytes
	}
	r.StoreHits, r.TTBytes = 0, 0
}

// Solved reports whether the record's value is exact.
func (r *Record) Solved() bool { return r.Lower == nil }

// Bounds are the proven bounds on the value: both the value once solved.
func (r *Record) Bounds() (lo, hi int) {
	if r.Lower == nil {
		return r.Value, r.Value
	}
	return *r.Lower, *r.Upper
}

// Opening is one first turn of South: a chain of sowings by South, each but
// the last earning an extra turn, ending when the turn passes or the game
// ends. Chain is written in Rawlings' numbering: 1-based pits from South's
// left joined by dashes, so "1-2" is pit 1, an extra turn, then pit 2.
type Opening struct {
	Chain string `json:"chain"`
	Value int    `json:"value"` // South's final store minus North's after this turn and perfect play
}

// Rules returns the record's rules; it fails on an unknown rule name or
// pit count.
func (r *Record) Rules() (engine.Variant, error) {
	c, err := engine.ParseRule(r.Rule)
	if err != nil {
		return engine.Variant{}, err
	}
	return engine.NewVariant(r.Pits, c)
}

// Name is "Kalah(m,n) rule", for messages.
func (r *Record) Name() string {
	return fmt.Sprintf("Kalah(%d,%d) %s", r.Pits, r.Seeds, r.Rule)
}

// ChainPits reads an opening chain "1-2" into 0-based pits.
func ChainPits(chain string, m int) ([]int, error) {
	var out []int
	for _, f := range strings.Split(chain, "-") {
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 || n > m {
			return nil, fmt.Errorf("chain %q: %q is not a pit number 1..%d", chain, f, m)
		}
		out = append(out, n-1)
	}
	return out, nil
}

// FormatChain writes 0-based pits as a chain in Rawlings' numbering.
func FormatChain(pits []int) string {
	s := make([]string, len(pits))
	for i, p := range pits {
		s[i] = strconv.Itoa(p + 1)
	}
	return strings.Join(s, "-")
}

// Check verifies a record against the rules of the game, independently of
// any solver: the fields are in range, the result matches the value, every
// opening chain is a legal first turn and the chains are exactly all first
// turns, the best opening's value is the value, and the principal variation
// replays legally, the same line in both notations, to a final store
// difference equal to the value.
func (r *Record) Check() error {
	rules, err := r.Rules()
	if err != nil {
		return fmt.Errorf("%s: %w", r.Name(), err)
	}
	start, err := rules.StartPosition(r.Seeds)
	if err != nil {
		return fmt.Errorf("%s: %w", r.Name(), err)
	}
	if r.Result != Outcome(r.Value) {
		return fmt.Errorf("%s: result %q does not match value %s", r.Name(), r.Result, Signed(r.Value))
	}
	total := 2 * r.Pits * r.Seeds
	if r.Value < -total || r.Value > total || (r.Value-total)%2 != 0 {
		return fmt.Errorf("%s: value %d is impossible with %d seeds", r.Name(), r.Value, total)
	}
	want := OpeningChains(rules, start)
	if len(want) != len(r.Openings) {
		return fmt.Errorf("%s: %d openings, want %d", r.Name(), len(r.Openings), len(want))
	}
	best := -1 << 30
	for i, o := range r.Openings {
		if o.Chain != FormatChain(want[i]) {
			return fmt.Errorf("%s: opening %d is %q, want %q", r.Name(), i+1, o.Chain, FormatChain(want[i]))
		}
		best = max(best, o.Value)
	}
	if best != r.Value {
		return fmt.Errorf("%s: best opening value %s differs from the value %s", r.Name(), Signed(best), Signed(r.Value))
	}
	for _, pv := range []struct{ name, text string }{{"pv", r.PV}, {"pv_letters", r.PVLetters}} {
		var line []engine.Ply
		if pv.name == "pv" {
			line, err = rules.ParsePaper(start, pv.text)
		} else {
			line, err = rules.ParseLetters(start, pv.text)
		}
		if err != nil {
			return fmt.Errorf("%s: %s: %w", r.Name(), pv.name, err)
		}
		if engine.FormatPaper(line) != r.PV {
			return fmt.Errorf("%s: pv_letters %q is not the line of pv %q", r.Name(), r.PVLetters, r.PV)
		}
		end, err := rules.PlayLine(start, line)
		if err != nil {
			return fmt.Errorf("%s: %s: %w", r.Name(), pv.name, err)
		}
		if !end.Board.Over() {
			return fmt.Errorf("%s: %s does not reach the end of the game", r.Name(), pv.name)
		}
		if d := end.SouthDiff(); d != r.Value {
			return fmt.Errorf("%s: %s ends %s, not the value %s", r.Name(), pv.name, Signed(d), Signed(r.Value))
		}
		first := FormatChain(firstTurn(line))
		for _, o := range r.Openings {
			if o.Chain == first && o.Value != r.Value {
				return fmt.Errorf("%s: %s opens with %s, whose value is %s, not %s", r.Name(), pv.name, o.Chain, Signed(o.Value), Signed(r.Value))
			}
		}
	}
	if r.Threads < 1 || r.TableSize <= 0 || r.Seconds < 0 || r.Nodes < 0 || r.EGDBSeeds < -1 || r.Date == "" {
		return fmt.Errorf("%s: bad run fields (threads %d, table_size %d, seconds %g, nodes %d, egdb_seeds %d, date %q)",
			r.Name(), r.Threads, r.TableSize, r.Seconds, r.Nodes, r.EGDBSeeds, r.Date)
	}
	if e := r.Earlier; e != nil && (e.Runs < 1 || e.Nodes < 0 || e.Seconds < 0 || e.EGDBSeeds < -1 ||
		e.EGDBSeedsLeast != nil && (*e.EGDBSeedsLeast < -1 || *e.EGDBSeedsLeast >= e.EGDBSeeds)) {
		return fmt.Errorf("%s: bad earlier runs (runs %d, nodes %d, seconds %g, egdb_seeds %d)",
			r.Name(), e.Runs, e.Nodes, e.Seconds, e.EGDBSeeds)
	}
	return nil
}

// OpeningChains lists every first turn from p: chains of sowings by the
// side to move in which every sowing but the last earns an extra turn, in
// lexicographic pit order.
func OpeningChains(rules engine.Variant, p engine.Position) [][]int {
	var out [][]int
	var walk func(b engine.Board, prefix []int)
	walk = func(b engine.Board, prefix []int) {
		for _, i := range b.MoveList() {
			chain := append(append([]int(nil), prefix...), i)
			c, res := rules.Sow(b, i)
			if res.Extra() {
				walk(c, chain)
			} else {
				out = append(out, chain)
			}
		}
	}
	if !p.Board.Over() {
		walk(p.Board, nil)
	}
	return out
}

// firstTurn returns the pits of a line's first turn: its mover's plies up
// to the first after which the turn passes or the game ends.
func firstTurn(line []engine.Ply) []int {
	var out []int
	for _, p := range line {
		if p.Side != line[0].Side {
			break
		}
		out = append(out, p.Pit)
	}
	return out
}

// CheckPosition verifies a record of position p under rules, as the
// cache's root records are checked before they are trusted:
// it is p's record, solved, its moves are p's legal moves, the best move's
// value is the value, and its principal variation replays legally to it.
func (r *Record) CheckPosition(rules engine.Variant, p engine.Position) error {
	if r.Position != p.String() || r.ToMove != p.ToMove.String() || r.Rule != rules.Rule.String() || r.Pits != rules.Pits || !r.Solved() {
		return fmt.Errorf("it is for another position")
	}
	legal := p.Board.MoveList()
	if len(r.Moves) != len(legal) {
		return fmt.Errorf("%d moves, the position has %d", len(r.Moves), len(legal))
	}
	best := p.Board.StoreDiff()
	for k, m := range r.Moves {
		if m.Pit != legal[k]+1 || m.Move != engine.MoveLetter(p.ToMove, legal[k]) || m.Lower != nil {
			return fmt.Errorf("move %d is %s", k+1, m.Move)
		}
		if k == 0 || m.Value > best {
			best = m.Value
		}
	}
	if best != r.Value || r.Result != Outcome(r.Value) {
		return fmt.Errorf("best move value %d, value %d", best, r.Value)
	}
	line, err := rules.ParsePaper(p, r.PV)
	if err != nil {
		return err
	}
	end, err := rules.PlayLine(p, line)
	if err != nil {
		return err
	}
	final := end.SouthDiff()
	if p.ToMove == engine.North {
		final = -final
	}
	if !end.Board.Over() || final != r.Value || engine.FormatLetters(line) != r.PVLetters {
		return fmt.Errorf("its principal variation does not reach the value")
	}
	return nil
}
