// Package workercmd implements "kalah worker": a back-end solver of
// distributed campaigns.
package workercmd

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/campaign"
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/results"
	"github.com/nats-io/nats.go"
	"github.com/spf13/cobra"
)

// Options are the inputs of one "kalah worker".
type Options struct {
	IO        *cmdutil.IOStreams
	NATS      string
	Client    campaign.ClientOptions
	Name      string
	Threads   int
	TableSize string
	EGDB      string
	NoEGDB    bool
	Shared    bool
	NoShared  bool // the old --no-shared-table: the default now
	AckWait   time.Duration
	Quiet     bool
}

// NewCmdWorker returns the worker command.
func NewCmdWorker(io *cmdutil.IOStreams) *cobra.Command {
	opts := &Options{IO: io}
	cmd := &cobra.Command{
		Use:   "worker",
		Short: "Solve the units of campaigns from a NATS JetStream server",
		Long: `Join the campaigns of a NATS server with JetStream (see 'kalah campaign'):
pull units of work from the queue, solve each with a local solver (its own
table and endgame database, sized and found as 'kalah solve' does), publish
the answer with its node count, time, build revision and database depth,
and acknowledge the unit. A unit is one null-window test, "is the value of
this position at least g?", on a position a few plies below the root.

Run one worker per machine (with --threads its cores), on as many machines
as you have; workers may join and leave at any time. A worker that dies
holding a unit stops sending its heartbeats, and the unit goes to another
worker after the ack wait. Ctrl-C or SIGTERM hands the current unit back
at once and exits 130.

Every unit carries its campaign's signature: the build that computes it
and its endgame database depth. A worker of another build, or whose
database for the unit's rule has another depth, hands the unit back to
the queue and logs why (once per campaign, also with --quiet); 'kalah
campaign status' lists it as refusing. An --egdb directory that holds no
database at all is bad input (exit 2).

A worker searches in a table of its own and checks other workers'
answers in it too: every entry there is its own. With --shared-table it
also shares the proven entries of big subtrees (boards of at least 24
seeds whose search took at least 4 k nodes) with the campaign's other
such workers through the server's kalah_table bucket, so that a
transposition between units solved on different machines is searched
once; it keeps a mirror of the campaign's entries in memory, never waits
on the server for them, and checks in a second, cold table (an entry in
the first may be the checked worker's). Each entry is a replicated write
on the servers.

The server must be reachable within 5 s (exit 1 otherwise). For a
secured server: --nats-creds FILE (a NATS user's JWT and NKey seed),
--nats-tls-ca FILE (the CA the server's certificate must chain to) and
--nats-tls-cert/--nats-tls-key (a client certificate, for a server that
verifies its clients); every file is read at the start, and a missing or
bad one is bad input (exit 2).`,
		Example: `  kalah worker --nats nats://10.0.0.1:4222 --threads 8
  kalah worker --nats nats://coordinator:4222 --nats-creds worker.creds \
      --egdb /data/egdb --table-size 8GiB
  kalah worker --nats tls://n1:4222,tls://n2:4222,tls://n3:4222 \
      --nats-tls-ca ca.pem --nats-tls-cert w7.pem --nats-tls-key w7-key.pem`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.NoEGDB && opts.EGDB != "" {
				return cmdutil.BadInputf("--egdb and --no-egdb contradict each other")
			}
			if opts.Shared && opts.NoShared {
				return cmdutil.BadInputf("--shared-table and --no-shared-table contradict each other")
			}
			if opts.NATS == "" {
				return cmdutil.BadInputf("--nats URL is required (the server of the campaigns)")
			}
			return run(cmd.Context(), opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.NATS, "nats", "", "URL of the NATS server (or cluster) with JetStream, e.g. nats://10.0.0.1:4222")
	AddClientFlags(cmd, &opts.Client)
	f.StringVar(&opts.Name, "name", "", "worker name in results and status (default host-pid)")
	f.IntVar(&opts.Threads, "threads", 0, fmt.Sprintf("search threads (default all cores, %d)", runtime.GOMAXPROCS(0)))
	f.StringVar(&opts.TableSize, "table-size", "", "table size, e.g. 2GiB (default: by the campaign game's pits, seeds and the endgame database's depth, at most a quarter of memory or 1 GiB)")
	cmdutil.DeprecatedAlias(cmd, "tt-mem", "table-size")
	f.StringVar(&opts.EGDB, "egdb", "", "endgame-database directory (default: the installed one, if any)")
	f.BoolVar(&opts.NoEGDB, "no-egdb", false, "use no endgame database")
	f.BoolVar(&opts.Shared, "shared-table", false, "share the proven entries of big subtrees with the campaign's other workers (the kalah_table bucket); checks then search a cold table of their own")
	f.BoolVar(&opts.NoShared, "no-shared-table", false, "share no table entries (the default)")
	_ = f.MarkDeprecated("no-shared-table", "workers share no table entries by default now (--shared-table turns it on)")
	f.DurationVar(&opts.AckWait, "ack-wait", campaign.DefaultAckWait, "how long a unit may go without a heartbeat before another worker gets it (shared by all workers: the last one started sets it)")
	f.BoolVarP(&opts.Quiet, "quiet", "q", false, "do not log each unit on standard error (refusals and errors are still logged)")
	return cmd
}

func run(ctx context.Context, opts *Options) error {
	if opts.Threads < 0 {
		return cmdutil.BadInputf("--threads must be at least 1, got %d", opts.Threads)
	}
	var tb int64
	if opts.TableSize != "" {
		b, err := cmdutil.ParseBytes(opts.TableSize)
		if err != nil {
			return cmdutil.BadInputf("--table-size: %v", err)
		}
		tb = b
	}
	if opts.EGDB != "" && !holdsEGDB(opts.EGDB) {
		return cmdutil.BadInputf("--egdb %s holds no endgame database (build one with 'kalah egdb build', or go without with --no-egdb)", opts.EGDB)
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	nopts, err := NATSOptions(opts.Client)
	if err != nil {
		return err
	}
	c, err := campaign.Connect(ctx, opts.NATS, opts.AckWait, nopts...)
	if errors.Is(err, campaign.ErrUnreachable) {
		return cmdutil.BadInput(err) // names the URLs tried
	}
	if err != nil {
		return err
	}
	defer c.Close()
	name := opts.Name
	if name == "" {
		h, _ := os.Hostname()
		name = fmt.Sprintf("%s-%d", h, os.Getpid())
	}
	cfg := campaign.WorkerConfig{Name: name, Threads: opts.Threads, TableSize: tb, EGDBDir: opts.EGDB, NoEGDB: opts.NoEGDB,
		Shared: opts.Shared, Log: log.New(opts.IO.ErrOut, "kalah worker: ", log.Ltime), Quiet: opts.Quiet}
	w := campaign.NewWorker(c, cfg)
	fmt.Fprintf(opts.IO.ErrOut, "kalah worker %s: serving %s\n", name, opts.NATS)
	if err := w.Run(ctx); err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "kalah worker %s: %d units, %s nodes\n", name, w.Solved.Load(), results.Group(w.Nodes.Load()))
	if ctx.Err() != nil {
		return cmdutil.ErrInterrupted
	}
	return nil
}

// AddClientFlags adds the NATS credentials and TLS flags of 'kalah worker'
// and 'kalah campaign'.
func AddClientFlags(cmd *cobra.Command, o *campaign.ClientOptions) {
	f := cmd.Flags()
	f.StringVar(&o.Creds, "nats-creds", "", "NATS user credentials file (user JWT and NKey seed)")
	f.StringVar(&o.TLSCert, "nats-tls-cert", "", "client certificate (PEM) for a NATS server that asks for one; with --nats-tls-key")
	f.StringVar(&o.TLSKey, "nats-tls-key", "", "the client certificate's private key (PEM)")
	f.StringVar(&o.TLSCA, "nats-tls-ca", "", "CA certificates (PEM) that the NATS server's certificate must chain to")
}

// NATSOptions checks the client flags' files and returns nats.go's
// options; a bad file is bad input.
func NATSOptions(o campaign.ClientOptions) ([]nats.Option, error) {
	opts, err := o.NATSOptions()
	if err != nil {
		return nil, cmdutil.BadInput(err)
	}
	return opts, nil
}

// holdsEGDB reports that dir holds the endgame database of some pit count
// and rule. Which one a campaign needs is known only from its units: a
// worker whose database does not match a campaign refuses its units.
func holdsEGDB(dir string) bool {
	for pits := 1; pits <= engine.MaxPits; pits++ {
		for _, rule := range engine.AllRules {
			v, err := engine.NewVariant(pits, rule)
			if err != nil {
				continue
			}
			if ok, err := kalah.HasEGDB(dir, v); err == nil && ok {
				return true
			}
		}
	}
	return false
}
