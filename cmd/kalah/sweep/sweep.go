// Package sweepcmd implements "kalah sweep": solve every start position of
// a range of Kalah(m,n) under one or both capture rules, keep the records
// in the archive, and print the table of values.
package sweepcmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/results"
	"github.com/kalah-solver/kalah/solver"
	"github.com/spf13/cobra"
)

// Options are the inputs of one "kalah sweep".
type Options struct {
	IO        *cmdutil.IOStreams
	Rule      string // empty-capture, no-empty-capture or both
	Pits      string // a range: "1-6", "4", "2,4-5"
	Seeds     string
	Force     bool
	MaxTime   time.Duration // per cell; 0 for no limit
	Threads   int
	TableSize string
	JSON      bool
	CSV       bool
	Data      string
	EGDB      string
	NoEGDB    bool
	Cache     string // cache directory; "" for none
	Quiet     bool
	Verbose   bool            // log the databases opened and the cache's checkpoints
	DryRun    bool            // list the cells and what would be done; solve nothing
	ctx       context.Context // tests may set it; nil means Ctrl-C and SIGTERM end the run
	newSolve  solveFunc       // tests may replace the solver
	barAlways bool            // tests may draw the bar where standard error is no terminal
}

// NewCmdSweep returns the sweep command.
func NewCmdSweep(io *cmdutil.IOStreams) *cobra.Command {
	opts := &Options{IO: io}
	cmd := &cobra.Command{
		Use:   "sweep",
		Short: "Solve the starts of a range of Kalah(m,n); print their table",
		Long: `Solve the start position of every Kalah(m,n) with m in --pits and n in
--seeds, under --rule (empty-capture, no-empty-capture or both), and print,
per rule, the m x n table of values (South's final store minus North's under
perfect play) with W, L or D for the first player.

Each solved cell becomes a record in the archive (--data, one JSON Lines
file per rule, see docs/formats.md): the value, the exact value of
every opening chain ("1-2": pit 1, an extra turn, then pit 2), a principal
variation, nodes, time, threads, table size, endgame-database depth and the
build's provenance. Records are written as each cell finishes, so an
interrupted run loses nothing already solved. Cells already in the archive
are not solved again unless --force is given.

On a big board (40 seeds or more, 22 more than the endgame database holds)
the value is solved first, then every first move's, then the opening
chains. --max-time bounds each cell. A cell that runs out of time
(or is interrupted) is shown with the bounds proven on its value (">= +4",
or "= +10" when it stopped after the value), never a guess, and they are
kept as an open cell in <data>/open.jsonl (with the bounds reached on each
first move and opening chain, the run's nodes, time and provenance; reruns
add up) until the cell is solved. A rerun takes what the open cell holds
exact (its value, first moves and opening chains, from earlier runs or
'kalah campaign record') as proven and solves the rest from the bounds
it holds, and its record
counts those runs as earlier ones; --force solves it from nothing.
--egdb DIR must hold the database of every pit count and rule of a cell
to solve; each is checked before the first cell (and by --dry-run), so
that a missing one stops the run at once, not hours in.
With --cache the proofs are kept too, and the table is checkpointed into
the cache (a file the size of --table-size, deleted when the cell is solved):
the same command resumes it from the last checkpoint.
Small cells are solved first. A progress bar over the cells goes to standard
error when it is a terminal (-q turns it off); -v logs, above it, each stage
a cell's solve begins (the value, a first move, an opening chain) and each
bound it proves, with the time since the cell began, so that a long run's
log says what was proven when.`,
		Example: `  kalah sweep --rule both --pits 1-4 --seeds 1-6
  kalah sweep --rule empty-capture --pits 6 --seeds 1-4 --max-time 10m
  kalah sweep --rule no-empty-capture --pits 5 --seeds 3 --force --threads 2 \
      --table-size 2GiB --json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.JSON && opts.CSV {
				return cmdutil.BadInputf("--json and --csv contradict each other")
			}
			if opts.NoEGDB && cmd.Flags().Changed("egdb") {
				return cmdutil.BadInputf("--egdb and --no-egdb contradict each other")
			}
			return run(opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Rule, "rule", "both", "capture convention: empty-capture, no-empty-capture or both")
	f.StringVar(&opts.Pits, "pits", "1-6", "pit counts m: a number, a range 1-6, or a list 2,4-5")
	f.StringVar(&opts.Seeds, "seeds", "1-6", "seeds per pit n: a number, a range or a list")
	f.BoolVar(&opts.Force, "force", false, "solve cells that are already in the archive again, and open cells from nothing")
	f.DurationVar(&opts.MaxTime, "max-time", 0, "time limit per cell, e.g. 30s or 2h (default: none)")
	f.IntVar(&opts.Threads, "threads", 0, "search threads (default: all cores)")
	f.StringVar(&opts.TableSize, "table-size", "", "table size per cell, e.g. 512MiB or 2GiB (default: by the pits, seeds and the endgame database's depth, at most a quarter of memory or 1 GiB)")
	cmdutil.DeprecatedAlias(cmd, "tt-mem", "table-size")
	f.BoolVar(&opts.JSON, "json", false, "print one JSON object instead of text")
	f.BoolVar(&opts.CSV, "csv", false, "print CSV, one row per cell, instead of text")
	f.StringVar(&opts.Data, "data", results.DefaultDir, "results directory, one <rule>.jsonl file per rule")
	f.StringVar(&opts.EGDB, "egdb", "", "endgame-database directory (default: $XDG_DATA_HOME/kalah/egdb or ~/.local/share/kalah/egdb, used when it holds a database)")
	f.BoolVar(&opts.NoEGDB, "no-egdb", false, "use no endgame database")
	f.StringVar(&opts.Cache, "cache", "", "cache directory for proven entries and checkpoints (see 'kalah cache'): a rerun after an interruption resumes (default: none)")
	cmdutil.DeprecatedAlias(cmd, "store", "cache")
	f.BoolVarP(&opts.Quiet, "quiet", "q", false, "no progress bar (there is none where standard error is not a terminal)")
	f.BoolVarP(&opts.Verbose, "verbose", "v", false, "log the endgame database opened, the cache's checkpoints (written, resumed from, or why not) and each bound a cell's solve proves, with the time since the cell began, on standard error")
	f.BoolVar(&opts.DryRun, "dry-run", false, "list the cells, whether each would be solved and what the open cells hold, without solving")
	return cmd
}

// cell is one start position to show.
type cell struct {
	rules  engine.Variant
	seeds  int
	status string // "stored", "solved", "unfinished", "failed" (an error ended the run), "skipped" (not reached), "todo" (dry run)
	rec    *results.Record
	res    *results.Cell // this run's solve, if any
	open   *results.Open // the cell's open record before the run, if any
	// unrecorded: this run's result (a value, or the bounds of an
	// unfinished cell) could not be written to the archive.
	unrecorded bool
}

func run(opts *Options) error {
	captures, err := parseRule(opts.Rule)
	if err != nil {
		return err
	}
	pits, err := parseRange("--pits", opts.Pits, 1, engine.MaxPits)
	if err != nil {
		return err
	}
	seeds, err := parseRange("--seeds", opts.Seeds, 1, engine.MaxSeeds)
	if err != nil {
		return err
	}
	if opts.MaxTime < 0 {
		return cmdutil.BadInputf("--max-time must not be negative, got %v", opts.MaxTime)
	}
	if opts.Threads < 0 {
		return cmdutil.BadInputf("--threads must not be negative, got %d", opts.Threads)
	}
	tableSize, err := cmdutil.ParseBytes(opts.TableSize)
	if err != nil {
		return cmdutil.BadInputf("--table-size: %v", err)
	}
	archive := results.Archive{Dir: opts.Data}
	open, err := archive.LoadOpen()
	if err != nil {
		return err
	}

	// The cells, small first: by seeds in play, then pits, then rule.
	var cells []*cell
	for _, c := range captures {
		recs, err := archive.Load(c.String())
		if err != nil {
			return err
		}
		for _, m := range pits {
			r := engine.Variant{Pits: m, Rule: c}
			for _, n := range seeds {
				if _, err := r.Start(n); err != nil {
					return cmdutil.BadInput(err)
				}
				x := &cell{rules: r, seeds: n, status: "todo"}
				if i := slices.IndexFunc(open, func(o results.Open) bool { return o.Rule == c.String() && o.Pits == m && o.Seeds == n }); i >= 0 {
					x.open = &open[i]
				}
				if i := slices.IndexFunc(recs, func(rec results.Record) bool { return rec.Pits == m && rec.Seeds == n }); i >= 0 {
					x.rec = &recs[i]
					if !opts.Force {
						x.status = "stored"
					}
				}
				cells = append(cells, x)
			}
		}
	}
	order := slices.Clone(cells)
	slices.SortStableFunc(order, func(a, b *cell) int {
		if d := a.rules.Pits*a.seeds - b.rules.Pits*b.seeds; d != 0 {
			return d
		}
		return a.rules.Pits - b.rules.Pits
	})

	// A dry run says what a run would miss too, after its table.
	runErr := checkEGDB(opts, order)
	if runErr != nil && !opts.DryRun {
		return runErr
	}
	if !opts.DryRun {
		runErr = solveCells(opts, archive, order, tableSize)
	}
	if err := printTables(opts, captures, pits, seeds, cells); err != nil {
		return err
	}
	return runErr
}

// checkEGDB: with --egdb DIR, every pit count and rule of a cell still to
// do needs its database in DIR, and a run that would stop at the first
// cell without one (after hours of the cells before it, perhaps) stops
// before any instead, naming each one missing.
func checkEGDB(opts *Options, order []*cell) error {
	if opts.EGDB == "" || opts.NoEGDB {
		return nil
	}
	var missing []string
	var seen []engine.Variant
	for _, c := range order {
		if c.status != "todo" || slices.Contains(seen, c.rules) {
			continue
		}
		seen = append(seen, c.rules)
		ok, err := kalah.HasEGDB(opts.EGDB, c.rules)
		if err != nil {
			return err
		}
		if !ok {
			missing = append(missing, c.rules.String())
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("no endgame database in %s for %s: build each with 'kalah egdb build --pits M --rule R --egdb %s', or go without with --no-egdb; nothing was solved",
			opts.EGDB, strings.Join(missing, ", "), opts.EGDB)
	}
	return nil
}

// solveCells solves the cells still to do, in order, archiving each
// record as soon as it is made. Ctrl-C stops the run: the cells not reached are
// "skipped" and the error wraps cmdutil.ErrInterrupted.
func solveCells(opts *Options, archive results.Archive, order []*cell, tableSize int64) error {
	ctx := opts.ctx
	if ctx == nil {
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
	}
	todo := 0
	for _, c := range order {
		if c.status == "todo" {
			todo++
		}
	}
	if todo == 0 {
		return nil
	}
	bar := newBar(opts, todo)
	defer bar.finish()
	solve := opts.newSolve
	if solve == nil {
		s := &cellSolver{opts: opts, tableSize: tableSize, bar: bar}
		solve = s.solve
	}
	for _, c := range order {
		if c.status != "todo" {
			continue
		}
		if ctx.Err() != nil {
			c.status = "skipped"
			continue
		}
		name := cellName(c.rules, c.seeds)
		bar.describe(name)
		cctx, cancel := ctx, context.CancelFunc(func() {})
		if opts.MaxTime > 0 {
			cctx, cancel = context.WithTimeout(ctx, opts.MaxTime)
		}
		// The open record, what earlier runs proved, is taken as
		// proven; --force solves from nothing.
		prior := c.open
		if opts.Force {
			prior = nil
		}
		res, err := solve(cctx, c.rules, c.seeds, prior)
		cancel()
		c.res = res
		switch {
		case err == nil:
			c.status, c.rec = "solved", res.Record
			if err := archive.Put(*res.Record); err != nil {
				// The table still shows the value; the cache, if any,
				// answers a rerun quickly.
				c.unrecorded = true
				skipRest(order)
				return fmt.Errorf("%s solved (%s) but not recorded: %w", name, results.Signed(res.Record.Value), err)
			}
		case res != nil && errors.Is(err, solver.ErrInterrupted):
			// Out of time, or Ctrl-C: keep the bounds as an open cell.
			c.status = "unfinished"
			reason := "interrupted"
			if ctx.Err() == nil && opts.MaxTime > 0 {
				reason = "time limit " + opts.MaxTime.String()
			}
			if err := archive.PutOpen(res.Open(reason, opts.Cache != "")); err != nil {
				c.unrecorded = true
				skipRest(order)
				return fmt.Errorf("%s: the bounds proven (%s) not recorded: %w", name, res.Bounds(), err)
			}
		default:
			// A cell that cannot be solved (a locked cache, a damaged
			// database) ends the run: it is "failed", the rest "skipped".
			c.status = "failed"
			skipRest(order)
			return fmt.Errorf("%s: %w", name, err)
		}
		bar.add()
	}
	if ctx.Err() != nil {
		return fmt.Errorf("%w: the cells solved so far are stored in %s", cmdutil.ErrInterrupted, opts.Data)
	}
	return nil
}

// skipRest marks the cells a failed run did not reach.
func skipRest(cells []*cell) {
	for _, c := range cells {
		if c.status == "todo" {
			c.status = "skipped"
		}
	}
}

// parseRule reads --rule.
func parseRule(s string) ([]engine.Rule, error) {
	if s == "both" {
		return []engine.Rule{engine.EmptyCapture, engine.NoEmptyCapture}, nil
	}
	c, err := engine.ParseRule(s)
	if err != nil {
		return nil, cmdutil.BadInputf("--rule: unknown rule %q: want empty-capture, no-empty-capture or both", s)
	}
	return []engine.Rule{c}, nil
}
