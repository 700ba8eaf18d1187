package sweepcmd

import (
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/results"
)

// cellJSON is one cell of the JSON and CSV output.
type cellJSON struct {
	Rule   string `json:"rule"`
	Pits   int    `json:"pits"`
	Seeds  int    `json:"seeds"`
	Status string `json:"status"`           // stored, solved, unfinished, failed, skipped, todo
	Value  *int   `json:"value,omitempty"`  // when stored or solved
	Result string `json:"result,omitempty"` // W, L or D
	// Lower and Upper are the proven bounds of an unfinished cell.
	Lower   *int    `json:"lower,omitempty"`
	Upper   *int    `json:"upper,omitempty"`
	Bounds  string  `json:"bounds,omitempty"` // e.g. ">= +4"
	Seconds float64 `json:"seconds"`          // of the stored record, or of this run's attempt
	Nodes   int64   `json:"nodes"`
	// Resumed: this run's table started from the checkpoint an
	// interrupted run of the cell left in the cache.
	Resumed bool `json:"resumed,omitempty"`
	// NotRecorded: this run's value or bounds could not be written to
	// the archive in --data (the run ended with an error saying why).
	NotRecorded bool `json:"not_recorded,omitempty"`
}

// output is the JSON output.
type output struct {
	Rules []string   `json:"rules"`
	Pits  []int      `json:"pits"`
	Seeds []int      `json:"seeds"`
	Data  string     `json:"data"`
	Cells []cellJSON `json:"cells"`
	results.Provenance
}

func (c *cell) json() cellJSON {
	j := cellJSON{Rule: c.rules.Rule.String(), Pits: c.rules.Pits, Seeds: c.seeds, Status: c.status}
	j.Resumed = c.res != nil && c.res.Resumed
	j.NotRecorded = c.unrecorded
	switch {
	case c.status == "stored" || c.status == "solved":
		v := c.rec.Value
		j.Value, j.Result, j.Seconds, j.Nodes = &v, c.rec.Result, c.rec.Seconds, c.rec.Nodes
	case c.res != nil:
		lo, hi := c.res.Lower, c.res.Upper
		j.Lower, j.Upper, j.Bounds = &lo, &hi, c.res.Bounds()
		j.Seconds, j.Nodes = c.res.Elapsed.Seconds(), c.res.Nodes
	case c.status == "todo" && c.open != nil:
		// A dry run: what the earlier runs proved, which a run resumes from.
		lo, hi := c.open.Lower, c.open.Upper
		j.Lower, j.Upper, j.Bounds = &lo, &hi, c.open.Bounds()
		j.Seconds, j.Nodes = c.open.Seconds, c.open.Nodes
	}
	return j
}

// text is what the table shows for a cell.
func (c *cell) text() string {
	switch {
	case c.status == "stored" || c.status == "solved":
		return results.Signed(c.rec.Value) + " " + c.rec.Result
	case c.status == "unfinished" && c.res.Lower == c.res.Upper:
		return results.Signed(c.res.Lower) + " " + results.Outcome(c.res.Lower) + "*"
	case c.status == "unfinished":
		return c.res.Bounds()
	case c.status == "todo":
		return "todo"
	case c.status == "failed":
		return "error"
	}
	return "-"
}

func printTables(opts *Options, captures []engine.Rule, pits, seeds []int, cells []*cell) error {
	w := opts.IO.Out
	switch {
	case opts.JSON:
		out := output{Pits: pits, Seeds: seeds, Data: opts.Data, Cells: []cellJSON{}, Provenance: results.Current()}
		for _, c := range captures {
			out.Rules = append(out.Rules, c.String())
		}
		for _, c := range cells {
			out.Cells = append(out.Cells, c.json())
		}
		return cmdutil.PrintJSON(w, out)
	case opts.CSV:
		cw := csv.NewWriter(w)
		cw.Write([]string{"rule", "pits", "seeds", "status", "value", "result", "lower", "upper", "seconds", "nodes"})
		opt := func(p *int) string {
			if p == nil {
				return ""
			}
			return strconv.Itoa(*p)
		}
		for _, c := range cells {
			j := c.json()
			cw.Write([]string{j.Rule, strconv.Itoa(j.Pits), strconv.Itoa(j.Seeds), j.Status, opt(j.Value), j.Result,
				opt(j.Lower), opt(j.Upper), strconv.FormatFloat(j.Seconds, 'f', 3, 64), strconv.FormatInt(j.Nodes, 10)})
		}
		cw.Flush()
		return cw.Error()
	}

	star, ran, recorded := false, false, false
	for k, capt := range captures {
		if k > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "Kalah(m,n), %s: South's final store minus North's under perfect play, W/L/D for South\n", capt)
		grid := [][]string{{"m \\ n"}}
		for _, n := range seeds {
			grid[0] = append(grid[0], strconv.Itoa(n))
		}
		for _, m := range pits {
			row := []string{strconv.Itoa(m)}
			for _, n := range seeds {
				for _, c := range cells {
					if c.rules.Rule == capt && c.rules.Pits == m && c.seeds == n {
						row = append(row, c.text())
						star = star || strings.HasSuffix(c.text(), "*")
					}
				}
			}
			grid = append(grid, row)
		}
		writeGrid(w, grid)
	}
	for _, c := range cells {
		if c.status == "todo" && c.open != nil {
			if !ran {
				fmt.Fprintln(w)
				ran = true
			}
			next := "a run resumes from them"
			if opts.Force {
				next = "--force solves it from nothing"
			}
			held := fmt.Sprintf("value %s, %s", c.open.Bounds(), openExact(c.open))
			if !c.open.Proves() {
				held, next = "no bound proven yet", "a run starts again"
			}
			fmt.Fprintf(w, "open %s: %s after %s, %s nodes; %s\n", cellName(c.rules, c.seeds), held,
				cmdutil.Plural(c.open.Runs, "run"), results.Group(c.open.Nodes), next)
			continue
		}
		if c.status != "solved" && c.status != "unfinished" {
			continue
		}
		if !ran {
			fmt.Fprintln(w)
			ran = true
		}
		name := cellName(c.rules, c.seeds)
		resumed := ""
		if c.res.Resumed {
			resumed = ", resumed from the cache's checkpoint"
		}
		if c.status == "solved" && c.rec.Earlier != nil {
			resumed += fmt.Sprintf(", completing %s", cmdutil.Plural(c.rec.Earlier.Runs, "earlier run"))
		}
		kept := ""
		switch {
		case c.unrecorded:
			kept = " (not recorded)"
		case c.status == "unfinished":
			kept = " (bounds kept in open.jsonl)"
		}
		recorded = recorded || !c.unrecorded
		if c.status == "solved" {
			fmt.Fprintf(w, "solved %s: %s in %.3f s, %s nodes%s%s\n", name, results.Signed(c.rec.Value), c.rec.Seconds, results.Group(c.rec.Nodes), resumed, kept)
		} else {
			fmt.Fprintf(w, "unfinished %s: value %s after %.3f s, %s nodes%s%s\n", name, c.res.Bounds(), c.res.Elapsed.Seconds(), results.Group(c.res.Nodes), resumed, kept)
		}
	}
	if star {
		fmt.Fprintln(w, "* the value is exact, but the opening chains or the principal variation were not finished; not stored")
	}
	if recorded {
		fmt.Fprintf(w, "records in %s\n", opts.Data)
	}
	return nil
}

// openExact says how many first moves and opening chains an open record
// holds exact: "4 of 5 first moves and 2 opening chains exact".
func openExact(o *results.Open) string {
	moves := countExact(o.Moves, func(m results.MoveBounds) bool { return m.Lower == m.Upper })
	chains := countExact(o.Chains, func(c results.ChainBounds) bool { return c.Lower == c.Upper })
	// At the start every pit holds seeds: a move a pit.
	return fmt.Sprintf("%d of %d first moves and %s exact", moves, o.Pits, cmdutil.Plural(chains, "opening chain"))
}

// writeGrid writes rows of cells right-aligned in columns.
func writeGrid(w interface{ Write([]byte) (int, error) }, grid [][]string) {
	width := map[int]int{}
	for _, row := range grid {
		for i, s := range row {
			width[i] = max(width[i], len(s))
		}
	}
	for _, row := range grid {
		var sb strings.Builder
		for i, s := range row {
			if i > 0 {
				sb.WriteString("  ")
			}
			sb.WriteString(strings.Repeat(" ", width[i]-len(s)))
			sb.WriteString(s)
		}
		fmt.Fprintln(w, sb.String())
	}
}
