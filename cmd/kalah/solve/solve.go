// Package solvecmd implements "kalah solve": the exact value, every move's
// value, the best moves and a perfect game of Kalah positions.
package solvecmd

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"syscall"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/solver"
	"github.com/spf13/cobra"
)

// Options are the inputs of one "kalah solve".
type Options struct {
	IO        *cmdutil.IOStreams
	Game      cmdutil.GameFlags
	TableSize string
	Threads   int
	EGDB      string
	NoEGDB    bool
	Cache     string
	NoCache   bool
	Force     bool
	JSON      bool
	// ValueOnly computes the value, one best move and a principal
	// variation, not every move's value.
	ValueOnly bool
	Quiet     bool
	Verbose   bool

	// CacheMinSeeds and CacheMinWork override the cache's thresholds
	// (hidden flags, for measuring them; 0 keeps the defaults).
	CacheMinSeeds int
	CacheMinWork  int
	// Progress, when set, forces progress reports on or off, whatever the
	// streams are; nil decides from --quiet, --json and the terminal.
	Progress *bool
	// Players chooses the 3- or 4-player game (players.go).
	Players PlayersOptions
}

// NewCmdSolve returns the solve command.
func NewCmdSolve(io *cmdutil.IOStreams) *cobra.Command {
	opts := &Options{IO: io}
	cmd := &cobra.Command{
		Use:   "solve",
		Short: "Solve a position: value, every move's value, a perfect game",
		Long: `Solve a position exactly: by default the start of Kalah(--pits, --seeds)
under --rule, or any legal --position with --to-move. Prints the value (the
final store difference for the side to move under perfect play by both
sides, counting what the stores already hold) with W, L or D, the exact
value of every legal move in pit order, the best moves, a principal
variation to the end of the game in letters ("cf-B-a": a turn's chain of
sowings joined, turns separated by dashes) and in the paper's notation
(0-based hole numbers on the mover's side, "25-1-0"), and what the search
cost: nodes, seconds, nodes per second, threads, table size and endgame
database depth.

--position - reads positions from standard input, one a line: "P" or
"P south|north" (blank lines and lines starting with # are skipped); each
gives one result line (one JSON object with --json). Every line is checked
before anything is solved.

--value-only skips the values of the other moves: it prints the value, one
best move and a principal variation, at a fraction of the cost (proving
exactly how much a losing move loses is most of a full solve's work).

The endgame database of the pit count and rule installed in the default
directory (see 'kalah egdb path') or in --egdb DIR is used when there is
one. Without --egdb, the first solve of a big board (at least twice the
seeds of the deepest database of 2.5*10^8 positions: 25 seeds for five
pits, 20 for six, 16 for seven, 14 for eight) builds that database in the
default directory first, once, with a line saying so and a progress bar
(a line at every tenth when standard error is not a terminal) (Kalah(6,4):
110 MB, seconds on two cores); --no-egdb solves without.

Long solves report progress on standard error every 2 s (not with --quiet,
nor with --json when standard error is not a terminal), with how much of
the endgame database is still being read into memory when it is (the
first solve after a reboot: the search then waits for the disk). Ctrl-C
or SIGTERM stops the solve, prints the bounds proven so far and exits 130.

With --players 3 or 4 it solves the k-player game under --concept paranoid
(what the mover can guarantee against all the others; every seat's
guarantee too) or maxn (each player for itself, lowest pit among equal
moves), every move's value as the final stores of every seat; --save DIR
records a start position in DIR/players.jsonl (docs/cli.md).`,
		Example: `  kalah solve
  kalah solve --pits 4 --seeds 3 --rule empty-capture --json
  kalah solve --pits 6 --seeds 4 --rule empty-capture --value-only
  kalah solve --position 0,0,13,0,0,0,0,1,1,1,1,1,1,0 --table-size 512MiB
  printf '4,4,4,4,4,4,0,4,4,4,4,4,4,0\n1,0,2,0,3,0,20,0,0,0,2,0,1,19 north\n' \
      | kalah solve --position - --json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.Players.Players != 2 {
				return runPlayers(cmd.Context(), opts, cmd.Flags().Changed)
			}
			if err := checkTwoPlayers(cmd.Flags().Changed); err != nil {
				return err
			}
			if err := opts.Game.CheckConflicts(cmd.Flags().Changed); err != nil {
				return err
			}
			if opts.NoEGDB && opts.EGDB != "" {
				return cmdutil.BadInputf("--egdb and --no-egdb contradict each other")
			}
			if opts.NoCache && opts.Cache != "" {
				return cmdutil.BadInputf("--cache and --no-cache contradict each other")
			}
			return run(cmd.Context(), opts)
		},
	}
	cmdutil.AddGameFlags(cmd, &opts.Game, true)
	f := cmd.Flags()
	f.StringVar(&opts.TableSize, "table-size", "", fmt.Sprintf("table size, e.g. 512MiB or 2GiB (default: by the board's pits, seeds and the endgame database's depth, at most a quarter of memory or 1 GiB (%s here): 1 GiB for Kalah(6,4) with the 18-seed database, 16 MiB with the 28-seed one; a quarter of that with --value-only)", cmdutil.FormatBytes(solver.DefaultTableSize())))
	cmdutil.DeprecatedAlias(cmd, "tt-mem", "table-size")
	f.IntVar(&opts.Threads, "threads", 0, fmt.Sprintf("search threads (default all cores, %d)", runtime.GOMAXPROCS(0)))
	f.StringVar(&opts.EGDB, "egdb", "", "endgame-database directory (default: $XDG_DATA_HOME/kalah/egdb or ~/.local/share/kalah/egdb)")
	f.BoolVar(&opts.NoEGDB, "no-egdb", false, "use no endgame database")
	f.StringVar(&opts.Cache, "cache", "", cmdutil.CacheDirHelp)
	f.BoolVar(&opts.NoCache, "no-cache", false, cmdutil.NoCacheHelp)
	f.BoolVar(&opts.Force, "force", false, "solve again even when the cache holds the answer")
	f.BoolVar(&opts.JSON, "json", false, "print one JSON object per position instead of text")
	f.BoolVar(&opts.ValueOnly, "value-only", false, "compute the value, one best move and a principal variation, not every move's value (faster)")
	f.BoolVarP(&opts.Quiet, "quiet", "q", false, "no progress reports on standard error")
	f.BoolVarP(&opts.Verbose, "verbose", "v", false, "log the endgame database and cache opened, and the cache's options, on standard error")
	f.IntVar(&opts.CacheMinSeeds, "cache-min-seeds", 0, "ask the cache only at boards with at least this many seeds (default persist.DefaultMinSeeds; never below the table's, the database's depth + 3)")
	f.IntVar(&opts.CacheMinWork, "cache-min-work", 0, "keep in the cache only entries that cost at least 2^this many nodes (default persist.DefaultMinWork)")
	f.MarkHidden("cache-min-seeds")
	f.MarkHidden("cache-min-work")
	// The old names, for one release (removed in v0.3.0).
	cmdutil.DeprecatedAlias(cmd, "store", "cache")
	cmdutil.DeprecatedAlias(cmd, "no-store", "no-cache")
	cmdutil.DeprecatedAlias(cmd, "store-min-seeds", "cache-min-seeds")
	cmdutil.DeprecatedAlias(cmd, "store-min-work", "cache-min-work")
	addPlayersFlags(cmd, opts)
	return cmd
}

// job is one position to solve.
type job struct {
	rules engine.Variant
	pos   engine.Position
	seeds int // seeds per pit of a start position, else 0
	start bool
}

// run solves every position; ctx (cmd.Context(), which tests may cancel)
// is further cancelled by Ctrl-C and SIGTERM.
func run(ctx context.Context, opts *Options) error {
	if opts.Threads < 0 {
		return cmdutil.BadInputf("--threads must be at least 1, got %d", opts.Threads)
	}
	jobs, batch, err := readJobs(opts)
	if err != nil {
		return err
	}
	// The default table is sized by the largest board to solve and the
	// endgame database the session opens (kalah.Config.TableSeeds), so
	// that a small game does not map and zero gigabytes it never
	// touches; a value-only solve gets a quarter of that (it visits a
	// fraction of the nodes).
	var tableSize int64
	tableSeeds := 0
	for _, j := range jobs {
		tableSeeds = max(tableSeeds, j.pos.Board.Seeds())
	}
	if opts.TableSize != "" {
		b, err := cmdutil.ParseBytes(opts.TableSize)
		if err != nil {
			return cmdutil.BadInputf("--table-size: %v", err)
		}
		tableSize = b
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	s := newSolveRun(opts, tableSize, tableSeeds, batch)
	for _, j := range jobs {
		if err := s.solve(ctx, j); err != nil {
			s.close()
			return err
		}
	}
	return s.close()
}
