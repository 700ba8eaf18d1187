// Package playcmd implements "kalah play": explore a position or play
// against the solver in the terminal, with plain line input, or play a
// line given on the command line and print the record of where it ends.
package playcmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"syscall"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/persist"
	"github.com/kalah-solver/kalah/play"
	"github.com/spf13/cobra"
)

// Options are the inputs of one "kalah play".
type Options struct {
	IO        *cmdutil.IOStreams
	Game      cmdutil.GameFlags
	Mode      string
	Level     string
	As        string
	Seed      uint64
	Moves     string
	JSON      bool
	Cache     string
	NoCache   bool
	EGDB      string
	NoEGDB    bool
	TableSize string
	Threads   int
}

// NewCmdPlay returns the play command.
func NewCmdPlay(io *cmdutil.IOStreams) *cobra.Command {
	opts := &Options{IO: io}
	cmd := &cobra.Command{
		Use:   "play",
		Short: "Play against perfect play or explore positions in the terminal",
		Long: `Play Kalah in the terminal, one command a line on standard input.

--mode play (the default): you against the computer, as --as south or north,
at --level easy, medium or perfect. Every level reads the exact value of
each move and chooses at random, seeded by --seed and the position, among
the moves that give away at most 8 (easy), 3 (medium) or 0 (perfect) seeds
of final margin against the best: the same seed makes the same game.

--mode explore: you play both sides; the values are there on request.

Commands, one a line: a move (its letter, a.. for South and A.. for North,
or its pit number 1..m from the mover's left); "values" (every move's exact
value); "hint" (the best move and its value against the others); "pv" (a
perfect game from here); "undo" (in play mode, back to before your last
move); "level NAME"; "new"; "board"; "help"; "quit". End of input ends the
game.

On a terminal the line can be edited in place and the arrow keys recall
earlier commands; the prompt lists the legal moves, and the board shows
the pit sown last in yellow, a capture's two pits in red and the legal
moves' letters in bold ($NO_COLOR turns the colours off). Ctrl-C stops a
solve; at the prompt Ctrl-C or Ctrl-D ends the game.

--moves c,f,B plays that line (both sides' moves, by letter or number) from
the position and prints the record of where it ends: the exact value, every
move's value, the best moves and a perfect game (the fields of 'kalah solve
--json', with --json), and the line played. Nothing is read from standard
input then.

When another process holds the cache (a running 'kalah serve'), play goes
on without it, saying so on standard error: positions are solved afresh
and not kept.`,
		Example: `  kalah play
  kalah play --pits 4 --seeds 3 --level medium --as north --seed 7
  kalah play --mode explore --rule empty-capture
  kalah play --pits 4 --seeds 3 --moves c,f,B --json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := opts.Game.CheckConflicts(cmd.Flags().Changed); err != nil {
				return err
			}
			if opts.NoEGDB && opts.EGDB != "" {
				return cmdutil.BadInputf("--egdb and --no-egdb contradict each other")
			}
			if opts.NoCache && opts.Cache != "" {
				return cmdutil.BadInputf("--cache and --no-cache contradict each other")
			}
			if opts.JSON && opts.Moves == "" {
				return cmdutil.BadInputf("--json needs --moves: an interactive game prints text")
			}
			return run(cmd.Context(), opts)
		},
	}
	cmdutil.AddGameFlags(cmd, &opts.Game, true)
	f := cmd.Flags()
	f.StringVar(&opts.Mode, "mode", "play", "play (against the computer) or explore (both sides yours)")
	f.StringVar(&opts.Level, "level", "perfect", "the computer's level: easy, medium or perfect")
	f.StringVar(&opts.As, "as", "south", "your side in play mode: south (moves first) or north")
	f.Uint64Var(&opts.Seed, "seed", 1, "seed of the weaker levels' choices (the same seed makes the same game)")
	f.StringVar(&opts.Moves, "moves", "", "play this line (e.g. c,f,B) and print the record of the position it reaches")
	f.BoolVar(&opts.JSON, "json", false, "with --moves: print one JSON object")
	f.StringVar(&opts.Cache, "cache", "", cmdutil.CacheDirHelp)
	f.BoolVar(&opts.NoCache, "no-cache", false, cmdutil.NoCacheHelp)
	f.StringVar(&opts.EGDB, "egdb", "", "endgame-database directory (default: $XDG_DATA_HOME/kalah/egdb or ~/.local/share/kalah/egdb)")
	f.BoolVar(&opts.NoEGDB, "no-egdb", false, "use no endgame database")
	f.StringVar(&opts.TableSize, "table-size", "", "table size, e.g. 512MiB (default: "+cmdutil.TableSizeDefault+")")
	cmdutil.DeprecatedAlias(cmd, "tt-mem", "table-size")
	f.IntVar(&opts.Threads, "threads", 0, fmt.Sprintf("search threads (default all cores, %d)", runtime.GOMAXPROCS(0)))
	// The old names, for one release (removed in v0.3.0).
	cmdutil.DeprecatedAlias(cmd, "store", "cache")
	cmdutil.DeprecatedAlias(cmd, "no-store", "no-cache")
	return cmd
}

// game is a running game: the session that values its positions and the
// line played.
type game struct {
	opts  *Options
	k     *kalah.Session
	line  *play.Line
	level play.Level
	you   engine.Side
	mode  string
	// reader reads the commands; color draws the board in colour (both
	// set by the terminal, if standard input and output are one).
	reader lineReader
	color  bool
	// title names the game in the header: "Kalah(6,4)" from a start
	// position, "Kalah(6) from a position" otherwise.
	title string
}

func run(ctx context.Context, opts *Options) error {
	if opts.Threads < 0 {
		return cmdutil.BadInputf("--threads must be at least 1, got %d", opts.Threads)
	}
	if opts.Mode != "play" && opts.Mode != "explore" {
		return cmdutil.BadInputf("--mode %q: want play or explore", opts.Mode)
	}
	level, err := play.ParseLevel(opts.Level)
	if err != nil {
		return cmdutil.BadInput(err)
	}
	you, err := engine.ParseSide(opts.As)
	if err != nil {
		return cmdutil.BadInputf("--as: %v", err)
	}
	rules, start, isStart, err := opts.Game.Resolve()
	if err != nil {
		return err
	}
	g := &game{opts: opts, line: &play.Line{Variant: rules, Start: start}, level: level, you: you, mode: opts.Mode}
	// The line is checked before any session opens: a bad move is bad
	// input, at once.
	var moves []string
	if opts.Moves != "" {
		moves = play.SplitMoves(opts.Moves)
		if _, err := play.Replay(rules, start, moves); err != nil {
			return cmdutil.BadInput(err)
		}
	}
	cfg := kalah.Config{Pits: rules.Pits, Seeds: opts.Game.Seeds, Rule: rules.Rule, Threads: opts.Threads,
		EGDBDir: opts.EGDB, NoEGDB: opts.NoEGDB, CacheDir: opts.Cache, NoCache: opts.NoCache}
	g.title = fmt.Sprintf("Kalah(%d,%d)", rules.Pits, opts.Game.Seeds)
	if !isStart {
		cfg.Seeds = max(1, (start.Board.Total()+2*rules.Pits-1)/(2*rules.Pits))
		g.title = fmt.Sprintf("Kalah(%d) from a position", rules.Pits)
	}
	if opts.TableSize != "" {
		b, err := cmdutil.ParseBytes(opts.TableSize)
		if err != nil {
			return cmdutil.BadInputf("--table-size: %v", err)
		}
		cfg.TableSize = b
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	g.k, err = openSession(cfg, opts.IO)
	if err != nil {
		return err
	}
	if opts.Moves != "" {
		g.line, _ = play.Replay(rules, start, moves)
		err = g.printRecord(ctx)
	} else {
		g.reader, g.color = newLineReader(opts.IO.In, opts.IO.Out)
		err = g.loop(ctx)
	}
	if cerr := g.k.Close(); err == nil {
		err = cerr
	}
	return err
}

// openSession opens the game's session. When another process holds the
// cache ('kalah serve', a long 'kalah solve'), it goes on without it, and
// says so in one line: a BadgerDB directory has one user at a time, even
// to read (its read-only mode takes the directory lock too).
func openSession(cfg kalah.Config, io *cmdutil.IOStreams) (*kalah.Session, error) {
	k, err := kalah.Open(cfg)
	if err == nil || cfg.NoCache || !errors.Is(err, persist.ErrInUse) {
		return k, err
	}
	dir := cfg.CacheDir
	if dir == "" {
		dir, _ = persist.DefaultDir()
	}
	cfg.NoCache = true
	k, err = kalah.Open(cfg)
	if err == nil {
		fmt.Fprintf(io.ErrOut, "kalah play: the cache %s is in use by another kalah process (kalah serve?); playing without it: positions are solved afresh and not kept\n", dir)
	}
	return k, err
}
