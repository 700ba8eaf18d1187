// Package benchcmd implements "kalah bench": solve a fixed suite of
// positions and print what it cost, ending with the node-count signature
// of the search.
package benchcmd

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/kalah-solver/kalah/bench"
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/results"
	"github.com/spf13/cobra"
)

// MaxThreads bounds --threads.
const MaxThreads = 256

// Options are the inputs of one "kalah bench".
type Options struct {
	IO          *cmdutil.IOStreams
	Suite       string
	Threads     []int
	TableSize   string
	EGDB        string
	JSON        bool
	Plot        string
	PlotMaxTime time.Duration
	PlotSeeds   int
	Quiet       bool

	// Cases, when not nil, replaces the named suite (for tests).
	Cases []bench.Case
	// Context, when not nil, replaces the interruptible background context.
	Context context.Context
}

// NewCmdBench returns the bench command.
func NewCmdBench(io *cmdutil.IOStreams) *cobra.Command { return newCmdBench(io, run) }

// newCmdBench lets tests replace the run function (the GitHub CLI's runF),
// e.g. to swap in a reduced suite after the flags are parsed.
func newCmdBench(io *cmdutil.IOStreams, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: io}
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure the search on a fixed suite; print its node signature",
		Long: `Solve a fixed suite of positions, each with a fresh solver and a table of
--table-size (by default 64 MiB, and 1 GiB for start positions, which thrash a
smaller one), and report per position and in total the
nodes, seconds, nodes per second and table hit rate. Positions are solved
as "kalah solve" does: the value of every legal move, not only the root.

--suite quick (the default) is 41 mid-game positions of Kalah(6,4), (6,5)
and (6,6) under both rules, each solved well within a second on one
thread; --suite full adds the start positions of Kalah(6,3) and (6,4)
under both rules, which take minutes.

With one thread and no endgame database the search is deterministic, so
the total node count is a signature of the search: the last line,
"Bench: <nodes> nodes <nps> nps", changes only when the search does. With
more threads the count varies from run to run. --threads 1,2 solves each
position once per thread count, the counts in turn (1 2, then 2 1 for the
next position, and so on), so that a machine whose speed drifts slows
every count alike, and reports each count's total and speed-up over the
first.

--plot DIR writes PNG plots there: time and nodes per position, the
speed-up by threads, and how the time and nodes of the start positions of
Kalah(6,1..--plot-seeds) grow with the seeds; a start position that takes
longer than --plot-max-time is skipped, and so are the larger ones.`,
		Example: `  kalah bench
  kalah bench --threads 1,2
  kalah bench --suite full --json
  kalah bench --plot docs/img --threads 1,2`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runF(opts) },
	}
	f := cmd.Flags()
	f.StringVar(&opts.Suite, "suite", bench.Suites[0], "positions to solve: "+strings.Join(bench.Suites, " or "))
	f.IntSliceVar(&opts.Threads, "threads", []int{1}, "search threads; a list such as 1,2 solves each position once per count, interleaved")
	f.StringVar(&opts.TableSize, "table-size", "", "table size of every solve, e.g. 64MiB or 1GiB (default 64 MiB, 1 GiB for start positions)")
	cmdutil.DeprecatedAlias(cmd, "tt-mem", "table-size")
	f.StringVar(&opts.EGDB, "egdb", "", "use the endgame databases in this directory (see 'kalah egdb build'); node counts then depend on them")
	f.BoolVar(&opts.JSON, "json", false, "print one JSON object instead of text")
	f.StringVar(&opts.Plot, "plot", "", "write PNG plots to this directory (it runs the growth series too)")
	f.DurationVar(&opts.PlotMaxTime, "plot-max-time", 60*time.Second, "with --plot: skip start positions of the growth series that take longer")
	f.IntVar(&opts.PlotSeeds, "plot-seeds", 5, "with --plot: the growth series solves the starts of Kalah(6,1..N)")
	f.BoolVarP(&opts.Quiet, "quiet", "q", false, "no progress lines on standard error during long solves")
	return cmd
}

// record is the JSON output.
type record struct {
	Suite         string       `json:"suite"`
	Positions     int          `json:"positions"`
	Method        string       `json:"method"`     // what is solved per position
	TableSize     int64        `json:"table_size"` // --table-size; 0: 64 MiB, 1 GiB for start positions
	EGDB          string       `json:"egdb,omitempty"`
	Runs          []runRecord  `json:"runs"`
	Signature     int64        `json:"signature"` // total nodes of the first run
	Bench         string       `json:"bench"`     // the "Bench:" line
	Deterministic bool         `json:"deterministic"`
	Growth        []bench.Cell `json:"growth,omitempty"`
	Plots         []string     `json:"plots,omitempty"`
	Interrupted   bool         `json:"interrupted,omitempty"` // Ctrl-C: the figures cover what was solved before
	results.Provenance
}

// runRecord is one thread count's run with its speed-up over the first.
type runRecord struct {
	*bench.Report
	Speedup  float64 `json:"speedup"`  // 0 when the run is not complete
	Complete bool    `json:"complete"` // false: interrupted, the totals cover the cases solved
}

const method = "Solve: the exact value of every legal move and a principal variation"

func run(opts *Options) error {
	cases, tableSize, err := opts.validate()
	if err != nil {
		return err
	}
	ctx := opts.Context
	if ctx == nil {
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
	}
	dbs := &databases{dir: opts.EGDB}
	defer dbs.close()
	cfg := bench.Config{TableSize: tableSize}
	if opts.EGDB != "" {
		cfg.DB = dbs.open
	}

	out := newPrinter(opts, cases, tableSize)
	cfg.Progress, cfg.ProgressEvery = out.progress, time.Second
	out.header()
	// Several thread counts run interleaved, case by case (bench.RunThreads).
	// Ctrl-C stops the run; what finished is still reported (exit 130).
	out.runStart()
	all, err := bench.RunThreads(ctx, cases, cfg, opts.Threads, out.caseDone)
	if err != nil && ctx.Err() == nil {
		return err
	}
	stopped := err != nil
	var reps []*bench.Report
	for _, rep := range all {
		if len(rep.Cases) > 0 {
			reps = append(reps, rep)
		}
	}
	if len(reps) == 0 {
		return fmt.Errorf("%w: benchmark stopped before a position was solved", cmdutil.ErrInterrupted)
	}
	out.runsDone(reps)
	rec := record{
		Suite: opts.Suite, Positions: len(cases), Method: method, TableSize: tableSize, EGDB: opts.EGDB,
		Signature: reps[0].Nodes, Bench: reps[0].Signature(), Deterministic: reps[0].Deterministic,
		Interrupted: stopped, Provenance: results.Current(),
	}
	for i, sp := range bench.Speedups(reps) {
		complete := len(reps[i].Cases) == len(cases)
		if !complete {
			sp = 0
		}
		rec.Runs = append(rec.Runs, runRecord{Report: reps[i], Speedup: sp, Complete: complete})
	}
	if opts.Plot != "" && !stopped {
		cfg.Threads = opts.Threads[0]
		out.growthStart(opts.PlotSeeds, opts.PlotMaxTime, cfg.Threads)
		rec.Growth, err = bench.Growth(ctx, 6, opts.PlotSeeds, cfg, opts.PlotMaxTime, out.cellDone)
		if err != nil && ctx.Err() == nil {
			return err
		}
		stopped = err != nil
		rec.Interrupted = stopped
	}
	if opts.Plot != "" {
		if rec.Plots, err = writePlots(opts.Plot, completeRuns(rec.Runs), rec.Growth, opts.PlotMaxTime); err != nil {
			return err
		}
	}
	if opts.JSON {
		err = cmdutil.PrintJSON(opts.IO.Out, rec)
	} else {
		out.footer(rec, reps)
	}
	if err == nil && stopped {
		err = fmt.Errorf("%w: benchmark stopped; the figures printed cover the positions solved before", cmdutil.ErrInterrupted)
	}
	return err
}

// completeRuns are the runs that solved every case, and the first run in
// any case (the plots need one).
func completeRuns(runs []runRecord) []*bench.Report {
	var out []*bench.Report
	for i, r := range runs {
		if r.Complete || i == 0 {
			out = append(out, r.Report)
		}
	}
	return out
}

// validate checks the flags and returns the cases and the table size.
func (opts *Options) validate() ([]bench.Case, int64, error) {
	cases := opts.Cases
	if cases == nil {
		var err error
		if cases, err = bench.Suite(opts.Suite); err != nil {
			return nil, 0, cmdutil.BadInputf("--suite: %v", err)
		}
	}
	if len(opts.Threads) == 0 {
		return nil, 0, cmdutil.BadInputf("--threads: give at least one thread count")
	}
	for _, th := range opts.Threads {
		if th < 1 || th > MaxThreads {
			return nil, 0, cmdutil.BadInputf("--threads: each count must be 1..%d, got %d", MaxThreads, th)
		}
	}
	var tableSize int64 // 0: each case's own
	if opts.TableSize != "" {
		var err error
		if tableSize, err = cmdutil.ParseBytes(opts.TableSize); err != nil {
			return nil, 0, cmdutil.BadInputf("--table-size: %v", err)
		}
	}
	if opts.PlotMaxTime <= 0 {
		return nil, 0, cmdutil.BadInputf("--plot-max-time must be positive, got %v", opts.PlotMaxTime)
	}
	if opts.PlotSeeds < 1 || opts.PlotSeeds > 10 {
		return nil, 0, cmdutil.BadInputf("--plot-seeds must be 1..10, got %d", opts.PlotSeeds)
	}
	if opts.Plot != "" {
		if err := os.MkdirAll(opts.Plot, 0o755); err != nil {
			return nil, 0, fmt.Errorf("--plot: %w", err)
		}
	}
	if opts.EGDB != "" {
		if st, err := os.Stat(opts.EGDB); err != nil || !st.IsDir() {
			return nil, 0, cmdutil.BadInputf("--egdb %q is not a directory", opts.EGDB)
		}
	}
	return cases, tableSize, nil
}
