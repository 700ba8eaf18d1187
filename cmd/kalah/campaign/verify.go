package campaigncmd

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/campaign"
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/results"
	"github.com/spf13/cobra"
)

// VerifyOptions are the inputs of one "kalah campaign verify".
type VerifyOptions struct {
	IO        *cmdutil.IOStreams
	Name      string
	Conn      connFlags
	Sample    int
	Seed      uint64
	Threads   int
	TableSize string
	EGDB      string
	NoEGDB    bool
	JSON      bool
}

// ErrDisagree is returned when a re-solved answer disagrees (exit 1).
var ErrDisagree = errors.New("answers disagree with this machine's solve")

// NewCmdVerify returns "campaign verify".
func NewCmdVerify(io *cmdutil.IOStreams) *cobra.Command {
	opts := &VerifyOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "verify NAME",
		Short: "Re-solve a sample of a campaign's answers here and compare",
		Long: `Re-solve --sample of the campaign's answered units (chosen at random by
--seed; 0: all of them) with a session on this machine, and compare. Each
answer is a claim, "value >= v" when its test failed high and "value <=
v" when it failed low; the local test is the one that covers the claim
(at v, or at v+1), as the campaign's own cross-checks do ('kalah campaign
start --verify-share'). Only answers of the campaign's signature (build,
rule, database depth) are sampled; this machine's database may have any
depth, the values do not depend on it.

Prints a line for every answer that disagrees, naming the worker that
gave it (name@host:pid and build), and a summary: answers in the
bucket, sampled, agreeing, disagreeing, nodes and time; --json prints
one object with every unit re-solved. Exit 1 when any answer disagrees.
The campaign may be running or finished.`,
		Example: `  kalah campaign verify k64 --sample 50
  kalah campaign verify k66e --nats nats://10.0.0.1:4222 --sample 5 \
      --threads 8 --json`,
		Args: nameArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = args[0]
			switch {
			case opts.Sample < 0:
				return cmdutil.BadInputf("--sample must be 0 (all) or a count, got %d", opts.Sample)
			case opts.Threads < 0:
				return cmdutil.BadInputf("--threads must be 0 (all cores) or a count, got %d", opts.Threads)
			case opts.NoEGDB && opts.EGDB != "":
				return cmdutil.BadInputf("--egdb and --no-egdb contradict each other")
			}
			if !cmd.Flags().Changed("seed") {
				opts.Seed = uint64(time.Now().UnixNano())
			}
			return inputError(runVerify(bg(cmd.Context()), opts))
		},
	}
	opts.Conn.add(cmd)
	f := cmd.Flags()
	f.IntVar(&opts.Sample, "sample", 20, "answered units to re-solve (0: all)")
	f.Uint64Var(&opts.Seed, "seed", 0, "seed of the sample's random choice (default: from the clock)")
	f.IntVar(&opts.Threads, "threads", 1, "search threads of the local session (0: all cores)")
	f.StringVar(&opts.TableSize, "table-size", "", "table size of the local session (default: "+cmdutil.TableSizeDefault+")")
	f.StringVar(&opts.EGDB, "egdb", "", "endgame-database directory (default: the installed one, if any)")
	f.BoolVar(&opts.NoEGDB, "no-egdb", false, "use no endgame database")
	f.BoolVar(&opts.JSON, "json", false, "print one JSON object")
	return cmd
}

func runVerify(ctx context.Context, opts *VerifyOptions) error {
	var tb int64
	if opts.TableSize != "" {
		var err error
		if tb, err = cmdutil.ParseBytes(opts.TableSize); err != nil {
			return cmdutil.BadInputf("--table-size: %v", err)
		}
	}
	c, closeConn, err := opts.Conn.open(ctx)
	if err != nil {
		return err
	}
	defer closeConn()
	p, err := campaign.LoadParams(ctx, c, opts.Name)
	if err != nil {
		return err
	}
	rule, err := engine.ParseRule(p.Rule)
	if err != nil {
		return err
	}
	side, err := engine.ParseSide(p.ToMove)
	if err != nil {
		return err
	}
	pos, err := engine.ParsePosition(p.Position, side)
	if err != nil {
		return err
	}
	k, err := kalah.Open(kalah.Config{Pits: p.Pits, Seeds: 1, Rule: rule, Threads: opts.Threads, TableSize: tb,
		TableSeeds: pos.Board.Seeds(), EGDBDir: opts.EGDB, NoEGDB: opts.NoEGDB, NoCache: true})
	if err != nil {
		return err
	}
	defer k.Close()
	w := opts.IO.Out
	rep, err := campaign.Verify(ctx, c, opts.Name, k, opts.Sample, opts.Seed, func(u campaign.VerifiedUnit) {
		if !u.Agrees && !opts.JSON {
			fmt.Fprintf(w, "DISAGREES %s: worker %s (build %q) claims %s; this machine's test at %d answers %d\n",
				u.Key, u.Worker.ID(), u.Worker.Build, u.Claim, u.CheckGamma, u.Local)
		}
	})
	if err != nil {
		return err
	}
	if opts.JSON {
		if err := cmdutil.PrintJSON(w, rep); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(w, "campaign %s: %d answered units, %d re-solved here: %d agree, %d disagree; %s nodes, %.1f s\n",
			opts.Name, rep.Answered, rep.Sampled, rep.Agreed, rep.Disagreed, results.Group(rep.Nodes), rep.Seconds)
	}
	if rep.Disagreed > 0 {
		return fmt.Errorf("campaign %s: %d of %d %w", opts.Name, rep.Disagreed, rep.Sampled, ErrDisagree)
	}
	return nil
}
