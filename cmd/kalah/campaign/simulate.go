package campaigncmd

import (
	"context"
	"fmt"
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
	JSON    bool
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
workers in the order of their readiness. The coordinator's own work
without a unit out (its guesses before the first unit, its line after the
last answer) is left out of the model and of the recorded wall time shown
beside it. The tree is the one this run's order of answers produced: more
workers would also speculate on other brothers, so the prediction is of
this tree.`,
		Example: `  kalah campaign simulate k64 --workers 1,2,4,16,64,512
  kalah campaign simulate k66e --nats nats://10.0.0.1:4222 \
      --nodes-per-second 3e6 --json`,
		Args: nameArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = args[0]
			if opts.Rate < 0 {
				return cmdutil.BadInputf("--nodes-per-second must be 0 (the recorded seconds) or a rate, got %g", opts.Rate)
			}
			if _, err := parseWorkers(opts.Workers); err != nil {
				return err
			}
			return inputError(runSimulate(bg(cmd.Context()), opts))
		},
	}
	opts.Conn.add(cmd)
	f := cmd.Flags()
	f.StringVar(&opts.Workers, "workers", "1,2,4,16,64,512", "comma-separated counts of workers to simulate")
	f.Float64Var(&opts.Rate, "nodes-per-second", 0, "one worker's rate to replay every unit at (0: each unit's recorded seconds)")
	f.BoolVar(&opts.JSON, "json", false, "print one JSON object")
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
	sim := campaign.Simulate(traces, workers, opts.Rate)
	if opts.JSON {
		return cmdutil.PrintJSON(opts.IO.Out, simulateOutput{Campaign: opts.Name, Simulation: sim})
	}
	w := opts.IO.Out
	rate := "each unit at its recorded seconds"
	if sim.Rate > 0 {
		rate = fmt.Sprintf("%.3g nodes a second a worker", sim.Rate)
	}
	fmt.Fprintf(w, "campaign %s: %d units, %s nodes; recorded %.1f s on %d workers (first issue to last answer); replayed at %s, %.3f s transport delay a unit\n",
		opts.Name, sim.Units, results.Group(sim.Nodes), sim.Recorded, sim.RecordedWorkers, rate, sim.Delay)
	fmt.Fprintf(w, "%8s %12s %10s %6s\n", "workers", "wall s", "efficiency", "idle")
	for _, p := range sim.Predictions {
		fmt.Fprintf(w, "%8d %12.1f %9.1f%% %5.1f%%\n", p.Workers, p.Seconds, 100*p.Efficiency, 100*p.Idle)
	}
	return nil
}
