package solvecmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/results"
	"github.com/kalah-solver/kalah/solver"
)

// moveRecord is one legal move's value.
type moveRecord struct {
	Move      string `json:"move"`  // letter
	Pit       int    `json:"pit"`   // 1-based from the mover's left
	Value     int    `json:"value"` // final store difference for the mover after this move and perfect play
	ExtraTurn bool   `json:"extra_turn"`
	Lower     *int   `json:"lower,omitempty"` // bounds, only when the solve was interrupted before this move was pinned down
	Upper     *int   `json:"upper,omitempty"`
}

// record is the result of one position, the JSON output.
type record struct {
	Rule        string       `json:"rule"`
	Pits        int          `json:"pits"`
	Seeds       int          `json:"seeds,omitempty"` // start positions only
	Position    string       `json:"position"`
	ToMove      string       `json:"to_move"`
	Solved      bool         `json:"solved"`                // false when interrupted before the value was pinned down: value is then the lower bound
	Interrupted bool         `json:"interrupted,omitempty"` // Ctrl-C or SIGTERM stopped the solve (the pv may be cut short)
	Value       int          `json:"value"`                 // final store difference for the side to move, stores counted
	Lower       int          `json:"lower"`                 // proven bounds, equal to value when solved
	Upper       int          `json:"upper"`                 //
	Result      string       `json:"result"`                // win, draw or loss for the side to move ("" when interrupted)
	ValueOnly   bool         `json:"value_only"`            // --value-only: moves is empty and best holds one best move
	Moves       []moveRecord `json:"moves"`                 // pit order
	Best        []string     `json:"best"`                  // letters of the moves reaching the value
	PV          string       `json:"pv"`                    // principal variation, letters
	PVPaper     string       `json:"pv_paper"`              // the same, the paper's notation
	FromStore   bool         `json:"from_store"`            // answered from the persistent store's root record, no search
	Nodes       int64        `json:"nodes"`                 //
	Seconds     float64      `json:"seconds"`               //
	NPS         float64      `json:"nps"`                   // nodes per second
	Threads     int          `json:"threads"`               //
	TTBytes     int64        `json:"tt_bytes"`              // transposition table size
	EGDBSeeds   int          `json:"egdb_seeds"`            // the endgame database answers boards with at most this many seeds; -1 for none
	Store       string       `json:"store,omitempty"`       // persistent store directory; absent with --no-store
	Stats       solver.Stats `json:"stats"`
	results.Provenance
}

// record builds the output of one solve; err is nil or wraps
// solver.ErrInterrupted.
func (s *session) record(j job, res *solver.Result, err error) *record {
	p := j.pos
	rec := &record{
		Rule:        j.rules.Capture.String(),
		Pits:        p.Pits,
		Seeds:       j.seeds,
		Position:    p.String(),
		ToMove:      p.ToMove.String(),
		Solved:      res.Solved,
		Interrupted: err != nil,
		ValueOnly:   s.opts.ValueOnly,
		Value:       res.Value,
		Lower:       res.Lower,
		Upper:       res.Upper,
		Moves:       []moveRecord{},
		Best:        []string{},
		Nodes:       res.Stats.Nodes,
		Seconds:     res.Elapsed.Seconds(),
		Threads:     s.sv.Threads(),
		TTBytes:     s.sv.Table().Bytes(),
		EGDBSeeds:   s.sv.EGDBSeeds(),
		Stats:       res.Stats,
		Provenance:  results.Current(),
	}
	if res.Solved {
		rec.Result = outcome(res.Value)
	}
	if s.store != nil {
		rec.Store = s.store.Dir()
	}
	for _, m := range res.Moves {
		mr := moveRecord{Move: m.Move, Pit: m.Pit, Value: m.Value, ExtraTurn: m.Extra}
		if !m.Solved {
			lo, hi := m.Lower, m.Upper
			mr.Lower, mr.Upper = &lo, &hi
		}
		rec.Moves = append(rec.Moves, mr)
	}
	for _, i := range res.Best {
		rec.Best = append(rec.Best, engine.MoveLetter(p.ToMove, i))
	}
	rec.PV, rec.PVPaper = engine.FormatLetters(res.PV), engine.FormatPaper(res.PV)
	if rec.Seconds > 0 {
		rec.NPS = float64(rec.Nodes) / rec.Seconds
	}
	return rec
}

// outcome is win, draw or loss for a final store difference.
func outcome(v int) string {
	switch {
	case v > 0:
		return "win"
	case v < 0:
		return "loss"
	}
	return "draw"
}

// print writes a record: JSON, one text line (batch) or a text report.
func (s *session) print(rec *record) error {
	w := s.opts.IO.Out
	switch {
	case s.opts.JSON:
		return cmdutil.PrintJSON(w, rec)
	case s.batch:
		return printLine(w, rec)
	}
	return printReport(w, rec)
}

// wld is W, L or D.
func wld(v int) string { return strings.ToUpper(outcome(v)[:1]) }

func printReport(w io.Writer, rec *record) error {
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
		fmt.Fprintf(w, "value %s %s: %s, to move, %s (final store difference, stores counted)\n", signed(rec.Value), wld(rec.Value), rec.ToMove, verb)
	} else {
		fmt.Fprintf(w, "interrupted: value in [%s, %s] (bounds proven so far)\n", signed(rec.Lower), signed(rec.Upper))
	}
	if rec.FromStore {
		fmt.Fprintf(w, "from store %s (no search; --force solves again)\n", rec.Store)
	}
	if len(rec.Moves) > 0 {
		fmt.Fprintf(w, "%4s %4s %6s\n", "move", "pit", "value")
	}
	for _, m := range rec.Moves {
		v := signed(m.Value)
		if m.Lower != nil {
			v = fmt.Sprintf("[%s, %s]", signed(*m.Lower), signed(*m.Upper))
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
		fmt.Fprintf(w, "pv %s%s\n", orNone(rec.PV), cut)
		fmt.Fprintf(w, "pv (paper) %s%s\n", orNone(rec.PVPaper), cut)
	}
	egdb := "none"
	if rec.EGDBSeeds >= 0 {
		egdb = fmt.Sprintf("%d seeds", rec.EGDBSeeds)
	}
	store := "none"
	if rec.Store != "" {
		store = fmt.Sprintf("%s hits", group(rec.Stats.CacheHits))
	}
	cost := "nodes"
	if rec.FromStore {
		cost = "solved originally with: nodes"
	}
	_, err := fmt.Fprintf(w, "%s %s in %.3f s, %.1f M nodes/s, %d threads, table %s, egdb %s, store %s\n",
		cost, group(rec.Nodes), rec.Seconds, rec.NPS/1e6, rec.Threads, cmdutil.FormatBytes(rec.TTBytes), egdb, store)
	return err
}

// printLine writes a record as one line of key=value fields.
func printLine(w io.Writer, rec *record) error {
	var sb strings.Builder
	fmt.Fprintf(&sb, "position=%s to_move=%s rule=%s", rec.Position, rec.ToMove, rec.Rule)
	if rec.Solved {
		fmt.Fprintf(&sb, " value=%s result=%s best=%s pv=%s pv_paper=%s", signed(rec.Value), rec.Result,
			orDash(strings.Join(rec.Best, ",")), orDash(rec.PV), orDash(rec.PVPaper))
	} else {
		fmt.Fprintf(&sb, " lower=%s upper=%s", signed(rec.Lower), signed(rec.Upper))
	}
	if rec.Interrupted {
		sb.WriteString(" interrupted")
	}
	if rec.FromStore {
		sb.WriteString(" from_store")
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

func signed(v int) string { return cmdutil.Signed(v) }

// group writes n with thousands separators.
func group(n int64) string {
	if n < 0 {
		return "-" + group(-n)
	}
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
