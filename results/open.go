package results

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Open is a target cell whose solve stopped before its record was
// complete: the bounds proven on its value, never a value, and why and
// after how much work it stopped. Lower = Upper means the value is proven
// but the opening chains or the principal variation are not (Stage).
//
// A cell may be attempted over several runs (kalah sweep --cache resumes
// from the entries the earlier runs proved); Runs, Nodes and Seconds add
// up over the runs, and the bounds are the intersection of every run's
// proven bounds. The other fields are those of the last run, but
// EGDBSeedsLeast, which says when an earlier run used a shallower database.
type Open struct {
	Rule  string `json:"rule"`
	Pits  int    `json:"pits"`
	Seeds int    `json:"seeds"`
	Lower int    `json:"lower"` // proven: South's final store minus North's is at least this
	Upper int    `json:"upper"` // and at most this
	// Stage is what was being computed when the last run stopped: "value",
	// "openings" (the value is exact, some opening chains are not) or "pv".
	Stage string `json:"stage"`
	// Reason says why the last run stopped: "time limit 20m0s", "interrupted".
	Reason    string  `json:"reason"`
	Runs      int     `json:"runs"`
	Nodes     int64   `json:"nodes"`   // over all runs
	Seconds   float64 `json:"seconds"` // wall-clock, over all runs
	Threads   int     `json:"threads"`
	TableSize int64   `json:"table_size"`
	EGDBSeeds int     `json:"egdb_seeds"` // -1 for none
	// EGDBSeedsLeast is the shallowest database of the runs (-1 for none),
	// when one ran with a shallower database than the last; absent otherwise.
	EGDBSeedsLeast *int `json:"egdb_seeds_least,omitempty"`
	Cache          bool `json:"cache"` // the runs kept their proofs in a cache
	// Store is Cache and TTBytes is TableSize under their old keys, read
	// from older records and never written (see SyncDeprecated).
	// Deprecated: use Cache and TableSize; read until v0.3.0.
	Store   bool   `json:"store,omitempty"`
	TTBytes int64  `json:"tt_bytes,omitempty"`
	Date    string `json:"date"` // UTC day of the last run
	// Campaign names the distributed campaign (kalah campaign) whose runs
	// this is; its counts are the campaign's totals over all its runs, so
	// that recording it again replaces them instead of adding.
	Campaign string `json:"campaign,omitempty"`
	// Moves are the bounds proven on each of South's first moves, in the
	// order of the pits (a campaign proves them one root move at a time).
	Moves []MoveBounds `json:"moves,omitempty"`
	// Chains are the bounds proven on opening chains of more than one
	// sowing (chain as in Opening: "4-1"), by the runs that reached them.
	Chains []ChainBounds `json:"chains,omitempty"`
	Provenance
}

// ChainBounds are the proven bounds on the value of one opening chain
// (South's final store difference after the chain's sowings and perfect
// play from there).
type ChainBounds struct {
	Chain string `json:"chain"`
	Lower int    `json:"lower"`
	Upper int    `json:"upper"`
}

// MoveBounds are the proven bounds on the value of one first move (the
// final store difference for South when South plays it and both sides
// then play perfectly).
type MoveBounds struct {
	Move  string `json:"move"`
	Lower int    `json:"lower"`
	Upper int    `json:"upper"`
}

// SyncDeprecated moves what was read under the deprecated keys (store,
// tt_bytes) to their successors (Cache, TableSize) and clears them, as
// Record.SyncDeprecated does.
func (o *Open) SyncDeprecated() {
	o.Cache = o.Cache || o.Store
	if o.TableSize == 0 {
		o.TableSize = o.TTBytes
	}
	o.Store, o.TTBytes = false, 0
}

// Name is "Kalah(m,n) rule", for messages.
func (o *Open) Name() string { return fmt.Sprintf("Kalah(%d,%d) %s", o.Pits, o.Seeds, o.Rule) }

// Check verifies that the bounds are possible for the game and the run
// fields are filled in.
func (o *Open) Check() error {
	total := 2 * o.Pits * o.Seeds
	if _, err := (&Record{Rule: o.Rule, Pits: o.Pits}).Rules(); err != nil || o.Seeds < 1 {
		return fmt.Errorf("%s: not a game: %v", o.Name(), err)
	}
	if o.Lower > o.Upper || o.Lower < -total || o.Upper > total {
		return fmt.Errorf("%s: bounds %d..%d are impossible with %d seeds", o.Name(), o.Lower, o.Upper, total)
	}
	for _, m := range o.Moves {
		if m.Move == "" || m.Lower > m.Upper || m.Lower < -total || m.Upper > total {
			return fmt.Errorf("%s: move %q bounds %d..%d are impossible with %d seeds", o.Name(), m.Move, m.Lower, m.Upper, total)
		}
		if m.Lower > o.Upper {
			return fmt.Errorf("%s: move %s is worth at least %d, above the cell's upper bound %d", o.Name(), m.Move, m.Lower, o.Upper)
		}
	}
	for _, c := range o.Chains {
		if _, err := ChainPits(c.Chain, o.Pits); err != nil {
			return fmt.Errorf("%s: %v", o.Name(), err)
		}
		if c.Lower > c.Upper || c.Lower < -total || c.Upper > total {
			return fmt.Errorf("%s: chain %s bounds %d..%d are impossible with %d seeds", o.Name(), c.Chain, c.Lower, c.Upper, total)
		}
		if c.Lower > o.Upper {
			return fmt.Errorf("%s: chain %s is worth at least %d, above the cell's upper bound %d", o.Name(), c.Chain, c.Lower, o.Upper)
		}
	}
	if l := o.EGDBSeedsLeast; l != nil && (*l < -1 || *l >= o.EGDBSeeds) {
		return fmt.Errorf("%s: egdb_seeds_least %d is not below egdb_seeds %d", o.Name(), *l, o.EGDBSeeds)
	}
	if o.Reason == "" || o.Runs < 1 || o.Threads < 1 || o.Nodes < 0 || o.Seconds < 0 || o.Date == "" {
		return fmt.Errorf("%s: bad run fields (reason %q, runs %d, threads %d, nodes %d, seconds %g, date %q)",
			o.Name(), o.Reason, o.Runs, o.Threads, o.Nodes, o.Seconds, o.Date)
	}
	return nil
}

// Proves reports whether any bound, the cell's or a move's, is narrower
// than the game's whole range.
func (o *Open) Proves() bool {
	total := 2 * o.Pits * o.Seeds
	if o.Lower > -total || o.Upper < total {
		return true
	}
	for _, m := range o.Moves {
		if m.Lower > -total || m.Upper < total {
			return true
		}
	}
	for _, c := range o.Chains {
		if c.Lower > -total || c.Upper < total {
			return true
		}
	}
	return false
}

// Bounds writes the bounds as Cell.Bounds does: ">= +4", "+2..+8", "= +4".
func (o *Open) Bounds() string {
	return (&Cell{Pits: o.Pits, Seeds: o.Seeds, Lower: o.Lower, Upper: o.Upper}).Bounds()
}

// MoveText writes a first move's bounds as Bounds does the cell's.
func (o *Open) MoveText(m MoveBounds) string {
	return (&Cell{Pits: o.Pits, Seeds: o.Seeds, Lower: m.Lower, Upper: m.Upper}).Bounds()
}

// EGDBText is the database depth of the runs: "22", or "20-22" when
// some ran with a shallower one than the last.
func (o *Open) EGDBText() string {
	return egdbRange(o.EGDBSeeds, o.EGDBSeedsLeast)
}

func egdbRange(last int, least *int) string {
	if least == nil || *least >= last {
		return fmt.Sprint(last)
	}
	return fmt.Sprintf("%d-%d", *least, last)
}

// OpenPath is the file of the open cells of every rule.
func (s Archive) OpenPath() string { return filepath.Join(s.Dir, "open.jsonl") }

// LoadOpen reads the open cells; a missing file is none.
func (s Archive) LoadOpen() ([]Open, error) {
	return loadFile[Open](s.OpenPath())
}

// PutOpen records another run of an open cell, merging it with the
// cell's earlier runs (see Open): the bounds, the cell's and each move's,
// are intersected; runs, nodes and seconds add up, except that a record
// of the same campaign carries its totals already and replaces them.
func (s Archive) PutOpen(o Open) error {
	old, err := s.LoadOpen()
	if err != nil {
		return err
	}
	o.Runs = max(o.Runs, 1)
	if i := slices.IndexFunc(old, func(p Open) bool { return p.Rule == o.Rule && p.Pits == o.Pits && p.Seeds == o.Seeds }); i >= 0 {
		p := old[i]
		if o.Campaign == "" || o.Campaign != p.Campaign {
			o.Runs += p.Runs
			o.Nodes += p.Nodes
			o.Seconds += p.Seconds
		}
		least := p.EGDBSeeds
		if p.EGDBSeedsLeast != nil {
			least = min(least, *p.EGDBSeedsLeast)
		}
		if o.EGDBSeedsLeast != nil {
			least = min(least, *o.EGDBSeedsLeast)
		}
		o.EGDBSeedsLeast = nil
		if least < o.EGDBSeeds {
			o.EGDBSeedsLeast = &least
		}
		o.Lower, o.Upper = max(o.Lower, p.Lower), min(o.Upper, p.Upper)
		o.Moves = mergeMoves(p.Moves, o.Moves)
		o.Chains = mergeChains(p.Chains, o.Chains)
		old = slices.Delete(old, i, i+1)
	}
	SortMoves(o.Moves)
	sortChains(o.Chains)
	// The value is the best move's: at least every move's lower bound, and
	// no move is worth more than its upper bound.
	for i := range o.Moves {
		m := &o.Moves[i]
		if m.Lower <= o.Upper {
			o.Lower = max(o.Lower, m.Lower)
			m.Upper = max(min(m.Upper, o.Upper), m.Lower)
		}
	}
	if err := o.Check(); err != nil {
		return fmt.Errorf("%w (after merging with the runs recorded before)", err)
	}
	return s.writeOpen(append(old, o))
}

// mergeMoves intersects the bounds of the moves of a and b, by move.
func mergeMoves(a, b []MoveBounds) []MoveBounds {
	out := mergeBounds(a, b, func(m *MoveBounds) (string, *int, *int) { return m.Move, &m.Lower, &m.Upper })
	SortMoves(out)
	return out
}

// mergeChains intersects the bounds of the chains of a and b, by chain.
func mergeChains(a, b []ChainBounds) []ChainBounds {
	return mergeBounds(a, b, func(c *ChainBounds) (string, *int, *int) { return c.Chain, &c.Lower, &c.Upper })
}

// mergeBounds intersects the bounds of the items of a and b with the same
// key (fields gives an item's key and its bounds); an item of b alone is
// appended.
func mergeBounds[T any](a, b []T, fields func(*T) (key string, lo, hi *int)) []T {
	out := slices.Clone(a)
	for _, x := range b {
		k, xlo, xhi := fields(&x)
		if i := slices.IndexFunc(out, func(y T) bool { yk, _, _ := fields(&y); return yk == k }); i >= 0 {
			_, lo, hi := fields(&out[i])
			*lo, *hi = max(*lo, *xlo), min(*hi, *xhi)
		} else {
			out = append(out, x)
		}
	}
	return out
}

// sortChains orders chains as OpeningChains does: by their pits, in order.
func sortChains(cs []ChainBounds) {
	slices.SortFunc(cs, func(x, y ChainBounds) int { return strings.Compare(x.Chain, y.Chain) })
}

// SortMoves orders first moves by their letters (the pits' order).
func SortMoves(ms []MoveBounds) {
	slices.SortFunc(ms, func(x, y MoveBounds) int { return strings.Compare(x.Move, y.Move) })
}

// dropOpen removes the open cells that recs solve from old, the open
// cells as loaded.
func (s Archive) dropOpen(old []Open, recs []Record) error {
	if len(old) == 0 {
		return nil
	}
	keep := slices.DeleteFunc(slices.Clone(old), func(o Open) bool {
		return slices.ContainsFunc(recs, func(r Record) bool { return r.Rule == o.Rule && r.Pits == o.Pits && r.Seeds == o.Seeds })
	})
	if len(keep) == len(old) {
		return nil
	}
	if len(keep) == 0 {
		return os.Remove(s.OpenPath())
	}
	return s.writeOpen(keep)
}

func (s Archive) writeOpen(list []Open) error {
	slices.SortStableFunc(list, func(a, b Open) int {
		switch {
		case a.Rule != b.Rule:
			if a.Rule < b.Rule {
				return -1
			}
			return 1
		case a.Pits != b.Pits:
			return a.Pits - b.Pits
		}
		return a.Seeds - b.Seeds
	})
	return writeLines(s.OpenPath(), list)
}
