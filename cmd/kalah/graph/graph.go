// Package graphcmd implements "kalah graph": build the complete game graph
// of a small Kalah(m,n) and print its size, branching factor and the share
// of won, lost and drawn positions (the paper's Tables 3, 4 and 5).
package graphcmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/graph"
	"github.com/kalah-solver/kalah/results"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
)

// Options are the inputs of one "kalah graph".
type Options struct {
	IO           *cmdutil.IOStreams
	Game         cmdutil.GameFlags
	MaxPositions int64
	JSON         bool
	Save         bool
	Data         string
	Quiet        bool
}

// DefaultMaxPositions bounds the graph at about 4 GiB of table.
const DefaultMaxPositions = 64 << 20

// NewCmdGraph returns the graph command.
func NewCmdGraph(io *cmdutil.IOStreams) *cobra.Command {
	opts := &Options{IO: io}
	cmd := &cobra.Command{
		Use:   "graph",
		Short: "Build the complete game graph of a small Kalah(m,n)",
		Long: `Build the complete game graph of Kalah(--pits, --seeds): every position
reachable from the start, a position being both sides' pits, both stores and
the side to move (finished games, swept, included). Prints the number of
positions (Irving, Donkers & Uiterwijk 2000, Table 3), the mean number of
legal moves with its standard deviation over the unfinished positions
(Table 4), and the share of the unfinished positions won, lost and drawn for
the side to move under perfect play (Table 5).

Values are computed over the graph itself, by a memoized depth-first walk
from the finished games up (the graph has no cycles), independently of the
solver. The table holds every position (32 to 64 bytes each); the walk
stops with an error when the graph exceeds --max-positions. --save merges
the figures into <data>/graph.jsonl, which 'kalah report' reads.`,
		Example: `  kalah graph --pits 4 --seeds 3 --rule empty-capture
  kalah graph --pits 3 --seeds 4 --rule no-empty-capture --json
  kalah graph --pits 4 --seeds 3 --rule empty-capture --save`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return run(opts) },
	}
	cmdutil.AddGameFlags(cmd, &opts.Game, false)
	cmd.Flags().Int64Var(&opts.MaxPositions, "max-positions", DefaultMaxPositions, "stop when the graph has more positions than this")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print one JSON object instead of text")
	cmd.Flags().BoolVar(&opts.Save, "save", false, "merge the figures into <data>/graph.jsonl")
	cmd.Flags().StringVar(&opts.Data, "data", results.DefaultDir, "results directory (for --save)")
	cmd.Flags().BoolVarP(&opts.Quiet, "quiet", "q", false, "no progress indicator")
	return cmd
}

func run(opts *Options) error {
	r, _, _, err := opts.Game.Resolve()
	if err != nil {
		return err
	}
	if r.Pits > graph.MaxPits {
		return cmdutil.BadInputf("--pits %d: game graphs are limited to %d pits (and far smaller games in practice)", r.Pits, graph.MaxPits)
	}
	if opts.MaxPositions < 1 {
		return cmdutil.BadInputf("--max-positions must be positive, got %d", opts.MaxPositions)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	gopts := graph.Options{MaxPositions: opts.MaxPositions, ProgressEvery: 1 << 18}
	var bar *progressbar.ProgressBar
	if !opts.Quiet {
		bar = progressbar.NewOptions64(-1,
			progressbar.OptionSetWriter(opts.IO.ErrOut),
			progressbar.OptionSetDescription(fmt.Sprintf("Kalah(%d,%d) %s: positions", r.Pits, opts.Game.Seeds, r.Rule)),
			progressbar.OptionShowCount(),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionSpinnerType(14),
		)
		gopts.Progress = func(n int64) { bar.Set64(n) }
	}
	st, err := graph.Walk(ctx, r, opts.Game.Seeds, gopts)
	if bar != nil {
		bar.Finish()
		fmt.Fprintln(opts.IO.ErrOut)
	}
	switch {
	case errors.Is(err, graph.ErrTooBig):
		return err
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("%w: nothing saved", cmdutil.ErrInterrupted)
	case err != nil:
		return err
	}
	g := results.NewGraphRecord(*st)
	if opts.Save {
		if err := (results.Archive{Dir: opts.Data}).PutGraph(g); err != nil {
			return err
		}
	}
	if opts.JSON {
		return cmdutil.PrintJSON(opts.IO.Out, g)
	}
	w := opts.IO.Out
	inner := float64(g.Positions - g.Terminal)
	fmt.Fprintf(w, "game graph of %s\n", g.Name())
	fmt.Fprintf(w, "positions      %d (%d unfinished, %d finished games)\n", g.Positions, g.Positions-g.Terminal, g.Terminal)
	fmt.Fprintf(w, "moves          %d\n", g.Moves)
	fmt.Fprintf(w, "branching      %.3f mean, %.3f standard deviation (legal moves of the unfinished positions)\n", g.BranchMean, g.BranchSD)
	fmt.Fprintf(w, "side to move   wins %.2f%%, loses %.2f%%, draws %.2f%% of the unfinished positions\n",
		100*float64(g.Won)/inner, 100*float64(g.Lost)/inner, 100*float64(g.Drawn)/inner)
	fmt.Fprintf(w, "start value    %s (South's store minus North's, perfect play)\n", results.Signed(g.StartValue))
	fmt.Fprintf(w, "time           %.3f s\n", g.Seconds)
	if opts.Save {
		fmt.Fprintf(w, "saved to %s\n", (results.Archive{Dir: opts.Data}).GraphPath())
	}
	return nil
}
