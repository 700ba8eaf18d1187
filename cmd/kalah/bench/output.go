package benchcmd

import (
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kalah-solver/kalah/bench"
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/results"
	"github.com/kalah-solver/kalah/solver"
)

// printer writes the text output as the run goes; with --json it writes
// nothing (the record is printed at the end).
type printer struct {
	w         io.Writer
	opts      *Options
	n         int
	tableSize int64
	starts    bool // the suite has start positions

	mu       sync.Mutex // progress comes from the solver's goroutines
	lastCase string
	lastLine time.Duration
}

// progressEvery is how often a long solve reports on standard error
// (a variable for tests).
var progressEvery = 10 * time.Second

// progress writes a line to standard error every progressEvery of a long
// solve, unless -q.
func (p *printer) progress(name string, pr solver.Progress) {
	if p.opts.Quiet {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if name != p.lastCase {
		p.lastCase, p.lastLine = name, 0
	}
	if pr.Elapsed < p.lastLine+progressEvery {
		return
	}
	p.lastLine = pr.Elapsed
	if progressEvery > 0 {
		p.lastLine = pr.Elapsed.Truncate(progressEvery)
	}
	fmt.Fprintf(p.opts.IO.ErrOut, "  %s: %s, %.0f s, %s nodes, value in [%s, %s]\n", name, pr.Stage, pr.Elapsed.Seconds(), results.Group(pr.Nodes),
		results.Signed(pr.Lower), results.Signed(pr.Upper))
}

func newPrinter(opts *Options, cases []bench.Case, tableSize int64) *printer {
	w := opts.IO.Out
	if opts.JSON {
		w = io.Discard
	}
	p := &printer{w: w, opts: opts, n: len(cases), tableSize: tableSize}
	for _, c := range cases {
		p.starts = p.starts || c.Start()
	}
	return p
}

func (p *printer) header() {
	db := "no endgame database"
	if p.opts.EGDB != "" {
		db = "endgame databases in " + p.opts.EGDB
	}
	table := cmdutil.FormatBytes(p.tableSize)
	if p.tableSize == 0 {
		table = cmdutil.FormatBytes(bench.DefaultTableSize)
		if p.starts || p.opts.Plot != "" {
			table += " (" + cmdutil.FormatBytes(bench.StartTableSize) + " for start positions)"
		}
	}
	fmt.Fprintf(p.w, "kalah bench: suite %s, %d positions, table %s, %s\n", p.opts.Suite, p.n, table, db)
	fmt.Fprintf(p.w, "each position: a fresh solver; %s\n", method)
}

const rowFormat = "%-16s %-11s %-17s %6s %14s %9s %9s %6s\n"

// row writes one row of the table, after threadCol.
func (p *printer) row(threads string, cols ...any) {
	p.threadCol(threads)
	fmt.Fprintf(p.w, rowFormat, cols...)
}

// threadCol starts a row with its thread count when there are several.
func (p *printer) threadCol(threads string) {
	if len(p.opts.Threads) > 1 {
		fmt.Fprintf(p.w, "%7s ", threads)
	}
}

func (p *printer) runStart() {
	switch th := p.opts.Threads; {
	case len(th) == 1:
		fmt.Fprintf(p.w, "\n%s\n", cmdutil.Plural(th[0], "thread"))
	default:
		fmt.Fprintf(p.w, "\nthreads %s, interleaved: each position at every count in turn, the order reversed every other position\n", joinInts(th))
	}
	p.row("threads", "case", "game", "rule", "value", "nodes", "seconds", "Mnodes/s", "hit %")
}

func (p *printer) caseDone(_ int, r bench.Result) { p.result(r) }

func (p *printer) result(r bench.Result) {
	p.row(strconv.Itoa(r.Threads), r.Case, r.Game, r.Rule, results.Signed(r.Value), results.Group(r.Nodes),
		fmt.Sprintf("%.3f", r.Seconds), fmt.Sprintf("%.2f", r.NodesPerSecond/1e6), fmt.Sprintf("%.1f", 100*r.HitRate))
}

// runsDone writes each count's total and a warning for a busy run (the
// footer gives the speed-ups).
func (p *printer) runsDone(reps []*bench.Report) {
	for _, r := range reps {
		p.row(strconv.Itoa(r.Threads), "total", "", "", "", results.Group(r.Nodes),
			fmt.Sprintf("%.3f", r.Seconds), fmt.Sprintf("%.2f", r.NodesPerSecond/1e6), fmt.Sprintf("%.1f", 100*r.HitRate))
	}
	for _, r := range reps {
		if r.Busy(runtime.NumCPU()) {
			fmt.Fprintf(p.w, "busy machine: the solves on %s had %.3f s of CPU in %.3f s; other work slowed them down\n", cmdutil.Plural(r.Threads, "thread"), r.CPUSeconds, r.Seconds)
		}
	}
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

func (p *printer) growthStart(seeds int, limit time.Duration, threads int) {
	fmt.Fprintf(p.w, "\ngrowth series: start positions of Kalah(6,1..%d), %s, at most %s each\n", seeds, cmdutil.Plural(threads, "thread"), shortDuration(limit))
	p.row("threads", "case", "game", "rule", "value", "nodes", "seconds", "Mnodes/s", "hit %")
}

func (p *printer) cellDone(c bench.Cell) {
	if c.Result == nil {
		p.threadCol(strconv.Itoa(p.opts.Threads[0]))
		fmt.Fprintf(p.w, "%-16s %-11s %-17s skipped: over %s\n", "start", c.Game, c.Rule, shortDuration(p.opts.PlotMaxTime))
		return
	}
	r := *c.Result
	r.Case = "start"
	p.result(r)
}

func (p *printer) footer(rec record, reps []*bench.Report) {
	w := p.w
	fmt.Fprintln(w)
	if len(reps) > 1 {
		var parts []string
		for _, r := range rec.Runs {
			parts = append(parts, fmt.Sprintf("%s %.3f s (%.2fx)", cmdutil.Plural(r.Threads, "thread"), r.Seconds, r.Speedup))
		}
		fmt.Fprintf(w, "speed-up: %s\n", strings.Join(parts, ", "))
	}
	for _, f := range rec.Plots {
		fmt.Fprintf(w, "plot written to %s\n", f)
	}
	fmt.Fprintf(w, "build %s %s, %s, %s\n", rec.Version, cmdutil.Revision(rec.VCSRevision), rec.Go, rec.CPU)
	first := reps[0]
	if rec.Interrupted {
		fmt.Fprintln(w, "interrupted: the figures cover the positions solved before; not comparable with a complete run")
	}
	switch {
	case first.Deterministic:
		fmt.Fprintln(w, "one thread, no endgame database: the node count is deterministic, a signature of the search")
	case first.EGDB:
		fmt.Fprintf(w, "with an endgame database (up to %d seeds) the node count depends on the database: not the search's signature\n", first.EGDBSeeds)
	default:
		fmt.Fprintf(w, "%s: the node count varies from run to run; not a signature (run with --threads 1 for one)\n", cmdutil.Plural(first.Threads, "thread"))
	}
	fmt.Fprintln(w, rec.Bench)
}
