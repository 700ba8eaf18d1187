// Package analyzecmd implements "kalah analyze": read games, one a line,
// and say of every move how much of the margin it gave away under perfect
// play.
package analyzecmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/results"
	"github.com/kalah-solver/kalah/solver"
	"github.com/spf13/cobra"
)

// Options are the inputs of one "kalah analyze".
type Options struct {
	IO           *cmdutil.IOStreams
	Game         cmdutil.GameFlags
	Files        []string // "" or "-": standard input
	Line         string   // verify-line: the one game, instead of Files
	Format       string
	JSON         bool
	Plot         string
	Thresholds   kalah.Thresholds
	AllBest      bool
	PositionTime time.Duration
	MaxTime      time.Duration
	Threads      int
	TableSize    int64  // bytes; 0 for the policy's
	tableSize    string // --table-size as given
	EGDB         string
	NoEGDB       bool
	Cache        string
	NoCache      bool
	Quiet        bool
	EGDBTarget   int // seeds of the background deepening; 0: none

	ctx           context.Context // tests may set it
	autoEGDBSeeds int             // if positive, the depth of the first build (tests)
	waitDeepening bool            // each game after the first waits for the deepening (tests)
}

// NewCmdAnalyze returns the analyze command.
func NewCmdAnalyze(io *cmdutil.IOStreams) *cobra.Command {
	return newCmdAnalyze(&Options{IO: io})
}

func newCmdAnalyze(opts *Options) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "analyze [FILE...]",
		Short: "Analyse games: every move's value, loss and class",
		Long: `Read games, one a line, from the files named (or standard input, also as
"-") and analyse every move: the value of the position before it, the value
of the move played, the best moves and the loss, the seeds of margin the
move gave away for its mover, with its class. Values are South's final
store minus North's under perfect play, stores counted.

A move is best when it loses nothing, good when it loses less than
--inaccuracy seeds, an inaccuracy from --inaccuracy, a mistake from
--mistake, a blunder from --blunder (defaults 2, 4 and 8). Each side's
accuracy is the share of its moves that are best. Summed over a game, the
start's value minus the last position's (the final margin when the game is
over) is South's total loss minus North's.

A game is written in one of three forms, told apart by its look unless
--format says:
  notation   the move notation: pit letters (a.. South, A.. North) or
             0-based pit digits, a turn's sowings together, a dash where
             the turn passes: "cf-B-a" or "25-1-0"; or letters separated by
             spaces or commas, "c f B a"
  json       one object: {"pits":6,"seeds":4,"rule":"no-empty-capture",
             "position":"4,4,4,4,4,4,0,4,4,4,4,4,4,0","to_move":"south",
             "moves":["c","f","B"]} (or "line":"cf-B", or "actions":[3,6,9]);
             every field may be left out
  openspiel  OpenSpiel mancala actions: "[3, 6, 9]" or "3 6 9" (board
             indices: 1..6 South's pits, 8..13 North's)
The board and rule of notation and OpenSpiel games come from --pits,
--seeds, --rule (and --position), or from a header line such as
"# Kalah(4,3) empty-capture" or "# pits=4 seeds=3 rule=empty-capture
format=openspiel", which holds for the lines after it. Blank lines and
other lines starting with # are skipped. 'kalah verify-line LINE' analyses
the one game LINE given on the command line.

Each position is valued once, from the opening book or the cache when they
hold it and else by a value-only search; best moves are found by
null-window tests of the other moves only where the move played loses
(every best move with --all-best). With --position-time a position's search
stops there and its figures are bounds, shown as [lower,upper].

On a fresh install the first run builds the default endgame database
(Kalah(6,4): 20 seeds, 110 MB; once), as 'kalah solve' does; --no-egdb
goes without. A run of more than one game of a board then deepens it in
the background to --egdb-target seeds (28 by default: 2.9 GB a rule for
six pits, minutes on two cores; 0 turns this off), its progress on
standard error, analysing meanwhile with the database there and with the
deeper one from the first game after it is built. A run that ends first
stops the deepening, keeping the slices built: the next run goes on. A
single game never starts one, nor waits for one.

A malformed game is bad input (exit code 2), named by file, line and move;
nothing is analysed then. A move that loses is no error (exit code 0).`,
		Example: `  echo 13-1-032-2-3-0-1320-3-0-2 |
      kalah analyze --pits 4 --seeds 3 --rule empty-capture
  echo '[6, 11, 4, 12, 1, 5]' | kalah analyze --format openspiel
  kalah analyze --json --plot game.svg games.txt`,
		Args: cmdutil.Args(cobra.ArbitraryArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.check(cmd); err != nil {
				return err
			}
			opts.Files = args
			return run(opts)
		},
	}
	addFlags(cmd, opts, "auto")
	return cmd
}

// addFlags defines the flags of analyze and of its alias verify-line,
// whose games are in the move notation unless --format says otherwise.
func addFlags(cmd *cobra.Command, opts *Options, format string) {
	cmdutil.AddGameFlags(cmd, &opts.Game, true)
	f := cmd.Flags()
	f.StringVar(&opts.Format, "format", format, "form of the games: notation, json, openspiel, or auto (by each line's look)")
	f.BoolVar(&opts.JSON, "json", false, "print one JSON object a game instead of text")
	f.StringVar(&opts.Plot, "plot", "", "draw the value along each game into `FILE` (.svg or .png)")
	f.IntVar(&opts.Thresholds.Inaccuracy, "inaccuracy", kalah.DefaultThresholds.Inaccuracy, "least loss, in seeds, of an inaccuracy")
	f.IntVar(&opts.Thresholds.Mistake, "mistake", kalah.DefaultThresholds.Mistake, "least loss, in seeds, of a mistake")
	f.IntVar(&opts.Thresholds.Blunder, "blunder", kalah.DefaultThresholds.Blunder, "least loss, in seeds, of a blunder")
	f.BoolVar(&opts.AllBest, "all-best", false, "name every best move of every position (a null-window test of each other move)")
	f.DurationVar(&opts.PositionTime, "position-time", 0, "longest search of one position; past it its figures are bounds (default: none)")
	f.DurationVar(&opts.MaxTime, "max-time", 0, "time limit for the whole run (default: none)")
	f.IntVar(&opts.Threads, "threads", 0, "search threads (default: all cores)")
	f.StringVar(&opts.tableSize, "table-size", "", "transposition table size, e.g. 512MiB (default: by the board and the endgame database's depth)")
	f.StringVar(&opts.EGDB, "egdb", "", "endgame-database directory (default: $XDG_DATA_HOME/kalah/egdb or ~/.local/share/kalah/egdb, built there on first use)")
	f.BoolVar(&opts.NoEGDB, "no-egdb", false, "use no endgame database")
	f.StringVar(&opts.Cache, "cache", "", "cache directory (default: $XDG_DATA_HOME/kalah/cache or ~/.local/share/kalah/cache)")
	f.BoolVar(&opts.NoCache, "no-cache", false, "neither read nor write the cache")
	f.IntVar(&opts.EGDBTarget, "egdb-target", kalah.DefaultDeepenSeeds, "with more than one game of a board, deepen the default endgame database in the background to this many seeds (six pits: 2.9 GB a rule at 28); 0: never")
	f.BoolVar(&opts.Quiet, "quiet", false, "print nothing on standard error")
}

// check validates the flags that do not parse alone.
func (opts *Options) check(cmd *cobra.Command) error {
	if opts.NoEGDB && cmd.Flags().Changed("egdb") {
		return cmdutil.BadInputf("--egdb and --no-egdb contradict each other")
	}
	if opts.NoCache && cmd.Flags().Changed("cache") {
		return cmdutil.BadInputf("--cache and --no-cache contradict each other")
	}
	b, err := cmdutil.ParseBytes(opts.tableSize)
	if err != nil {
		return cmdutil.BadInputf("--table-size: %v", err)
	}
	opts.TableSize = b
	if opts.EGDBTarget < 0 {
		return cmdutil.BadInputf("--egdb-target must be 0 (off) or a seed count, got %d", opts.EGDBTarget)
	}
	return cmdutil.BadInput(opts.Thresholds.Validate())
}

// sessionKey is what a session is opened for.
type sessionKey struct {
	pits int
	rule engine.Rule
}

func run(opts *Options) error {
	games, err := readGames(opts)
	if err != nil {
		return err
	}
	ctx := opts.ctx
	if ctx == nil {
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
	}
	if opts.MaxTime > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.MaxTime)
		defer cancel()
	}
	perBoard := map[sessionKey]int{}
	for _, in := range games {
		perBoard[sessionKey{in.game.Pits, in.game.Rule}]++
	}
	var k *kalah.Session
	var open sessionKey
	var deep *deepening
	defer func() {
		deep.stop(ctx, opts)
		if k != nil {
			k.Close()
		}
	}()
	var done []*kalah.Analysis
	for n, in := range games {
		g := in.game
		if key := (sessionKey{g.Pits, g.Rule}); k == nil || key != open {
			if k != nil {
				if err := k.Close(); err != nil {
					return err
				}
			}
			k, err = openSession(opts, g)
			if err != nil {
				return err
			}
			open = key
			if deep == nil && opts.deepens(perBoard[key]) {
				if err := k.PrepareEGDB(ctx); err != nil {
					return err
				}
				deep = startDeepening(ctx, k, key, opts.EGDBTarget)
			}
		}
		if deep != nil && deep.key == open && n > 0 {
			deep.refresh(k, opts)
		}
		a, err := k.Analyze(ctx, g, kalah.AnalyzeOptions{Thresholds: opts.Thresholds, AllBest: opts.AllBest, PositionTime: opts.PositionTime})
		if err != nil {
			if errors.Is(err, solver.ErrInterrupted) || ctx.Err() != nil {
				return fmt.Errorf("%w: game %d of %d (%s), %d of %d moves analysed (%v)", cmdutil.ErrInterrupted,
					n+1, len(games), in.where(), len(a.Moves), len(g.Moves), err)
			}
			return fmt.Errorf("%s: %w", in.where(), err)
		}
		done = append(done, a)
		if opts.JSON {
			if err := cmdutil.PrintJSON(opts.IO.Out, gameRecord{Analysis: a, File: in.file, FileLine: in.line, Provenance: results.Current()}); err != nil {
				return err
			}
		} else {
			printText(opts.IO.Out, n+1, in, a)
		}
	}
	if opts.Plot != "" {
		if err := writePlot(opts.Plot, done); err != nil {
			return err
		}
	}
	return nil
}

// gameRecord is one game's JSON output: the analysis, where the game was
// read (the file and its line: "line" is the analysis' own, the moves),
// and the build that analysed it.
type gameRecord struct {
	*kalah.Analysis
	File     string `json:"file"`
	FileLine int    `json:"file_line,omitempty"` // 0 for the command line
	results.Provenance
}

// openSession opens the session for g's board and rule.
func openSession(opts *Options, g kalah.Game) (*kalah.Session, error) {
	seeds := g.Seeds
	tableSeeds := 0
	if g.Position != nil {
		tableSeeds = g.Position.Board.Seeds()
		seeds = max(seeds, 1)
		for 2*g.Pits*seeds > engine.MaxSeeds && seeds > 1 {
			seeds--
		}
	}
	cfg := kalah.Config{Pits: g.Pits, Seeds: seeds, Rule: g.Rule, Threads: opts.Threads, TableSize: opts.TableSize,
		TableSeeds: tableSeeds, TableValueOnly: true, EGDBDir: opts.EGDB, NoEGDB: opts.NoEGDB,
		CacheDir: opts.Cache, NoCache: opts.NoCache, AutoEGDB: true, AutoEGDBSeeds: opts.autoEGDBSeeds, OnEGDBBuild: egdbBuild(opts)}
	k, err := kalah.Open(cfg)
	if err != nil {
		return nil, err
	}
	return k, nil
}

// egdbBuild reports the session's database builds on standard error,
// the first build and the deepening (deepen.go), but not a deepening's
// end when the analysis stopped it.
func egdbBuild(opts *Options) func(kalah.EGDBBuild) {
	log := cmdutil.EGDBLogger(opts.IO.ErrOut, cmdutil.EGDBLogWords{Prefix: "kalah analyze", NoEGDB: "--no-egdb goes without",
		NoDeepen: "--egdb-target 0 turns this off", Deepened: "the next game"})
	return func(ev kalah.EGDBBuild) {
		if opts.Quiet || ev.Background && errors.Is(ev.Err, context.Canceled) {
			return
		}
		log(ev)
	}
}
