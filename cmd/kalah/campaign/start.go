package campaigncmd

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/campaign"
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/results"
	"github.com/spf13/cobra"
)

// StartOptions are the inputs of one "kalah campaign start".
type StartOptions struct {
	IO         *cmdutil.IOStreams
	Name       string
	Game       cmdutil.GameFlags
	Conn       connFlags
	Local      int
	Port       int
	Threads    int
	TableSize  string
	EGDB       string
	NoEGDB     bool
	NoShared   bool // the old --no-shared-table: the default now
	Shared     bool
	EGDBSeeds  int
	DepthSet   bool // --egdb-seeds given
	Split      int
	LocalSeeds int
	GuessDepth int
	AckWait    time.Duration
	// VerifyShare: the share of answers checked by another worker;
	// VerifySet: --verify-share given.
	VerifyShare float64
	VerifySet   bool
	// NoAffinity: --no-affinity; a board's tests go to any worker.
	NoAffinity bool
	JSON       bool
	Quiet      bool
}

// NewCmdStart returns "campaign start".
func NewCmdStart(io *cmdutil.IOStreams) *cobra.Command {
	opts := &StartOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "start NAME",
		Short: "Create or resume a campaign and run its coordinator to the end",
		Long: `Create the campaign NAME for the start of Kalah(--pits, --seeds) under
--rule, or for --position, and run its coordinator until the value of
every root move is proven; then print the record, as 'kalah solve' does
(--json: the same JSON object).

With --local N the server runs in this process, on loopback only, with
its streams under --data, and N workers run here too (--threads each,
default 1). The local workers share one table (--table-size) and their
threads: a thread whose worker has no unit helps one that runs, so the
campaign's tail, where one unit runs at a time, uses every core. They
share no entries through the server's shared-table bucket, which their
one table makes redundant, unless --shared-table (then the entries of
unfinished units survive a restart, for about a tenth of the speed).
With --nats URL the coordinator uses an existing server or cluster,
where workers ('kalah worker --nats URL') serve it.

A name already used for other parameters is refused (exit 2) and nothing
changes. Starting an existing campaign again goes on from what is proven
(after a crash, Ctrl-C or 'kalah campaign stop'); a finished campaign
prints its record at once. Ctrl-C or SIGTERM stops the coordinator and
exits 130; the units out stay queued and their answers are kept.

A campaign declares, when it is created, the build that computes it
(this binary's VCS revision) and the depth of the endgame database every
worker must use: the depth of the database --egdb names (or the installed
one), -1 with --no-egdb or when there is none, or --egdb-seeds N with
--nats when this machine does not have the workers' database. A worker of
another build or database depth hands the campaign's units back ('kalah
campaign status' lists it as refused), and the coordinator rejects any
answer of another build, rule or depth; starting the campaign again with
another build is a conflict (exit 2).

Answers are cross-checked: the coordinator picks --verify-share of each
worker's accepted answers at random and has each claim ("value >= v" or
"value <= v") tested again by another worker. When the two disagree a
third test decides (another worker's, or the coordinator's own when no
other is heard from); the worker it contradicts is quarantined: its
answers are deleted and solved again, its later answers refused, the
search starts again from what is left, and the record's output and 'kalah
campaign status' name it. A worker searches a check in its own table; one
started with --shared-table, in a cold table without the shared entries,
where a check may cost more than its unit did. With --local the workers
are one process on one database: the default share is 0 there.

A board's next test goes first, for a few seconds, to the worker that
answered its last one, whose table still holds that test's tree; other
workers hand it back meanwhile (--no-affinity: to any worker; never with
--local, whose workers share one table).`,
		Example: `  kalah campaign start k63 --pits 6 --seeds 3 --local 2
  kalah campaign start k64-ec --pits 6 --seeds 4 --rule empty-capture \
      --nats nats://10.0.0.1:4222
  kalah campaign start mid --position 3,0,5,1,0,2,14,2,4,0,3,1,5,12 \
      --to-move north --local 2 --json`,
		Args: nameArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = args[0]
			opts.DepthSet = cmd.Flags().Changed("egdb-seeds")
			opts.VerifySet = cmd.Flags().Changed("verify-share")
			if err := opts.Game.CheckConflicts(cmd.Flags().Changed); err != nil {
				return err
			}
			switch {
			case opts.Local > 0 && opts.Conn.NATS != "":
				return cmdutil.BadInputf("--local and --nats contradict each other: run the server here or use one")
			case opts.Local <= 0 && opts.Conn.NATS == "":
				return cmdutil.BadInputf("give --local N (a server and N workers here) or --nats URL (an existing server)")
			case opts.NoEGDB && opts.EGDB != "":
				return cmdutil.BadInputf("--egdb and --no-egdb contradict each other")
			case cmd.Flags().Changed("egdb-seeds") && (opts.Local > 0 || opts.NoEGDB || opts.EGDB != ""):
				return cmdutil.BadInputf("--egdb-seeds declares the workers' database depth with --nats; with --local, --egdb or --no-egdb it is the database's own")
			case opts.Shared && opts.Local <= 0:
				return cmdutil.BadInputf("--shared-table is for the local workers of --local; give it to 'kalah worker' on the machines of --nats")
			case opts.NoShared && opts.Local <= 0:
				return cmdutil.BadInputf("--no-shared-table is for the local workers of --local, and the default of every worker now")
			case opts.Shared && opts.NoShared:
				return cmdutil.BadInputf("--shared-table and --no-shared-table contradict each other")
			case cmd.Flags().Changed("egdb-seeds") && opts.EGDBSeeds < -1:
				return cmdutil.BadInputf("--egdb-seeds must be -1 (no database) or a seed count, got %d", opts.EGDBSeeds)
			case opts.GuessDepth < 0:
				return cmdutil.BadInputf("--guess-depth must be 0 (none) or a depth in plies, got %d", opts.GuessDepth)
			case opts.VerifyShare < 0 || opts.VerifyShare > 1:
				return cmdutil.BadInputf("--verify-share must be a share from 0 to 1, got %g", opts.VerifyShare)
			case opts.Split < 0 || opts.Split > 4:
				return cmdutil.BadInputf("--split must be 0..4, got %d", opts.Split)
			}
			return runStart(cmd.Context(), opts)
		},
	}
	cmdutil.AddGameFlags(cmd, &opts.Game, true)
	opts.Conn.add(cmd)
	f := cmd.Flags()
	f.IntVar(&opts.Local, "local", 0, "run a server on loopback and this many workers in this process")
	f.IntVar(&opts.Port, "port", 0, "with --local: the server's port (default a free one); workers of other machines cannot reach it, it listens on loopback")
	f.IntVar(&opts.Threads, "threads", 1, "with --local: search threads of each worker")
	f.StringVar(&opts.TableSize, "table-size", "", "with --local: size of the table the workers share (default: "+cmdutil.TableSizeDefault+")")
	cmdutil.DeprecatedAlias(cmd, "tt-mem", "table-size")
	f.StringVar(&opts.EGDB, "egdb", "", "endgame-database directory of the local workers, whose depth the campaign declares (default: the installed one, if any)")
	f.BoolVar(&opts.NoEGDB, "no-egdb", false, "no endgame database: the local workers use none and the campaign declares none")
	f.BoolVar(&opts.Shared, "shared-table", false, "with --local: the workers also share entries through the kalah_table bucket, which keeps them across a restart (their one table in memory is shared anyway; the bucket's traffic costs about a tenth of the speed)")
	f.BoolVar(&opts.NoShared, "no-shared-table", false, "with --local: no shared-table bucket")
	_ = f.MarkDeprecated("no-shared-table", "the local workers share no bucket entries by default now (--shared-table turns it on)")
	f.IntVar(&opts.EGDBSeeds, "egdb-seeds", -1, "with --nats: the database depth the workers must have, when this machine has no such database (-1: none)")
	f.IntVar(&opts.Split, "split", 1, "plies below each root move at which tests are shipped as units")
	f.IntVar(&opts.LocalSeeds, "local-seeds", 12, "boards with at most this many seeds are tested by the coordinator itself")
	f.IntVar(&opts.GuessDepth, "guess-depth", campaign.DefaultGuessDepth, "depth of the coordinator's deepening that guesses each root move's value before its MTD(f) (0: none); it changes the cost, never a value")
	f.DurationVar(&opts.AckWait, "ack-wait", campaign.DefaultAckWait, "with --local: how long a unit may go without a heartbeat before another worker gets it")
	f.Float64Var(&opts.VerifyShare, "verify-share", campaign.DefaultVerifyShare, "share (0 to 1) of the accepted answers checked by another worker; 0: none (default 0 with --local)")
	f.BoolVar(&opts.NoAffinity, "no-affinity", false, "send a board's next test to any worker, not first to the one that answered its last")
	f.BoolVar(&opts.JSON, "json", false, "print the record as one JSON object ('kalah solve --json' shape)")
	f.BoolVarP(&opts.Quiet, "quiet", "q", false, "no progress on standard error")
	return cmd
}

func runStart(ctx context.Context, opts *StartOptions) error {
	p, r, _, _, err := gameParams(opts.Name, &opts.Game, opts.Split, opts.LocalSeeds)
	if err != nil {
		return err
	}
	depth, release, err := declaredDepth(opts, r)
	if err != nil {
		return err
	}
	defer release()
	p.EGDBSeeds = depth
	ctx, stop := signal.NotifyContext(bg(ctx), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var logger *log.Logger
	if !opts.Quiet {
		logger = log.New(opts.IO.ErrOut, "kalah campaign: ", log.Ltime)
	}
	nopts, err := opts.Conn.natsOptions()
	if err != nil {
		return err
	}
	url := opts.Conn.NATS
	if opts.Local > 0 {
		dir, err := opts.Conn.dataDir()
		if err != nil {
			return err
		}
		var tb int64 // 0: sized by the library session for the game and the database
		if opts.TableSize != "" {
			if tb, err = cmdutil.ParseBytes(opts.TableSize); err != nil {
				return cmdutil.BadInputf("--table-size: %v", err)
			}
		}
		wcfg := campaign.WorkerConfig{Threads: opts.Threads, TableSize: tb, EGDBDir: opts.EGDB, NoEGDB: opts.NoEGDB, Shared: opts.Shared}
		l, err := campaign.StartLocal(dir, opts.Port, opts.Local, wcfg, opts.AckWait)
		if err != nil {
			return err
		}
		defer l.Stop()
		url = l.Server.URL()
		campaign.WriteURL(dir, url)
		defer campaign.RemoveURL(dir)
		if logger != nil {
			logger.Printf("server %s (streams in %s), %d workers", url, dir, opts.Local)
		}
	}
	c, err := campaign.Connect(ctx, url, opts.AckWait, nopts...)
	if err != nil {
		return inputError(err)
	}
	defer c.Close()
	if err := campaign.Create(ctx, c, p); err != nil {
		return inputError(err)
	}
	if logger != nil {
		logger.Printf("campaign %s: build %q, endgame database %s; workers of another build or depth refuse its units", p.Name, p.Build, depthText(p.EGDBSeeds))
		if results.Current().VCSRevision == "" {
			logger.Printf("this binary was built without VCS stamping (-buildvcs=false): its build %q does not tell it from other such builds", p.Build)
		}
	}
	gd := opts.GuessDepth
	if gd == 0 {
		gd = -1 // none
	}
	share := opts.VerifyShare
	if opts.Local > 0 && !opts.VerifySet {
		share = 0 // one shared table: no independent worker to check with
	}
	co, err := campaign.NewCoordinator(c, p, campaign.CoordinatorConfig{Log: logger, GuessDepth: gd, EGDBDir: opts.EGDB, NoEGDB: opts.NoEGDB,
		VerifyShare: share, Affinity: opts.Local <= 0 && !opts.NoAffinity})
	if err != nil {
		return err
	}
	defer co.Close()
	done := make(chan struct{})
	if !opts.Quiet {
		go progress(ctx, c, opts, done)
	}
	rec, err := co.Run(ctx)
	close(done)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("%w: campaign %s stopped; 'kalah campaign start %s' goes on from here", cmdutil.ErrInterrupted, opts.Name, opts.Name)
		}
		if errors.Is(err, context.Canceled) {
			return fmt.Errorf("campaign %s was stopped ('kalah campaign stop'); start it again to go on", opts.Name)
		}
		return err
	}
	st, _ := campaign.LoadStatus(ctx, c, opts.Name)
	return printRecordStatus(opts.IO, rec, st, opts.JSON)
}

// declaredDepth is the endgame database depth the campaign declares. The
// database stays open until release is called: the coordinator's session
// and the local workers' then share its mappings (egdb.Open) instead of
// loading and checking it again.
func declaredDepth(opts *StartOptions, r engine.Variant) (depth int, release func(), err error) {
	none := func() {}
	if opts.NoEGDB {
		return -1, none, nil
	}
	if opts.DepthSet {
		return opts.EGDBSeeds, none, nil
	}
	db, err := kalah.OpenEGDB(opts.EGDB, r)
	if err != nil {
		return 0, none, cmdutil.BadInput(err)
	}
	if db == nil {
		return -1, none, nil
	}
	return db.MaxSeeds(), func() { db.Close() }, nil
}

func depthText(s int) string {
	if s < 0 {
		return "none"
	}
	return fmt.Sprintf("of %d seeds", s)
}

// progress prints the campaign's status line every 5 s.
func progress(ctx context.Context, c *campaign.Conn, opts *StartOptions, done chan struct{}) {
	t := time.NewTicker(5 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-ctx.Done():
			return
		case <-t.C:
			if st, err := campaign.Info(ctx, c, opts.Name); err == nil {
				fmt.Fprintf(opts.IO.ErrOut, "[%7.1fs] %s: value in [%s, %s]; units %d done, %d pending, %d in flight; %s nodes, %.3g units/s\n",
					st.Seconds, opts.Name, results.Signed(st.Lower), results.Signed(st.Upper), st.Done, st.Pending, st.InFlight, results.Group(st.Nodes), st.UnitsPerSecond)
			}
		}
	}
}

// output is the record as 'kalah solve --json' prints it, with the
// workers the campaign's checks quarantined.
type output struct {
	results.Record
	Solved      bool                  `json:"solved"`
	NPS         float64               `json:"nps"`
	Quarantined []campaign.Quarantine `json:"quarantined,omitempty"`
}

// printRecordStatus prints the record and, from the campaign's status
// (nil: none), the workers quarantined.
func printRecordStatus(io *cmdutil.IOStreams, rec *results.Record, st *campaign.Status, asJSON bool) error {
	o := output{Record: *rec, Solved: rec.Solved()}
	if st != nil {
		o.Quarantined = st.Quarantined
	}
	if rec.Seconds > 0 {
		o.NPS = float64(rec.Nodes) / rec.Seconds
	}
	if asJSON {
		return cmdutil.PrintJSON(io.Out, o)
	}
	w := io.Out
	name := fmt.Sprintf("Kalah(%d)", rec.Pits)
	if rec.Seeds > 0 {
		name = fmt.Sprintf("Kalah(%d,%d)", rec.Pits, rec.Seeds)
	}
	fmt.Fprintf(w, "campaign %s, rule %s\n", name, rec.Rule)
	fmt.Fprintf(w, "position %s, %s to move\n", rec.Position, rec.ToMove)
	fmt.Fprintf(w, "value %s %s (final store difference for the side to move, stores counted)\n", results.Signed(rec.Value), rec.Result)
	fmt.Fprintf(w, "moves:")
	for _, m := range rec.Moves {
		fmt.Fprintf(w, " %s %s", m.Move, results.Signed(m.Value))
	}
	fmt.Fprintf(w, "\nbest: %s\n", strings.Join(rec.Best, " "))
	fmt.Fprintf(w, "pv: %s\npv (paper): %s\n", rec.PVLetters, rec.PV)
	fmt.Fprintf(w, "nodes %s over %d worker threads, %.3f s, database %d seeds\n", results.Group(rec.Nodes), rec.Threads, rec.Seconds, rec.EGDBSeeds)
	for _, q := range o.Quarantined {
		fmt.Fprintf(w, "quarantined: worker %s (build %q) after %d units: %s\n", q.Worker.ID(), q.Worker.Build, q.UnitsDone, q.Reason)
	}
	return nil
}
