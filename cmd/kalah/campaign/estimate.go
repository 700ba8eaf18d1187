package campaigncmd

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/kalah-solver/kalah/campaign"
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/results"
	"github.com/spf13/cobra"
)

// EstimateOptions are the inputs of one "kalah campaign estimate".
type EstimateOptions struct {
	IO            *cmdutil.IOStreams
	Game          cmdutil.GameFlags
	Split         int
	LocalSeeds    int
	Budget        time.Duration
	Threads       int
	TableSize     string
	EGDB          string
	NoEGDB        bool
	TestsPerBoard float64
	Seed          uint64
	JSON          bool
}

// NewCmdEstimate returns "campaign estimate".
func NewCmdEstimate(io *cmdutil.IOStreams) *cobra.Command {
	opts := &EstimateOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "estimate",
		Short: "Estimate a campaign's units and nodes from a sample of its units",
		Long: `Estimate what a campaign would cost, on this machine, without a server:
walk the coordinator's split (--split plies below each root move) to the
boards its units would test, run the null-window tests of a random sample
of them (the first MTD(f) step's, at the depth-limited guess) with a local
solver for --budget, and extrapolate:

  units = frontier boards x tests per board (--tests-per-board; by
          default the units issued per frontier board measured on
          Kalah(6,3)-(6,5) campaigns at the same split: 16, 2.8, 0.70,
          0.33 and 0.13 at splits 0-4; the deeper the split, the more of
          the frontier the coordinator's pruning never reaches)
  nodes = units x the sample's mean nodes per unit

and CPU-days at the sample's rate per search thread. Everything the
estimate rests on is printed with it (--json: one object). A sample test
that the budget stops counts with the nodes it had searched, and the
estimate is then marked as a lower one. Unit costs are skewed (a few
units hold most of the nodes) and the sample is small: the estimate is
an order of magnitude.`,
		Example: `  kalah campaign estimate --pits 6 --seeds 4 --budget 60s
  kalah campaign estimate --pits 6 --seeds 6 --rule empty-capture --budget 10m \
      --threads 2 --json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := opts.Game.CheckConflicts(cmd.Flags().Changed); err != nil {
				return err
			}
			switch {
			case opts.NoEGDB && opts.EGDB != "":
				return cmdutil.BadInputf("--egdb and --no-egdb contradict each other")
			case opts.Split < 0 || opts.Split > 4:
				return cmdutil.BadInputf("--split must be 0..4, got %d", opts.Split)
			case opts.Budget <= 0:
				return cmdutil.BadInputf("--budget must be positive, got %v", opts.Budget)
			case opts.Threads < 0:
				return cmdutil.BadInputf("--threads must be at least 1, got %d", opts.Threads)
			case opts.TestsPerBoard < 0:
				return cmdutil.BadInputf("--tests-per-board must be positive, got %g", opts.TestsPerBoard)
			}
			return runEstimate(cmd.Context(), opts)
		},
	}
	cmdutil.AddGameFlags(cmd, &opts.Game, true)
	f := cmd.Flags()
	f.IntVar(&opts.Split, "split", 1, "plies below each root move at which the campaign would ship units")
	f.IntVar(&opts.LocalSeeds, "local-seeds", 12, "boards with at most this many seeds are the coordinator's, not units")
	f.DurationVar(&opts.Budget, "budget", time.Minute, "wall time of the sample")
	f.IntVar(&opts.Threads, "threads", 1, "search threads of the local solver")
	f.StringVar(&opts.TableSize, "table-size", "", "table size of the local solver (default: by the position's pits, seeds and the endgame database's depth, at most a quarter of memory or 1 GiB)")
	cmdutil.DeprecatedAlias(cmd, "tt-mem", "table-size")
	f.StringVar(&opts.EGDB, "egdb", "", "endgame-database directory (default: the installed one, if any)")
	f.BoolVar(&opts.NoEGDB, "no-egdb", false, "use no endgame database")
	f.Float64Var(&opts.TestsPerBoard, "tests-per-board", 0, "units the coordinator issues per frontier board (assumed; 0: the one measured at --split)")
	f.Uint64Var(&opts.Seed, "seed", 1, "seed of the sample's random order")
	f.BoolVar(&opts.JSON, "json", false, "print one JSON object")
	return cmd
}

func runEstimate(ctx context.Context, opts *EstimateOptions) error {
	p, _, pos, seeds, err := gameParams("estimate", &opts.Game, opts.Split, opts.LocalSeeds)
	if err != nil {
		return err
	}
	cfg := campaign.EstimateConfig{Budget: opts.Budget, Threads: opts.Threads, EGDBDir: opts.EGDB, NoEGDB: opts.NoEGDB,
		TestsPerBoard: opts.TestsPerBoard, Seed: opts.Seed}
	if opts.TableSize != "" {
		if cfg.TableSize, err = cmdutil.ParseBytes(opts.TableSize); err != nil {
			return cmdutil.BadInputf("--table-size: %v", err)
		}
	}
	ctx, stop := signal.NotifyContext(bg(ctx), os.Interrupt, syscall.SIGTERM)
	defer stop()
	e, err := campaign.RunEstimate(ctx, p, cfg)
	if err != nil {
		if ctx.Err() != nil {
			return cmdutil.ErrInterrupted
		}
		return err
	}
	if opts.JSON {
		return cmdutil.PrintJSON(opts.IO.Out, e)
	}
	w := opts.IO.Out
	fmt.Fprintf(w, "estimate for %s, rule %s, position %s %s to move, split %d, local seeds %d\n",
		cmdutil.GameName(pos, seeds, seeds > 0), e.Rule, e.Position, e.ToMove, e.Split, e.LocalSeeds)
	fmt.Fprintf(w, "frontier: %d boards %d plies below the root, %d of them the coordinator's (at most %d seeds)\n",
		e.Frontier, e.Split+1, e.FrontierLocal, e.LocalSeeds)
	fmt.Fprintf(w, "sample: %d unit tests (%d finished) in %.1f s: mean %s nodes, median %s, %.2f M nodes/s\n",
		e.Sampled, e.Finished, e.SampleSeconds, results.Group(int64(e.MeanNodes)), results.Group(e.MedianNodes), e.NodesPerSec/1e6)
	fmt.Fprintf(w, "units: %.0f (%d boards x %.2g tests per board, assumed)\n", e.Units, e.Frontier-e.FrontierLocal, e.TestsPerBoard)
	fmt.Fprintf(w, "nodes: %.3g, %.3g CPU-days at the sample's rate\n", e.Nodes, e.CPUDays)
	fmt.Fprintf(w, "basis: %s\n", e.Basis)
	return nil
}
