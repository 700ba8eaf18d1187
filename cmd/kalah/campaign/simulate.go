package campaigncmd

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/kalah-solver/kalah/campaign"
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/results"
	"github.com/spf13/cobra"
)

// SimulateOptions are the inputs of one "kalah campaign simulate".
type SimulateOptions struct {
	IO      *cmdutil.IOStreams
	Name    string
	Conn    connFlags
	Workers string
	Rate    float64
	Cores   int
	JSON    bool
	// Estimate: a 'kalah campaign estimate --json' file whose sample
	// costs replace the recorded units' (campaign.Project); Draws: how
	// many times.
	Estimate string
	Draws    int
	Seed     uint64
}

// projectOutput is what --json prints with --estimate.
type projectOutput struct {
	Campaign string            `json:"campaign"`
	Estimate campaign.Estimate `json:"estimate"`
	campaign.Projection
}

// simulateOutput is what --json prints.
type simulateOutput struct {
	Campaign string `json:"campaign"`
	campaign.Simulation
}

// NewCmdSimulate returns "campaign simulate".
func NewCmdSimulate(io *cmdutil.IOStreams) *cobra.Command {
	opts := &SimulateOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "simulate NAME",
		Short: "Replay a campaign's recorded unit tree on more or fewer workers",
		Long: `Replay the unit tree a campaign recorded (every answered unit's issue
and answer times, nodes, worker seconds, the split test that asked for it
and the answer that led to its issue) on each count of --workers, and
print the predicted wall time, the efficiency (the workers' busy share)
and the idle share.

A unit is issued once the answer that led to its issue is in, after the
coordinator's recorded lag; it takes its recorded seconds (or its nodes
at --nodes-per-second, a worker's rate on other machines) plus the
transport's delay measured in the recorded run; ready units go to free
workers in the order of their readiness. With --cores N the workers share
N cores: while more units run than there are cores, each runs that much
slower. The coordinator's own work
without a unit out (its guesses before the first unit, its line after the
last answer) is left out of the model and of the recorded wall time shown
beside it. The tree is the one this run's order of answers produced: more
workers would also speculate on other brothers, so the prediction is of
this tree.

With --estimate FILE (the --json output of 'kalah campaign estimate' of
a campaign not run, at the same pits and split) the recorded tree is
replayed --draws times with the estimate's costs: each draw resamples the
estimate's sample tests with replacement and gives every unit the nodes of
one of them at random, scaled so that the draws' mean work is the
estimate's nodes, at the estimate's rate (one worker's when the estimate
ran with --threads 1) or --nodes-per-second. It prints the median wall
time and the 10th to 90th percentile of the draws: the uncertainty of
the sample, not of the estimate's assumed tests per board.`,
		Example: `  kalah campaign simulate k64 --workers 1,2,4,16,64,512
  kalah campaign simulate k66e --nats nats://10.0.0.1:4222 \
      --nodes-per-second 3e6 --json
  kalah campaign estimate --pits 6 --seeds 6 --threads 1 --json > e66.json
  kalah campaign simulate k64 --estimate e66.json --workers 64,512`,
		Args: nameArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = args[0]
			if opts.Rate < 0 {
				return cmdutil.BadInputf("--nodes-per-second must be 0 (the recorded seconds) or a rate, got %g", opts.Rate)
			}
			if _, err := parseWorkers(opts.Workers); err != nil {
				return err
			}
			if opts.Cores < 0 {
				return cmdutil.BadInputf("--cores must be 0 (a core for each worker) or a count of cores, got %d", opts.Cores)
			}
			if opts.Draws < 1 || opts.Draws > 100000 {
				return cmdutil.BadInputf("--draws must be from 1 to 100000, got %d", opts.Draws)
			}
			return inputError(runSimulate(bg(cmd.Context()), opts))
		},
	}
	opts.Conn.add(cmd)
	f := cmd.Flags()
	f.StringVar(&opts.Workers, "workers", "1,2,4,16,64,512", "comma-separated counts of workers to simulate")
	f.Float64Var(&opts.Rate, "nodes-per-second", 0, "one worker's rate to replay every unit at (0: each unit's recorded seconds)")
	f.IntVar(&opts.Cores, "cores", 0, "cores the simulated workers share (0: a core for each worker)")
	f.BoolVar(&opts.JSON, "json", false, "print one JSON object")
	f.StringVar(&opts.Estimate, "estimate", "", "replay with the unit costs of this 'campaign estimate --json' file")
	f.IntVar(&opts.Draws, "draws", 200, "with --estimate: how many draws of the costs")
	f.Uint64Var(&opts.Seed, "seed", 1, "with --estimate: the draws' seed")
	return cmd
}

func parseWorkers(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 1<<20 {
			return nil, cmdutil.BadInputf("--workers %q: want counts of workers from 1 up, separated by commas", s)
		}
		out = append(out, n)
	}
	return out, nil
}

func runSimulate(ctx context.Context, opts *SimulateOptions) error {
	workers, err := parseWorkers(opts.Workers)
	if err != nil {
		return err
	}
	c, closeConn, err := opts.Conn.open(ctx)
	if err != nil {
		return err
	}
	defer closeConn()
	traces, err := campaign.LoadTraces(ctx, c, opts.Name)
	if err != nil {
		return err
	}
	if opts.Estimate != "" {
		return runProject(ctx, opts, c, traces, workers)
	}
	sim := campaign.SimulateOnCores(traces, workers, opts.Rate, opts.Cores)
	if opts.JSON {
		return cmdutil.PrintJSON(opts.IO.Out, simulateOutput{Campaign: opts.Name, Simulation: sim})
	}
	w := opts.IO.Out
	rate := "each unit at its recorded seconds"
	if sim.Rate > 0 {
		rate = fmt.Sprintf("%.3g nodes a second a worker", sim.Rate)
	}
	rate += shared(sim.Cores)
	fmt.Fprintf(w, "campaign %s: %d units, %s nodes; recorded %.1f s on %d workers (first issue to last answer); replayed at %s, %.3f s transport delay a unit\n",
		opts.Name, sim.Units, results.Group(sim.Nodes), sim.Recorded, sim.RecordedWorkers, rate, sim.Delay)
	fmt.Fprintf(w, "%8s %12s %10s %6s\n", "workers", "wall s", "efficiency", "idle")
	for _, p := range sim.Predictions {
		fmt.Fprintf(w, "%8d %12.1f %9.1f%% %5.1f%%\n", p.Workers, p.Seconds, 100*p.Efficiency, 100*p.Idle)
	}
	return nil
}

// runProject replays the campaign's tree with an estimate's costs.
func runProject(ctx context.Context, opts *SimulateOptions, c *campaign.Conn, traces []campaign.Trace, workers []int) error {
	data, err := os.ReadFile(opts.Estimate)
	if err != nil {
		return cmdutil.BadInput(err)
	}
	var e campaign.Estimate
	if err := json.Unmarshal(data, &e); err != nil || e.Pits == 0 {
		return cmdutil.BadInputf("%s is not the --json output of 'kalah campaign estimate' (%v)", opts.Estimate, err)
	}
	p, err := campaign.LoadParams(ctx, c, opts.Name)
	if err != nil {
		return err
	}
	if p.Pits != e.Pits || p.Split != e.Split {
		return cmdutil.BadInputf("campaign %s has %d pits and split %d, the estimate %d and %d: the tree is a template only at the same pits and split",
			opts.Name, p.Pits, p.Split, e.Pits, e.Split)
	}
	rate := e.NodesPerSec
	if opts.Rate > 0 {
		rate = opts.Rate
	}
	pr, err := campaign.Project(traces, e.SampleNodes, e.Units, rate, workers, opts.Cores, opts.Draws, opts.Seed)
	if err != nil {
		return cmdutil.BadInput(err)
	}
	if opts.JSON {
		return cmdutil.PrintJSON(opts.IO.Out, projectOutput{Campaign: opts.Name, Estimate: e, Projection: pr})
	}
	w := opts.IO.Out
	fmt.Fprintf(w, "campaign %s's tree (%d units) with the costs of Kalah(%d) %s at %d seeds (estimate: %.0f units, %.3g nodes; %d sample tests), each unit x %.3g, at %.3g nodes a second a worker%s, %d draws\n",
		opts.Name, pr.Units, e.Pits, e.Rule, e.Seeds, e.Units, e.Nodes, pr.Sample, pr.Scale, rate, shared(pr.Cores), pr.Draws)
	fmt.Fprintf(w, "%8s %12s %23s %10s\n", "workers", "wall s", "10th-90th percentile s", "efficiency")
	for _, s := range pr.Predictions {
		fmt.Fprintf(w, "%8d %12.4g %23s %9.1f%%\n", s.Workers, s.Seconds, fmt.Sprintf("%.4g-%.4g", s.Low, s.High), 100*s.Efficiency)
	}
	return nil
}

// shared names the cores simulated workers share ("" for a core each).
func shared(cores int) string {
	if cores > 0 {
		return fmt.Sprintf(", the workers sharing %d cores", cores)
	}
	return ""
}
