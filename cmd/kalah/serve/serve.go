// Package servecmd implements "kalah serve": the web explorer, a local
// page with every move's exact value, a play mode and a JSON API.
package servecmd

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/serve"
	"github.com/spf13/cobra"
)

// Options are the inputs of one "kalah serve".
type Options struct {
	IO           *cmdutil.IOStreams
	Addr         string
	Open         bool
	Cache        string
	NoCache      bool
	EGDB         string
	NoEGDB       bool
	TableSize    string
	Threads      int
	MaxQueue     int
	SolveTimeout time.Duration
	NoWarm       bool
	NoPonder     bool
	PonderLimit  time.Duration
	BatchLines   int
	EGDBTarget   int
	BatchTimeout time.Duration
	Verbose      bool

	// Ready, if set, is called with the page's address once the server
	// listens (tests use it with --addr 127.0.0.1:0).
	Ready func(url string)
	// Warmed, if set, is called once the warm-up has ended (tests).
	Warmed func()
}

// NewCmdServe returns the serve command.
func NewCmdServe(io *cmdutil.IOStreams) *cobra.Command {
	opts := &Options{IO: io}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the web explorer: the board with every move's exact value",
		Long: `Serve a web page that draws a Kalah board and shows, beside every legal move,
its exact value under perfect play (win, draw or loss for the mover and the
margin), the best moves and a principal variation; click a pit to play it,
step back and forth, paste a position, switch rule, pits and seeds. The
position is in the page's address, so a link reopens it. Play mode pits you
against the computer at three levels (easy, medium, perfect), as South or
North, with undo and hints. Analyse, under the board, analyses the line shown
or a game pasted in any form 'kalah analyze' reads: the value along the game
as a graph, each move's loss and class marked on the move list.

The page and its script are in the binary: the server needs no network.
It listens on the loopback interface unless --addr says otherwise (with a
warning: anyone who reaches the address can make the machine solve).

The values come from the same solver as 'kalah solve': the endgame database
when one is installed, the built-in opening book and the cache, which keeps
every answer, so a position is solved once. One solve runs at a time; at
most --max-queue new searches wait behind it, the rest get HTTP 503. An
answer the server holds never waits in line: a position in the cache is
answered at once, and a request for a position already being solved joins
that solve. The API reads its query strictly: an unknown, repeated or
malformed parameter is HTTP 400, naming it. The JSON API (GET /api/line,
/api/solve, /api/choose, /api/progress, /api/status; POST /api/batch, many
positions as JSON lines, at most --batch-lines a batch, each batch for at
most --batch-timeout; POST /api/analyze, a game in any form 'kalah
analyze' reads, its analysis out) is described in docs/explorer.md.
Ctrl-C stops the server and saves the cache.

At start the server prepares the page's first game, Kalah(6,4)
under no-empty-capture, in the background: it opens the endgame database and
touches every page of the table, so that the first answer does not wait
seconds for that. Requests that come meanwhile wait in line; --no-warm skips
it. Like 'kalah solve', the first solve of a big board builds the default
endgame database when the default directory holds none that deep (Kalah(6,4):
20 seeds, 110 MB, seconds on two cores; once), with its progress on
standard error and on the page; --no-egdb serves without. Once that database
is there, the server deepens it in the background to --egdb-target seeds
(28 by default: 2.9 GB a rule for six pits, minutes on two cores;
--egdb-target 0 turns it off), answering meanwhile with the one it has, and
uses the deeper one from the first search after it is built. The page says what
the server does (GET /api/status): warming up, building, reading the
database into memory (after a reboot), searching, waiting in line.

While the page waits for a click, the server looks ahead: once it has
answered a position and no request waits, it solves the positions after
each of its moves (the best moves first; in play mode the computer's
choice first), each for at most --ponder-limit, so that the next click is
usually answered from the cache. A request stops the look-ahead at once.
--no-ponder turns it off (the machine then idles between requests).`,
		Example: `  kalah serve
  kalah serve --open
  kalah serve --addr 127.0.0.1:9000 --cache /tmp/kalah-cache
  curl 'http://127.0.0.1:8080/api/solve?pits=4&seeds=3&rule=empty-capture'`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.NoEGDB && opts.EGDB != "" {
				return cmdutil.BadInputf("--egdb and --no-egdb contradict each other")
			}
			if opts.NoCache && opts.Cache != "" {
				return cmdutil.BadInputf("--cache and --no-cache contradict each other")
			}
			return run(cmd.Context(), opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Addr, "addr", "127.0.0.1:8080", "address to listen on (host:port); a non-loopback host exposes the server")
	f.BoolVar(&opts.Open, "open", false, "open the page in the default browser (xdg-open, open or start)")
	f.StringVar(&opts.Cache, "cache", "", cmdutil.CacheDirHelp)
	f.BoolVar(&opts.NoCache, "no-cache", false, cmdutil.NoCacheHelp)
	f.StringVar(&opts.EGDB, "egdb", "", "endgame-database directory (default: $XDG_DATA_HOME/kalah/egdb or ~/.local/share/kalah/egdb)")
	f.BoolVar(&opts.NoEGDB, "no-egdb", false, "use no endgame database")
	f.StringVar(&opts.TableSize, "table-size", "", "table size, e.g. 512MiB (default: "+cmdutil.TableSizeDefault+")")
	cmdutil.DeprecatedAlias(cmd, "tt-mem", "table-size")
	f.IntVar(&opts.Threads, "threads", 0, fmt.Sprintf("search threads (default all cores, %d)", runtime.GOMAXPROCS(0)))
	f.IntVar(&opts.MaxQueue, "max-queue", serve.DefaultMaxQueue, "new searches that may wait for the running solve; more get HTTP 503 (answers from the cache never wait)")
	f.DurationVar(&opts.SolveTimeout, "solve-timeout", 10*time.Minute, "stop a solve after this long and answer with its bounds (0: no limit)")
	f.BoolVar(&opts.NoWarm, "no-warm", false, "do not prepare the first game (database and table) at start, only on the first request")
	f.BoolVar(&opts.NoPonder, "no-ponder", false, "do not look ahead: no solves of the next positions between requests")
	f.DurationVar(&opts.PonderLimit, "ponder-limit", serve.DefaultPonderLimit, "longest look-ahead solve of one next position")
	f.IntVar(&opts.EGDBTarget, "egdb-target", kalah.DefaultDeepenSeeds, "deepen the default endgame database in the background to this many seeds once it is built (six pits: 2.9 GB a rule at 28); 0: never")
	f.IntVar(&opts.BatchLines, "batch-lines", serve.DefaultMaxBatchLines, "most positions in one POST /api/batch; more is HTTP 413")
	f.DurationVar(&opts.BatchTimeout, "batch-timeout", serve.DefaultBatchTimeout, "longest a batch runs; the positions not answered by then get an error line")
	f.BoolVarP(&opts.Verbose, "verbose", "v", false, "log the games opened (database, table, cache) and the solves run on standard error")
	// The old names, for one release (removed in v0.3.0).
	cmdutil.DeprecatedAlias(cmd, "store", "cache")
	cmdutil.DeprecatedAlias(cmd, "no-store", "no-cache")
	return cmd
}

func run(ctx context.Context, opts *Options) error {
	if opts.Threads < 0 {
		return cmdutil.BadInputf("--threads must be at least 1, got %d", opts.Threads)
	}
	if opts.MaxQueue < 0 {
		return cmdutil.BadInputf("--max-queue must be at least 0, got %d", opts.MaxQueue)
	}
	if opts.EGDBTarget < 0 {
		return cmdutil.BadInputf("--egdb-target must be 0 (off) or a seed count, got %d", opts.EGDBTarget)
	}
	if opts.BatchLines < 0 {
		return cmdutil.BadInputf("--batch-lines must be at least 1, got %d", opts.BatchLines)
	}
	if opts.BatchTimeout < 0 {
		return cmdutil.BadInputf("--batch-timeout must be positive, got %v", opts.BatchTimeout)
	}
	if opts.PonderLimit < 0 {
		return cmdutil.BadInputf("--ponder-limit must be positive, got %v (--no-ponder turns the look-ahead off)", opts.PonderLimit)
	}
	so := serve.Options{CacheDir: opts.Cache, NoCache: opts.NoCache, EGDBDir: opts.EGDB, NoEGDB: opts.NoEGDB,
		Threads: opts.Threads, MaxQueue: opts.MaxQueue, SolveTimeout: opts.SolveTimeout,
		NoPonder: opts.NoPonder, PonderLimit: opts.PonderLimit,
		MaxBatchLines: opts.BatchLines, BatchTimeout: opts.BatchTimeout,
		AutoEGDB: true, OnEGDBBuild: egdbLogger(opts.IO), DeepenSeeds: opts.EGDBTarget}
	if so.MaxQueue == 0 {
		so.MaxQueue = -1 // none may wait
	}
	if opts.TableSize != "" {
		b, err := cmdutil.ParseBytes(opts.TableSize)
		if err != nil {
			return cmdutil.BadInputf("--table-size: %v", err)
		}
		so.TableSize = b
	}
	if opts.Verbose {
		so.Log = log.New(opts.IO.ErrOut, "kalah serve: ", log.Ltime)
	}
	host, _, err := net.SplitHostPort(opts.Addr)
	if err != nil {
		return cmdutil.BadInputf("--addr %q: %v", opts.Addr, err)
	}
	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		return err
	}
	if !loopback(host) {
		fmt.Fprintf(opts.IO.ErrOut, "kalah serve: warning: listening on %s, not only on this machine: anyone who can reach it can use the page and make this machine solve\n", ln.Addr())
	}
	url := "http://" + ln.Addr().String() + "/"
	fmt.Fprintf(opts.IO.ErrOut, "kalah serve: the explorer is at %s (Ctrl-C to stop)\n", url)

	srv := serve.New(so)
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	if opts.Ready != nil {
		opts.Ready(url)
	}
	warmed := make(chan struct{})
	if opts.NoWarm {
		close(warmed)
	} else {
		go func() {
			defer close(warmed)
			warm(ctx, srv, opts.IO)
			if opts.Warmed != nil {
				opts.Warmed()
			}
		}()
	}
	defer func() { <-warmed }() // no word from it after run returns
	if opts.Open {
		if err := openBrowser(url); err != nil {
			fmt.Fprintf(opts.IO.ErrOut, "kalah serve: could not open a browser (%v); open %s yourself\n", err, url)
		}
	}
	select {
	case err := <-done:
		srv.Close()
		return err
	case <-ctx.Done():
	}
	// Requests still running see their context end: a solve stops with
	// its bounds, and the cache keeps what it proved.
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	hs.Shutdown(sctx)
	if err := srv.Close(); err != nil {
		return fmt.Errorf("closing the cache: %w", err)
	}
	if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// warm opens the session of the page's first game (serve.Server.Warm)
// and says when it is ready, or why it is not.
func warm(ctx context.Context, srv *serve.Server, io *cmdutil.IOStreams) {
	const pits, seeds = 6, 4
	rule := engine.NoEmptyCapture
	w, err := srv.Warm(ctx, pits, seeds, rule)
	switch {
	case err != nil && ctx.Err() != nil:
	case err != nil:
		fmt.Fprintf(io.ErrOut, "kalah serve: warming Kalah(%d,%d) %v: %v (the first request will try again)\n", pits, seeds, rule, err)
	default:
		db := "no endgame database"
		if w.EGDBSeeds >= 0 {
			db = fmt.Sprintf("the %d-seed endgame database", w.EGDBSeeds)
		}
		fmt.Fprintf(io.ErrOut, "kalah serve: Kalah(%d,%d) %v is ready (%s table touched, %s) in %v\n",
			pits, seeds, rule, cmdutil.FormatBytes(w.TableSize), db, w.Took.Round(10*time.Millisecond))
	}
}

// egdbLogger returns the reporter of the server's database builds and
// deepenings.
func egdbLogger(io *cmdutil.IOStreams) func(kalah.EGDBBuild) {
	return cmdutil.EGDBLogger(io.ErrOut, cmdutil.EGDBLogWords{Prefix: "kalah serve", NoEGDB: "--no-egdb serves without",
		Waiting: "the page", NoDeepen: "--egdb-target 0 turns this off", Deepened: "the next search"})
}

// loopback reports whether host names only this machine.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// openBrowser asks the desktop to open url.
func openBrowser(url string) error {
	var c *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		c = exec.Command("open", url)
	case "windows":
		c = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		c = exec.Command("xdg-open", url)
	}
	return c.Start()
}
