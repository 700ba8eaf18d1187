// Package campaigncmd implements "kalah campaign": distributed solves on a
// NATS JetStream server (start, status, result, stop, estimate, record,
// verify, simulate).
package campaigncmd

import (
	"context"
	"errors"

	"github.com/kalah-solver/kalah/campaign"
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	workercmd "github.com/kalah-solver/kalah/cmd/kalah/worker"
	"github.com/kalah-solver/kalah/engine"
	"github.com/nats-io/nats.go"
	"github.com/spf13/cobra"
)

// NewCmdCampaign returns the campaign command and its subcommands.
func NewCmdCampaign(io *cmdutil.IOStreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "campaign",
		Short: "Solve one position over many machines on NATS JetStream",
		Long: `A campaign solves one position (the start of Kalah(m,n) or any --position)
exactly over any number of machines, through a NATS server with JetStream.
The coordinator ('kalah campaign start') runs the top of the search itself,
MTD(f) on every root move, and ships only the subtrees that alpha-beta
needs, each as a unit of work with its window, to the workers ('kalah
worker' on every machine). Answers are kept in a JetStream key-value
bucket, so a campaign survives the loss of any worker and of the
coordinator: started again, it goes on from what was proven.
docs/distributed.md explains the design and how to run a cluster.

Every subcommand reaches the server by --nats URL, or, for a campaign
that runs (or ran) on this machine with --local, through its data
directory (--data, default $XDG_DATA_HOME/kalah/campaigns or
~/.local/share/kalah/campaigns). With --nats, --nats-creds FILE,
--nats-tls-ca FILE and --nats-tls-cert/--nats-tls-key FILE reach a
secured server, as for 'kalah worker'.`,
		Args: cmdutil.UnknownCommand,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(NewCmdStart(io), NewCmdStatus(io), NewCmdResult(io), NewCmdStop(io), NewCmdEstimate(io), NewCmdRecord(io), NewCmdVerify(io), NewCmdSimulate(io))
	return cmd
}

// gameParams reads the game flags of 'campaign start' and 'campaign
// estimate' into a campaign's parameters (the start of Kalah(--pits,
// --seeds) or --position, with --split and --local-seeds); it also returns
// the rules, the root and n for a start position (0 for --position).
func gameParams(name string, g *cmdutil.GameFlags, split, localSeeds int) (campaign.Params, engine.Variant, engine.Position, int, error) {
	r, pos, start, err := g.Resolve()
	if err != nil {
		return campaign.Params{}, r, pos, 0, err
	}
	seeds := 0
	if start {
		seeds = g.Seeds
	}
	p := campaign.NewParams(name, r, seeds, pos)
	p.Split, p.LocalSeeds = split, localSeeds
	return p, r, pos, seeds, nil
}

// connFlags say how a subcommand reaches the campaigns.
type connFlags struct {
	NATS   string
	Client campaign.ClientOptions
	Data   string
}

func (f *connFlags) add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.NATS, "nats", "", "URL of the NATS server (or cluster) with JetStream")
	workercmd.AddClientFlags(cmd, &f.Client)
	cmd.Flags().StringVar(&f.Data, "data", "", "data directory of local campaigns (default $XDG_DATA_HOME/kalah/campaigns)")
}

func (f *connFlags) natsOptions() ([]nats.Option, error) {
	if f.NATS == "" && f.Client != (campaign.ClientOptions{}) {
		return nil, cmdutil.BadInputf("--nats-creds and --nats-tls-* need --nats URL")
	}
	return workercmd.NATSOptions(f.Client)
}

func (f *connFlags) dataDir() (string, error) {
	if f.Data != "" {
		return f.Data, nil
	}
	return campaign.DefaultDataDir()
}

// open connects by --nats, or else through the data directory.
func (f *connFlags) open(ctx context.Context) (*campaign.Conn, func(), error) {
	nopts, err := f.natsOptions()
	if err != nil {
		return nil, nil, err
	}
	if f.NATS != "" {
		c, err := campaign.Connect(ctx, f.NATS, 0, nopts...)
		if err != nil {
			return nil, nil, inputError(err)
		}
		return c, c.Close, nil
	}
	dir, err := f.dataDir()
	if err != nil {
		return nil, nil, err
	}
	return campaign.OpenData(ctx, dir)
}

// inputError makes the errors that are the user's doing bad input (exit 2),
// an unreachable server or cluster among them (its message names the URLs
// tried).
func inputError(err error) error {
	if errors.Is(err, campaign.ErrConflict) || errors.Is(err, campaign.ErrNoCampaign) || errors.Is(err, campaign.ErrUnreachable) {
		return cmdutil.BadInput(err)
	}
	return err
}

func nameArg(cmd *cobra.Command, args []string) error {
	if len(args) != 1 {
		return cmdutil.BadInputf("%s takes one campaign name (see '%s --help')", cmd.CommandPath(), cmd.CommandPath())
	}
	return cmdutil.BadInput(campaign.CheckName(args[0]))
}

func bg(ctx context.Context) context.Context {
	if ctx == nil {
		return context.Background()
	}
	return ctx
}
