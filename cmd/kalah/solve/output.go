package solvecmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/results"
	"github.com/kalah-solver/kalah/solver"
)

// output is what one solve prints: the result record (results.Record,
// the form the cache and results/data keep too) and how this run got it.
type output struct {
	results.Record
	Solved      bool         `json:"solved"`                // false when interrupted before the value was pinned down: value is then the lower bound
	Interrupted bool         `json:"interrupted,omitempty"` // Ctrl-C or SIGTERM stopped the solve (the pv may be cut short)
	ValueOnly   bool         `json:"value_only"`            // --value-only: moves is empty and best holds one best move
	FromCache   bool         `json:"from_cache"`            // answered from a root record, no search: the cache's or the built-in book's
	FromBook    bool         `json:"from_book,omitempty"`   // that record came from the opening book built into kalah
	NPS         float64      `json:"nps"`                   // nodes per second, from the record's nodes and seconds
	Cache       string       `json:"cache,omitempty"`       // the cache's directory; absent with --no-cache
	Stats       solver.Stats `json:"stats"`
}

// output builds the output of one solve; err is nil or wraps
// solver.ErrInterrupted.
func (s *solveRun) output(j job, res *kalah.Result, err error) *output {
	o := &output{Record: *res.Record, Solved: res.Solved, Interrupted: err != nil, ValueOnly: s.opts.ValueOnly,
		FromCache: res.FromCache, FromBook: res.FromBook, Cache: s.k.CacheDir(), Stats: res.Stats}
	o.Record.SyncDeprecated()
	o.Seeds = j.seeds
	if o.Moves == nil {
		o.Moves = []results.MoveValue{}
	}
	if o.Best == nil {
		o.Best = []string{}
	}
	if !res.Solved {
		lo, hi := res.Lower, res.Upper
		o.Lower, o.Upper = &lo, &hi
	}
	// From the record's own nodes and seconds: for an answer from the
	// cache, those of the solve that made it.
	if o.Seconds > 0 {
		o.NPS = float64(o.Nodes) / o.Seconds
	}
	return o
}

// print writes a record: JSON, one text line (batch) or a text report.
func (s *solveRun) print(rec *output) error {
	w := s.opts.IO.Out
	switch {
	case s.opts.JSON:
		return cmdutil.PrintJSON(w, rec)
	case s.batch:
		return printLine(w, rec)
	}
	return printReport(w, rec)
}

func printReport(w io.Writer, rec *output) error {
	name := fmt.Sprintf("Kalah(%d)", rec.Pits)
	if rec.Seeds > 0 {
		name = fmt.Sprintf("Kalah(%d,%d)", rec.Pits, rec.Seeds)
	}
	fmt.Fprintf(w, "solve %s, rule %s\n", name, rec.Rule)
	fmt.Fprintf(w, "position %s, %s to move\n", rec.Position, rec.ToMove)
	if rec.Solved {
		verb := "wins by " + fmt.Sprint(rec.Value)
		switch {
		case rec.Value < 0:
			verb = "loses by " + fmt.Sprint(-rec.Value)
		case rec.Value == 0:
			verb = "draws"
		}
		fmt.Fprintf(w, "value %s %s: %s, to move, %s (final store difference, stores counted)\n", results.Signed(rec.Value), results.Outcome(rec.Value), rec.ToMove, verb)
	} else {
		lo, hi := rec.Bounds()
		fmt.Fprintf(w, "interrupted: value in [%s, %s] (bounds proven so far)\n", results.Signed(lo), results.Signed(hi))
	}
	switch {
	case rec.FromBook:
		fmt.Fprintf(w, "from the opening book built into kalah (no search; --force solves again)\n")
	case rec.FromCache:
		fmt.Fprintf(w, "from cache %s (no search; --force solves again)\n", rec.Cache)
	}
	if len(rec.Moves) > 0 {
		fmt.Fprintf(w, "%4s %4s %6s\n", "move", "pit", "value")
	}
	for _, m := range rec.Moves {
		v := results.Signed(m.Value)
		if m.Lower != nil {
			v = fmt.Sprintf("[%s, %s]", results.Signed(*m.Lower), results.Signed(*m.Upper))
		}
		extra := ""
		if m.ExtraTurn {
			extra = "  extra turn"
		}
		fmt.Fprintf(w, "%4s %4d %6s%s\n", m.Move, m.Pit, v, extra)
	}
	if rec.Solved {
		if rec.ValueOnly && len(rec.Moves) == 0 {
			fmt.Fprintf(w, "best %s (one best move; --value-only computes no other move's value)\n", orNone(strings.Join(rec.Best, " ")))
		} else {
			fmt.Fprintf(w, "best %s\n", strings.Join(rec.Best, " "))
		}
		cut := ""
		if rec.Interrupted {
			cut = " (interrupted, cut short)"
		}
		fmt.Fprintf(w, "pv %s%s\n", orNone(rec.PVLetters), cut)
		fmt.Fprintf(w, "pv (paper) %s%s\n", orNone(rec.PV), cut)
	}
	egdb := "none"
	if rec.EGDBSeeds >= 0 {
		egdb = fmt.Sprintf("%d seeds", rec.EGDBSeeds)
	}
	cache := "none"
	if rec.Cache != "" {
		cache = fmt.Sprintf("%s hits", results.Group(rec.CacheHits)) // the record's: the original solve's when from the cache
	}
	if rec.FromBook {
		// A book is built from the deepest positions up, each solved with
		// its children already in the cache: a record's own search is
		// only the last step of its proof, so its nodes are not the cost.
		_, err := fmt.Fprintf(w, "book record made %s by build %s (the book is solved from its deepest positions up; no search now)\n",
			rec.Date, cmdutil.Revision(rec.VCSRevision))
		return err
	}
	cost := "nodes"
	if rec.FromCache {
		cost = "solved originally with: nodes"
	}
	_, err := fmt.Fprintf(w, "%s %s in %s, %s, %d threads, table %s, egdb %s, cache %s\n",
		cost, results.Group(rec.Nodes), cmdutil.FormatSeconds(rec.Seconds), cmdutil.FormatRate(rec.Nodes, rec.Seconds), rec.Threads, cmdutil.FormatBytes(rec.TableSize), egdb, cache)
	return err
}

// printLine writes a record as one line of key=value fields.
func printLine(w io.Writer, rec *output) error {
	var sb strings.Builder
	fmt.Fprintf(&sb, "position=%s to_move=%s rule=%s", rec.Position, rec.ToMove, rec.Rule)
	if rec.Solved {
		fmt.Fprintf(&sb, " value=%s result=%s best=%s pv=%s pv_letters=%s", results.Signed(rec.Value), rec.Result,
			orDash(strings.Join(rec.Best, ",")), orDash(rec.PV), orDash(rec.PVLetters))
	} else {
		lo, hi := rec.Bounds()
		fmt.Fprintf(&sb, " lower=%s upper=%s", results.Signed(lo), results.Signed(hi))
	}
	if rec.Interrupted {
		sb.WriteString(" interrupted")
	}
	if rec.FromCache {
		sb.WriteString(" from_cache")
	}
	if rec.FromBook {
		sb.WriteString(" from_book")
	}
	fmt.Fprintf(&sb, " nodes=%d seconds=%.3f", rec.Nodes, rec.Seconds)
	_, err := fmt.Fprintln(w, sb.String())
	return err
}

func orNone(s string) string {
	if s == "" {
		return "(none: the game is over)"
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
