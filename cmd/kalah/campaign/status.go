package campaigncmd

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/kalah-solver/kalah/campaign"
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/results"
	"github.com/spf13/cobra"
)

// NamedOptions are the inputs of status, result and stop.
type NamedOptions struct {
	IO   *cmdutil.IOStreams
	Name string
	Conn connFlags
	JSON bool
}

func named(io *cmdutil.IOStreams, use, short, long, example string, json bool, run func(context.Context, *NamedOptions, *campaign.Conn) error) *cobra.Command {
	opts := &NamedOptions{IO: io}
	cmd := &cobra.Command{
		Use: use, Short: short, Long: long, Example: example,
		Args: nameArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = args[0]
			ctx := bg(cmd.Context())
			c, closeConn, err := opts.Conn.open(ctx)
			if err != nil {
				return err
			}
			defer closeConn()
			return inputError(run(ctx, opts, c))
		},
	}
	opts.Conn.add(cmd)
	if json {
		cmd.Flags().BoolVar(&opts.JSON, "json", false, "print one JSON object")
	}
	return cmd
}

// NewCmdStatus returns "campaign status".
func NewCmdStatus(io *cmdutil.IOStreams) *cobra.Command {
	return named(io, "status NAME", "Show a campaign's progress: units, nodes, proven bounds",
		`Show a campaign's state (running, stopped, done), the proven bounds on
the root's value and on every root move's, the units issued, done,
pending on the queue, in flight (held by workers), cancelled and
redelivered, rejected results, the cross-checks (issued, agreed,
disagreed, undone, their nodes, bounds crossed; 'kalah campaign start
--verify-share')
and the workers quarantined by them, nodes, time, what a worker node costs
(peeks, table probes, database answers a node), the rate (units and nodes a
second over the last minute or more, enough to hold 8 answers), an ETA,
the campaign's signature (build and endgame database depth), a row for
every worker that answered (its identity, name@host:pid, and build; its
units, checks and nodes; when it was last heard from; how many of its
answers were checked and refused; whether it is quarantined), and
every worker that refuses the campaign's units (another build or
database depth) with its reason. The coordinator writes the status every
2 s.

The ETA is an estimate of one thing only: the time to drain the units
out now (queued and held) at the recent rate. The campaign's remaining
units are not known in advance (each answer lets the coordinator issue
the next ones), so the campaign ends later than that; the ETA is
"unknown" when there is no rate, no unit out, or no coordinator running.`,
		`  kalah campaign status k63
  kalah campaign status k64-ec --nats nats://10.0.0.1:4222 --json`, true,
		func(ctx context.Context, opts *NamedOptions, c *campaign.Conn) error {
			st, err := campaign.Info(ctx, c, opts.Name)
			if err != nil {
				return err
			}
			if opts.JSON {
				return cmdutil.PrintJSON(opts.IO.Out, st)
			}
			w := opts.IO.Out
			fmt.Fprintf(w, "campaign %s: %s, Kalah(%d) %s, position %s %s to move (split %d)\n", st.Name, st.State, st.Pits, st.Rule, st.Position, st.ToMove, st.Split)
			fmt.Fprintf(w, "signature: build %q, endgame database %s (workers that differ refuse its units; answers that differ are rejected)\n", st.Build, depthText(st.EGDBSeeds))
			if len(st.Moves) > 0 {
				fmt.Fprintf(w, "value in [%s, %s]; moves:", results.Signed(st.Lower), results.Signed(st.Upper))
				for _, m := range st.Moves {
					if m.Lower == m.Upper {
						fmt.Fprintf(w, " %s %s", m.Move, results.Signed(m.Lower))
					} else {
						fmt.Fprintf(w, " %s [%s, %s]", m.Move, results.Signed(m.Lower), results.Signed(m.Upper))
					}
				}
				fmt.Fprintln(w)
			}
			fmt.Fprintf(w, "units: %d issued, %d done, %d queued, %d running (held by workers), %d cancelled, %d redelivered, %d recovered; results rejected: %d untrusted, %d of another signature; %d repeated deliveries; %d local tests\n",
				st.Issued, st.Done, st.Pending, st.InFlight, st.Cancelled, st.Redelivered, st.Recovered, st.Rejected, st.Mismatched, st.Repeated, st.Local)
			if st.Affine > 0 {
				fmt.Fprintf(w, "affinity: %d answers to units sent first to the worker that answered their board's last test, %d of them by that worker\n", st.Affine, st.AffineKept)
			}
			if st.Stalled > 0 {
				fmt.Fprintf(w, "STALLED: %d units wait, and no worker that may take them (not quarantined) has answered or sent a heartbeat for a minute: start a worker ('kalah worker')\n", st.Stalled)
			}
			avg := 0.0
			if st.Seconds > 0 {
				avg = float64(st.Nodes) / st.Seconds / 1e6
			}
			fmt.Fprintf(w, "nodes %s, %.1f s wall over %d runs, %.1f worker-s, %.2f M nodes/s on average\n", results.Group(st.Nodes), st.Seconds, st.Runs, st.CPUSeconds, avg)
			fmt.Fprintf(w, "coordinator: %s nodes of its own (guesses, small boards, the line); shared table: %s entries found by the workers\n",
				results.Group(st.CoordinatorNodes), results.Group(st.SharedHits))
			if n := float64(st.Stats.Nodes); n > 0 {
				fmt.Fprintf(w, "a worker node: %.2f peeks, %.2f table probes (%.2f hits), %.2f database answers, %.2f peek and %.2f search cut-offs\n",
					float64(st.Stats.Peeks)/n, float64(st.Stats.TTProbes)/n, float64(st.Stats.TTHits)/n, float64(st.Stats.DBHits)/n,
					float64(st.Stats.CutPeek)/n, float64(st.Stats.CutSearch)/n)
			}
			if st.RateWindow > 0 {
				fmt.Fprintf(w, "rate: %.3g units/s, %.2f M nodes/s over the last %.0f s\n", st.UnitsPerSecond, st.NodesPerSecond/1e6, st.RateWindow)
			} else {
				fmt.Fprintln(w, "rate: none yet")
			}
			if st.ETA != nil {
				fmt.Fprintf(w, "ETA: %s (%s)\n", (time.Duration(*st.ETA) * time.Second).String(), st.ETABasis)
			} else {
				fmt.Fprintf(w, "ETA: %s\n", st.ETABasis)
			}
			if st.VerifyShare > 0 || st.ChecksIssued > 0 {
				fmt.Fprintf(w, "checks (share %.3g): %d issued, %d agreed, %d disagreed (a third test each), %d undone; %s nodes (%.1f %% of the workers'); %d crossed bounds; %d answers of quarantined workers refused; %d search restarts\n",
					st.VerifyShare, st.ChecksIssued, st.ChecksAgreed, st.ChecksDisagreed, st.ChecksUndone, results.Group(st.CheckNodes),
					100*float64(st.CheckNodes)/float64(max(st.Nodes-st.CheckNodes, 1)), st.BoundsCrossed, st.RefusedResults, st.SearchRestarts)
			} else {
				fmt.Fprintln(w, "checks: none (verify share 0)")
			}
			for _, q := range st.Quarantined {
				fmt.Fprintf(w, "QUARANTINED worker %s (build %q) at %s, after %d units, %d answers deleted: %s\n",
					q.Worker.ID(), q.Worker.Build, q.Time, q.UnitsDone, q.Purged, q.Reason)
			}
			now := time.Now()
			for _, wk := range st.Workers {
				heard := "never"
				if t, err := time.Parse(time.RFC3339, wk.LastHeard); err == nil {
					heard = now.Sub(t).Round(time.Second).String() + " ago"
				}
				q := ""
				if wk.Quarantined {
					q = ", QUARANTINED"
				}
				fmt.Fprintf(w, "  worker %s: %d units, %d checks, %s nodes, %.1f s, last heard %s, %d answers checked, %d refused%s; %d threads, database %s, build %q\n",
					wk.ID(), wk.Units, wk.Checks, results.Group(wk.Nodes), wk.Seconds, heard, wk.Checked, wk.Refused, q, wk.Threads, depthText(wk.EGDBSeeds), wk.Build)
			}
			for _, r := range st.Refused {
				fmt.Fprintf(w, "  worker %s refuses the campaign's units (%s): %s\n", r.Worker, r.Time, r.Reason)
			}
			return nil
		})
}

// NewCmdResult returns "campaign result".
func NewCmdResult(io *cmdutil.IOStreams) *cobra.Command {
	return named(io, "result NAME", "Print a finished campaign's record ('kalah solve' shape)",
		`Print a finished campaign's record: value, every root move's value, best
moves, a principal variation, nodes over all workers and how it was made;
with --json the object 'kalah solve --json' prints. A campaign not
finished yet is an error (exit 1); see 'kalah campaign status'.`,
		`  kalah campaign result k63 --json`, true,
		func(ctx context.Context, opts *NamedOptions, c *campaign.Conn) error {
			if _, err := campaign.LoadParams(ctx, c, opts.Name); err != nil {
				return err
			}
			rec, err := campaign.LoadRecord(ctx, c, opts.Name)
			if err != nil {
				if errors.Is(err, campaign.ErrNotDone) {
					return fmt.Errorf("%w (see 'kalah campaign status %s')", err, opts.Name)
				}
				return err
			}
			st, _ := campaign.LoadStatus(ctx, c, opts.Name)
			return printRecordStatus(opts.IO, rec, st, opts.JSON)
		})
}

// NewCmdRecord returns "campaign record".
func NewCmdRecord(io *cmdutil.IOStreams) *cobra.Command {
	dir := results.DefaultDir
	cmd := named(io, "record NAME", "Write what a campaign has proven to the results archive",
		`Write a campaign's results to the results archive (--results, default
results/data, the files 'kalah sweep' and 'kalah report' use): a finished
campaign's complete record into <rule>.jsonl; a campaign still running or
stopped as an open cell in open.jsonl, with the bounds proven on the
value and on each first move, its nodes and time over all its runs, and
how it was made. Recording the same campaign again replaces its counts
and keeps the tighter bounds, so it can be run as often as wanted while
the campaign goes on. A cell the archive has solved already is not
written: the campaign's bounds are checked against its record instead (a
contradiction is an error); nor is a campaign that has proven nothing
yet. Only campaigns of a start position (--pits and --seeds) are recorded,
and only by the build that computes them (the record's provenance names
it); anything else is an error (exit 1).`,
		`  kalah campaign record k66e
  kalah campaign record k66e --results /tmp/results \
      --nats nats://10.0.0.1:4222`, false,
		func(ctx context.Context, opts *NamedOptions, c *campaign.Conn) error {
			o, err := campaign.Record(ctx, c, opts.Name, results.Archive{Dir: dir})
			if errors.Is(err, campaign.ErrSolved) {
				fmt.Fprintf(opts.IO.Out, "campaign %s: %v\n", opts.Name, err)
				return nil
			}
			if err != nil {
				return err
			}
			if o == nil {
				fmt.Fprintf(opts.IO.Out, "campaign %s: complete record written to %s\n", opts.Name, dir)
				return nil
			}
			fmt.Fprintf(opts.IO.Out, "campaign %s: %s open, value %s", opts.Name, o.Name(), o.Bounds())
			for _, m := range o.Moves {
				fmt.Fprintf(opts.IO.Out, "; %s %s", m.Move, o.MoveText(m))
			}
			fmt.Fprintf(opts.IO.Out, " (written to %s)\n", results.Archive{Dir: dir}.OpenPath())
			return nil
		})
	cmd.Flags().StringVar(&dir, "results", dir, "results directory (one <rule>.jsonl per rule, open.jsonl)")
	return cmd
}

// NewCmdStop returns "campaign stop".
func NewCmdStop(io *cmdutil.IOStreams) *cobra.Command {
	return named(io, "stop NAME", "Stop a campaign: end its coordinator, remove its queued units",
		`Stop a running campaign: its coordinator ends within 2 s and the units
still queued are removed (units held by workers are finished). Everything
proven stays in the results bucket; 'kalah campaign start NAME' with the
same parameters goes on from there.`,
		`  kalah campaign stop k64-ec --nats nats://10.0.0.1:4222`, false,
		func(ctx context.Context, opts *NamedOptions, c *campaign.Conn) error {
			if err := campaign.Stop(ctx, c, opts.Name); err != nil {
				return err
			}
			fmt.Fprintf(opts.IO.ErrOut, "campaign %s: stop requested\n", opts.Name)
			return nil
		})
}
