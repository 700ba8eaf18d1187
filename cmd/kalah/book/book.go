// Package bookcmd implements "kalah book build", which fills the cache with
// every position within a few plies of the start, so that the explorer,
// 'kalah play' and 'kalah solve' answer them at once, and "kalah book
// export", which writes them to a book file such as those built into
// kalah (package book).
package bookcmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/results"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
)

// Options are the inputs of one "kalah book build".
type Options struct {
	IO        *cmdutil.IOStreams
	Game      cmdutil.GameFlags
	Plies     int
	Threads   int
	TableSize string
	EGDB      string
	NoEGDB    bool
	Cache     string
	DryRun    bool
	JSON      bool
	Quiet     bool
	ctx       context.Context // tests may set it
}

// NewCmdBook returns the book command and its build subcommand.
func NewCmdBook(io *cmdutil.IOStreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "book",
		Short: "Build or export an opening book of the positions near the start",
		Long: `An opening book is the root record of every position within a few plies
of the start: each such position is then answered at once, with every
move's value, by 'kalah solve', 'kalah play' and the explorer ('kalah
serve'). 'kalah book build' solves them into the cache (see 'kalah
cache'); 'kalah book export' writes them from the cache to a book file.

kalah has a book built in (Kalah(6,4) under both rules; 'kalah book
export' made it): a position it holds is answered from it when the cache
holds no record of its own, with "from_book" in the JSON output.`,
		Args: cmdutil.NoArgs,
	}
	cmd.AddCommand(NewCmdBuild(io), NewCmdExport(io))
	return cmd
}

// NewCmdBuild returns "kalah book build".
func NewCmdBuild(io *cmdutil.IOStreams) *cobra.Command {
	opts := &Options{IO: io}
	cmd := &cobra.Command{
		Use:   "build",
		Short: "Solve every position within --plies of the start into the cache",
		Long: `Solve every distinct unfinished position reachable from the start of
Kalah(--pits, --seeds) in at most --plies sowings (an extra turn is a ply of
its own), deepest first, each with every move's value, and keep each answer
in the cache as the position's root record.

Resumable: a position the cache already answers costs nothing, so an
interrupted build (Ctrl-C, exit 130) goes on where it stopped when run
again. A progress bar on standard error counts the positions (-q turns it
off). --dry-run only counts them.`,
		Example: `  kalah book build --pits 6 --seeds 4 --plies 3
  kalah book build --pits 4 --seeds 3 --rule empty-capture --plies 6 \
      --cache /data/kalah-cache
  kalah book build --pits 6 --seeds 4 --plies 5 --dry-run`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.NoEGDB && opts.EGDB != "" {
				return cmdutil.BadInputf("--egdb and --no-egdb contradict each other")
			}
			return run(opts)
		},
	}
	cmdutil.AddGameFlags(cmd, &opts.Game, false)
	f := cmd.Flags()
	f.IntVar(&opts.Plies, "plies", 3, "depth of the book in sowings from the start")
	f.IntVar(&opts.Threads, "threads", 0, "search threads (default: all cores)")
	f.StringVar(&opts.TableSize, "table-size", "", "table size, e.g. 1GiB (default: "+cmdutil.TableSizeDefault+")")
	cmdutil.DeprecatedAlias(cmd, "tt-mem", "table-size")
	f.StringVar(&opts.EGDB, "egdb", "", "endgame-database directory (default: the installed one, if any)")
	f.BoolVar(&opts.NoEGDB, "no-egdb", false, "use no endgame database")
	f.StringVar(&opts.Cache, "cache", "", "cache directory, which holds the book (default: $XDG_DATA_HOME/kalah/cache or ~/.local/share/kalah/cache)")
	cmdutil.DeprecatedAlias(cmd, "store", "cache")
	f.BoolVar(&opts.DryRun, "dry-run", false, "count the positions, solve nothing")
	f.BoolVar(&opts.JSON, "json", false, "print one JSON object instead of text")
	f.BoolVarP(&opts.Quiet, "quiet", "q", false, "no progress bar")
	return cmd
}

// summary is the JSON output.
type summary struct {
	Rule      string  `json:"rule"`
	Pits      int     `json:"pits"`
	Seeds     int     `json:"seeds"`
	Plies     int     `json:"plies"`
	Positions int     `json:"positions"`
	Solved    int     `json:"solved"`     // positions answered in this run, from the cache or by a search
	FromCache int     `json:"from_cache"` // of those, answered by a root record already in the cache
	Cache     string  `json:"cache"`      // the cache's directory
	Seconds   float64 `json:"seconds"`
	DryRun    bool    `json:"dry_run,omitempty"`
	results.Provenance
}

func run(opts *Options) error {
	if opts.Plies < 0 || opts.Plies > 40 {
		return cmdutil.BadInputf("--plies must be 0..40, got %d", opts.Plies)
	}
	r, _, _, err := opts.Game.Resolve()
	if err != nil {
		return err
	}
	var tb int64
	if opts.TableSize != "" {
		if tb, err = cmdutil.ParseBytes(opts.TableSize); err != nil {
			return cmdutil.BadInputf("--table-size: %v", err)
		}
	}
	k, err := kalah.Open(kalah.Config{Pits: r.Pits, Seeds: opts.Game.Seeds, Rule: r.Rule, Threads: opts.Threads,
		TableSize: tb, EGDBDir: opts.EGDB, NoEGDB: opts.NoEGDB, CacheDir: opts.Cache})
	if err != nil {
		return err
	}
	defer k.Close()
	sum := summary{Rule: r.Rule.String(), Pits: r.Pits, Seeds: opts.Game.Seeds, Plies: opts.Plies,
		Cache: k.CacheDir(), DryRun: opts.DryRun, Provenance: results.Current()}
	if opts.DryRun {
		sum.Positions = len(k.BookPositions(opts.Plies))
		return printSummary(opts, sum)
	}
	ctx := opts.ctx
	if ctx == nil {
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
	}
	sum.Positions = len(k.BookPositions(opts.Plies))
	var bar *progressbar.ProgressBar
	if !opts.Quiet {
		fmt.Fprintf(opts.IO.ErrOut, "kalah book: %d positions of Kalah(%d,%d) %s within %d plies, into %s\n",
			sum.Positions, r.Pits, opts.Game.Seeds, r.Rule, opts.Plies, k.CacheDir())
		bar = progressbar.NewOptions(sum.Positions, progressbar.OptionSetWriter(opts.IO.ErrOut),
			progressbar.OptionShowCount(), progressbar.OptionSetItsString("positions"),
			progressbar.OptionSetElapsedTime(true), progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionSetRenderBlankState(true))
	}
	t0 := time.Now()
	st, err := k.BuildBook(ctx, opts.Plies, func(p kalah.BookProgress) {
		if bar != nil {
			bar.Set(p.Done)
		}
	})
	if bar != nil {
		if err != nil {
			bar.Exit() // stopped: the bar keeps the count reached
		} else {
			bar.Finish()
		}
		io.WriteString(opts.IO.ErrOut, "\n")
	}
	sum.Solved, sum.FromCache, sum.Seconds = st.Done, st.FromCache, time.Since(t0).Seconds()
	if err != nil {
		if ctx.Err() != nil {
			if cerr := k.Close(); cerr != nil {
				return fmt.Errorf("%w, and the cache could not be saved: %v", cmdutil.ErrInterrupted, cerr)
			}
			return fmt.Errorf("%w: %d of %d positions are in the cache %s; run the same command again to go on", cmdutil.ErrInterrupted, st.Done, st.Total, sum.Cache)
		}
		return err
	}
	return printSummary(opts, sum)
}

func printSummary(opts *Options, sum summary) error {
	if opts.JSON {
		return cmdutil.PrintJSON(opts.IO.Out, sum)
	}
	w := opts.IO.Out
	if sum.DryRun {
		_, err := fmt.Fprintf(w, "Kalah(%d,%d) %s: %d positions within %d plies (dry run)\n", sum.Pits, sum.Seeds, sum.Rule, sum.Positions, sum.Plies)
		return err
	}
	_, err := fmt.Fprintf(w, "Kalah(%d,%d) %s: %d positions within %d plies in the cache %s (%d already there), %.1f s\n",
		sum.Pits, sum.Seeds, sum.Rule, sum.Positions, sum.Plies, sum.Cache, sum.FromCache, sum.Seconds)
	return err
}
