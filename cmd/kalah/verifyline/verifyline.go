// Package verifylinecmd implements "kalah verify-line": replay a game given
// in the paper's notation (or in pit letters) and say, move by move,
// whether it is optimal.
package verifylinecmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
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

// Options are the inputs of one "kalah verify-line".
type Options struct {
	IO        *cmdutil.IOStreams
	Game      cmdutil.GameFlags
	Line      string
	Notation  string // paper or letters
	Threads   int
	TableSize int64 // bytes; 0 for the default
	EGDB      string
	NoEGDB    bool
	MaxTime   time.Duration
	JSON      bool
	ctx       context.Context // tests may set it
}

// NewCmdVerifyLine returns the verify-line command.
func NewCmdVerifyLine(io *cmdutil.IOStreams) *cobra.Command {
	opts := &Options{IO: io}
	var tableSizeFlag string
	cmd := &cobra.Command{
		Use:   "verify-line LINE",
		Short: "Replay a game and check that every move is optimal",
		Long: `Replay a line of play from the start of Kalah(--pits, --seeds) and report,
move by move, the value of the position before the move, the value after it
(South's final store minus North's under perfect play), whether the move is
optimal (it keeps the value), and, when it is not, which moves were.

The line is in the notation of Irving, Donkers & Uiterwijk (2000), Table 9:
one digit per sowing, the mover's hole numbered from 0 at the mover's left,
the sowings of one turn written together and a dash at each change of
player: "45-3" is the first player's hole 4, then hole 5 after the extra
turn, then the opponent's hole 3. With --notation letters the same line is
written in pit letters, a.. for South and A.. for North: "ef-D".

A line must be legal: within a turn every sowing but the last must earn an
extra turn, and a dash must follow a sowing that passes the turn. An illegal
line is bad input (exit code 2); the moves before the illegal one are still
checked and shown. A line may end before the game does.

'kalah analyze' does the same for many games, in the move notation, JSON or
OpenSpiel actions, with each move's loss, class and best move, each side's
sums and a plot.`,
		Example: `  kalah verify-line --rule empty-capture --pits 4 --seeds 3 \
      13-1-032-2-3-0-1320-3-0-2
  kalah verify-line --rule empty-capture --pits 6 --seeds 1 \
      --notation letters fe-FE-d-D-c
  kalah verify-line --rule no-empty-capture --pits 6 --seeds 4 --json 25-10`,
		Args: cmdutil.Args(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.NoEGDB && cmd.Flags().Changed("egdb") {
				return cmdutil.BadInputf("--egdb and --no-egdb contradict each other")
			}
			b, err := cmdutil.ParseBytes(tableSizeFlag)
			if err != nil {
				return cmdutil.BadInputf("--table-size: %v", err)
			}
			opts.TableSize, opts.Line = b, args[0]
			return run(opts)
		},
	}
	cmdutil.AddGameFlags(cmd, &opts.Game, false)
	f := cmd.Flags()
	f.StringVar(&opts.Notation, "notation", "paper", "notation of LINE: paper (hole digits) or letters")
	f.IntVar(&opts.Threads, "threads", 0, "search threads (default: all cores)")
	f.StringVar(&tableSizeFlag, "table-size", "", "table size, e.g. 512MiB or 2GiB (default: by the pits, seeds and the endgame database's depth, at most a quarter of memory or 1 GiB)")
	cmdutil.DeprecatedAlias(cmd, "tt-mem", "table-size")
	f.StringVar(&opts.EGDB, "egdb", "", "endgame-database directory (default: $XDG_DATA_HOME/kalah/egdb or ~/.local/share/kalah/egdb, used when it holds a database)")
	f.BoolVar(&opts.NoEGDB, "no-egdb", false, "use no endgame database")
	f.DurationVar(&opts.MaxTime, "max-time", 0, "time limit for the whole check (default: none)")
	f.BoolVar(&opts.JSON, "json", false, "print one JSON object instead of text")
	return cmd
}

// record is the JSON output.
type record struct {
	Rule    string             `json:"rule"`
	Pits    int                `json:"pits"`
	Seeds   int                `json:"seeds"`
	Line    string             `json:"line"`    // as given
	Paper   string             `json:"paper"`   // the legal part, in the paper's notation
	Letters string             `json:"letters"` // the same in pit letters
	Legal   bool               `json:"legal"`
	Illegal string             `json:"illegal,omitempty"` // why the line stops being legal
	Plies   []results.PlyCheck `json:"plies"`
	Optimal bool               `json:"optimal"`         // every ply checked is optimal
	Over    bool               `json:"game_over"`       // the line ends the game
	Final   *int               `json:"final,omitempty"` // South's store minus North's at the end, when over
	Seconds float64            `json:"seconds"`
	results.Provenance
}

func run(opts *Options) error {
	r, start, _, err := opts.Game.Resolve()
	if err != nil {
		return err
	}
	var line []engine.Ply
	var parseErr error
	switch opts.Notation {
	case "paper":
		line, parseErr = r.ParsePaper(start, opts.Line)
	case "letters":
		line, parseErr = r.ParseLetters(start, opts.Line)
	default:
		return cmdutil.BadInputf("--notation %q: want paper or letters", opts.Notation)
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
	k, err := kalah.Open(kalah.Config{Pits: r.Pits, Seeds: opts.Game.Seeds, Rule: r.Rule, Threads: opts.Threads,
		TableSize: opts.TableSize, EGDBDir: opts.EGDB, NoEGDB: opts.NoEGDB, NoCache: true})
	if err != nil {
		return err
	}
	defer k.Close()
	t0 := time.Now()
	checks, err := k.VerifyLine(ctx, start, line)
	if err != nil {
		if errors.Is(err, solver.ErrInterrupted) {
			return fmt.Errorf("%w: checked %d of %d moves (%v)", cmdutil.ErrInterrupted, len(checks), len(line), err)
		}
		return err
	}
	rec := record{Rule: r.Rule.String(), Pits: r.Pits, Seeds: opts.Game.Seeds, Line: opts.Line,
		Paper: engine.FormatPaper(line), Letters: engine.FormatLetters(line), Legal: parseErr == nil, Plies: checks,
		Optimal: true, Seconds: time.Since(t0).Seconds(), Provenance: results.Current()}
	if rec.Plies == nil {
		rec.Plies = []results.PlyCheck{}
	}
	if parseErr != nil {
		rec.Illegal = parseErr.Error()
	}
	for _, c := range checks {
		rec.Optimal = rec.Optimal && c.Optimal
	}
	if end, _ := r.PlayLine(start, line); end.Board.Over() {
		d := end.SouthDiff()
		rec.Over, rec.Final = true, &d
	}
	if opts.JSON {
		if err := cmdutil.PrintJSON(opts.IO.Out, rec); err != nil {
			return err
		}
	} else {
		printText(opts, rec)
	}
	if parseErr != nil {
		return cmdutil.BadInputf("illegal line: %v", parseErr)
	}
	return nil
}

func printText(opts *Options, rec record) {
	w := opts.IO.Out
	fmt.Fprintf(w, "Kalah(%d,%d), rule %s: %s\n", rec.Pits, rec.Seeds, rec.Rule, rec.Paper)
	fmt.Fprintf(w, "values: South's final store minus North's under perfect play\n")
	fmt.Fprintf(w, "%4s  %-5s  %4s  %4s  %6s  %6s  %s\n", "ply", "side", "hole", "move", "before", "after", "verdict")
	bad := 0
	for _, c := range rec.Plies {
		verdict := "optimal"
		if !c.Optimal {
			bad++
			verdict = fmt.Sprintf("NOT optimal: loses %d for %s; best %s", lossFor(c), c.Side, strings.Join(c.Best, " "))
		}
		fmt.Fprintf(w, "%4d  %-5s  %4d  %4s  %6s  %6s  %s\n", c.Ply, c.Side, c.Hole, c.Move, results.Signed(c.Before), results.Signed(c.After), verdict)
	}
	switch {
	case len(rec.Plies) == 0:
		fmt.Fprintln(w, "no moves")
	case bad == 0:
		fmt.Fprintf(w, "all %d moves optimal\n", len(rec.Plies))
	default:
		fmt.Fprintf(w, "%d of %d moves not optimal\n", bad, len(rec.Plies))
	}
	if rec.Final != nil {
		fmt.Fprintf(w, "game over: %s (%s)\n", results.Signed(*rec.Final), cmdutil.Outcome(*rec.Final))
	} else if rec.Legal {
		fmt.Fprintln(w, "the line ends before the game does")
	}
	if !rec.Legal {
		fmt.Fprintf(w, "illegal from here: %s\n", rec.Illegal)
	}
}

// lossFor is how much the move costs its mover.
func lossFor(c results.PlyCheck) int {
	if c.Side == engine.North.String() {
		return c.After - c.Before
	}
	return c.Before - c.After
}
