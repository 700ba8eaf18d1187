package results

// openCells writes the section on the target cells without a record:
// what is proven about each and why it is not solved.
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
	if len(miss) == 0 {
		rp.p("None: every target cell (%s) is solved under both rules.\n\n", targetText)
		return
	}
	rp.p("The target cells (%s) without a record.\n", targetText)
	rp.p("An open cell's value is only bounded: each bound is proven by the\n")
	rp.p("search, never estimated, and a cell whose\n")
	rp.p("value is proven (a single number below) still lacks its opening chains\n")
	rp.p("or its principal variation. The runs (`kalah table --max-time`) stopped\n")
	rp.p("at their time limit; a run with `--store DIR` keeps every proven table\n")
	rp.p("entry on disk, so the same command resumes the cell where it stopped.\n")
	rp.p("Nodes and seconds add up over the runs; the bounds are the intersection\n")
	rp.p("of every run's.\n\n")
	rp.p("| rule | m,n | proven | stopped while computing | why | runs | seconds | nodes | threads | table | egdb seeds | store | date | revision |\n")
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
		store := "no"
		if o.Store {
			store = "yes"
		}
		rp.p("| %s | %d,%d | %s | %s | %s | %d | %.0f | %s | %d | %s | %d | %s | %s | %s |\n", o.Rule, o.Pits, o.Seeds,
			o.Bounds(), stage, o.Reason, o.Runs, o.Seconds, Group(o.Nodes), o.Threads, bytesText(o.TTBytes), o.EGDBSeeds,
			store, o.Date, shortRevision(o.VCSRevision))
	}
	rp.p("\n")
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
