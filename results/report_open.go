package results

import (
	"fmt"
	"strings"
)

// openCells writes the section on the target cells without a record,
// and the larger cells begun (open records beyond the targets): what is
// proven about each and why it is not solved.
func (rp *report) openCells() {
	rp.p("## Open cells\n\n")
	var miss [][2]int
	var rules []string
	for _, rule := range Rules {
		for _, c := range rp.missing(rule) {
			miss = append(miss, c)
			rules = append(rules, rule)
		}
	}
	targets := len(miss)
	for _, o := range rp.open {
		if !isTarget(o.Pits, o.Seeds) {
			miss = append(miss, [2]int{o.Pits, o.Seeds})
			rules = append(rules, o.Rule)
		}
	}
	switch {
	case len(miss) == 0:
		rp.p("None: every target cell (%s) is solved under both rules.\n\n", targetText)
		return
	case targets == 0:
		rp.p("Every target cell (%s) is solved under both rules; below, the\n", targetText)
		rp.p("larger cells begun. An open\n")
	default:
		rp.p("The target cells (%s) without a record, then the\n", targetText)
		rp.p("larger cells begun. An open\n")
	}
	rp.p("cell's value is only bounded: each bound is proven by the search, never\n")
	rp.p("estimated; a single number below is a proven value whose opening chains\n")
	rp.p("or principal variation are missing. A cell is open because its runs\n")
	rp.p("(`kalah sweep --max-time`) reached their time limit, the budget given to\n")
	rp.p("a cell on a two-core machine shared with other work, not a limit of the\n")
	rp.p("method; or because it was not attempted. The next run of a cell starts\n")
	rp.p("from the bounds below, taking what they hold exact as proven; a run\n")
	rp.p("with `--cache DIR` also keeps its proven entries and a checkpoint of its\n")
	rp.p("table on disk, so the same command resumes the cell where it stopped\n")
	rp.p("(`?`: no bound proven yet). Nodes and seconds add up over the runs; the\n")
	rp.p("bounds are the intersection of every run's.\n\n")
	rp.p("| rule | m,n | proven | stopped while computing | why | runs | seconds | nodes | threads | table | egdb seeds | cache | date | revision |\n")
	rp.p("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for k, c := range miss {
		o := rp.findOpen(rules[k], c[0], c[1])
		if o == nil {
			rp.p("| %s | %d,%d | nothing | - | not attempted | 0 | | | | | | | | |\n", rules[k], c[0], c[1])
			continue
		}
		stage := map[string]string{"value": "the value", "openings": "the opening chains", "pv": "the principal variation"}[o.Stage]
		if stage == "" {
			stage = o.Stage
		}
		cache := "no"
		if o.Cache {
			cache = "yes"
		}
		rp.p("| %s | %d,%d | %s | %s | %s | %d | %.0f | %s | %d | %s | %s | %s | %s | %s |\n", o.Rule, o.Pits, o.Seeds,
			o.Bounds(), stage, o.Reason, o.Runs, o.Seconds, Group(o.Nodes), o.Threads, bytesText(o.TableSize), o.EGDBText(),
			cache, o.Date, shortRevision(o.VCSRevision))
	}
	rp.p("\n")
	var moves []string
	for _, o := range rp.open {
		if len(o.Moves) == 0 {
			continue
		}
		var parts []string
		for _, m := range o.Moves {
			parts = append(parts, m.Move+" "+o.MoveText(m))
		}
		by := ""
		if o.Campaign != "" {
			by = fmt.Sprintf(" (campaign %s)", o.Campaign)
		}
		moves = append(moves, fmt.Sprintf("- Kalah(%d,%d) %s%s: %s.\n", o.Pits, o.Seeds, o.Rule, by, strings.Join(parts, ", ")))
	}
	if len(moves) > 0 {
		rp.p("Proven bounds on South's first moves (a move with an extra turn is\n")
		rp.p("valued with the turns that follow it):\n\n%s\n", strings.Join(moves, ""))
	}
	var chains []string
	for _, o := range rp.open {
		if len(o.Chains) == 0 {
			continue
		}
		var parts []string
		for _, c := range o.Chains {
			parts = append(parts, c.Chain+" "+o.MoveText(MoveBounds{Lower: c.Lower, Upper: c.Upper}))
		}
		chains = append(chains, fmt.Sprintf("- Kalah(%d,%d) %s: %s.\n", o.Pits, o.Seeds, o.Rule, strings.Join(parts, ", ")))
	}
	if len(chains) > 0 {
		rp.p("Proven bounds on the opening chains of more than one sowing (pits\n")
		rp.p("numbered from 1, as in the openings tables):\n\n%s\n", strings.Join(chains, ""))
	}
}

// shortRevision is a commit's first 12 hex digits, "+dirty" kept; "-" for none.
func shortRevision(rev string) string {
	if rev == "" {
		return "-"
	}
	dirty := len(rev) > 6 && rev[len(rev)-6:] == "+dirty"
	if dirty {
		rev = rev[:len(rev)-6]
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "+dirty"
	}
	return rev
}
