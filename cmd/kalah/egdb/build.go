package egdbcmd

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/egdb"
	"github.com/kalah-solver/kalah/results"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
)

// BuildOptions are the inputs of one "kalah egdb build".
type BuildOptions struct {
	IO       *cmdutil.IOStreams
	DB       DBFlags
	MaxSeeds int
	Format   string
	Threads  int
	Quiet    bool
	JSON     bool
	Ctx      context.Context // nil: cancelled by Ctrl-C or SIGTERM
}

// NewCmdBuild returns the build command.
func NewCmdBuild(io *cmdutil.IOStreams) *cobra.Command {
	opts := &BuildOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "build",
		Short: "Build the missing slices of an endgame database",
		Long: `Build the endgame database of --pits and --rule up to --max-seeds seeds in
the pits: one file per seed count, each written under a temporary name and
renamed when complete. Slices whose files exist are loaded and checked, not
rebuilt, so an interrupted build (Ctrl-C) resumes where it stopped. A
progress bar on standard error shows positions per second and the time
left; the summary gives positions, bytes and seconds.

--format packed (the default) stores about 4.1 bits a position (format
version 2); --format byte one byte a position (version 1, which older
builds read). Existing files keep their format, whatever --format says;
'kalah egdb convert' rewrites them.

Deeper databases make the search faster and cost time, disk and memory
(six pits, two cores, packed): 20 seeds take about 20 s and 110 MB; 28
seeds about 20 minutes and 2.9 GB a rule; 32 seeds 11.2 GB a rule, slices
29-32 about 50 minutes on top of 28. With 32 seeds the value of Kalah(6,5)
takes under two minutes (docs/egdb.md, docs/benchmarks.md).

Memory: the slice being built takes one byte a position and then its
packed copy, about 8 GiB for slice 32 of six pits (estimated from its
size; measured only to 24 seeds); the slices below it are mapped from
their files, so the kernel keeps them in its page cache as far as memory
allows. Before each slice the build compares what the slice needs with
the memory available (MemAvailable, or less if the process's control
group, e.g. a container's --memory, leaves less) and, if it would not
fit, stops with an error that says so, keeping every slice already
written; a later run with more memory free resumes there.`,
		Example: `  kalah egdb build --max-seeds 20
  kalah egdb build --pits 6 --rule empty-capture --max-seeds 24 --threads 2
  kalah egdb build --pits 6 --max-seeds 32
  kalah egdb build --pits 4 --max-seeds 16 --egdb /tmp/egdb --json
  kalah egdb build --max-seeds 20 --format byte`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runBuild(opts) },
	}
	addDBFlags(cmd, &opts.DB, true)
	cmd.Flags().IntVar(&opts.MaxSeeds, "max-seeds", 20, "largest seed count (stores excluded) to build, 0..255")
	cmd.Flags().StringVar(&opts.Format, "format", "packed", "format of the slices built: packed (4 bits a position) or byte")
	addRunFlags(cmd, &opts.Threads, &opts.Quiet, &opts.JSON)
	return cmd
}

// buildRecord is the JSON output of build.
type buildRecord struct {
	Rule               string  `json:"rule"`
	Pits               int     `json:"pits"`
	MaxSeeds           int     `json:"max_seeds"`
	Dir                string  `json:"dir"`
	Format             string  `json:"format"` // of the slices built
	Built              []int   `json:"built"`  // slices computed by this run
	Loaded             []int   `json:"loaded"` // slices whose files existed
	Positions          int64   `json:"positions"`
	PositionsBuilt     int64   `json:"positions_built"`
	Bytes              int64   `json:"bytes"` // all slice files, headers included
	Seconds            float64 `json:"seconds"`
	BuildSeconds       float64 `json:"build_seconds"` // computing and writing the built slices
	PositionsPerSecond float64 `json:"positions_per_second"`
	Threads            int     `json:"threads"`
	results.Provenance
}

func runBuild(opts *BuildOptions) error {
	rules, err := opts.DB.rules()
	if err != nil {
		return err
	}
	if opts.MaxSeeds < 0 || opts.MaxSeeds > 255 {
		return cmdutil.BadInputf("--max-seeds must be 0..255, got %d", opts.MaxSeeds)
	}
	if opts.Format == "" {
		opts.Format = "packed"
	}
	enc, err := egdb.ParseEncoding(opts.Format)
	if err != nil {
		return cmdutil.BadInputf("--format: %v", err)
	}
	if opts.Threads < 0 {
		return cmdutil.BadInputf("--threads must be at least 1, got %d", opts.Threads)
	}
	x, err := egdb.NewIndex(rules.Pits, opts.MaxSeeds)
	if err != nil {
		return cmdutil.BadInput(err)
	}
	dir, err := opts.DB.dir()
	if err != nil {
		return err
	}
	threads := opts.Threads
	if threads == 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	var todo int64
	for _, s := range egdb.Missing(dir, rules, opts.MaxSeeds) {
		todo += x.Size(s)
	}
	ctx := opts.Ctx
	if ctx == nil {
		c, stop := interruptible()
		defer stop()
		ctx = c
	}
	var bar *progressbar.ProgressBar
	if !opts.Quiet && todo > 0 {
		bar = cmdutil.NewBar(opts.IO.ErrOut, todo, fmt.Sprint(rules))
	}
	rec := buildRecord{Rule: rules.Capture.String(), Pits: rules.Pits, MaxSeeds: opts.MaxSeeds, Dir: egdb.RuleDir(dir, rules), Format: opts.Format,
		Built: []int{}, Loaded: []int{}, Threads: threads, Provenance: results.Current()}
	build := egdb.Options{Threads: threads, Encoding: enc, SliceDone: func(r egdb.SliceReport) {
		rec.Positions += r.Positions
		rec.Bytes += egdb.HeaderSize + r.Bytes
		if r.Built {
			rec.Built = append(rec.Built, r.Seeds)
			rec.PositionsBuilt += r.Positions
			rec.BuildSeconds += r.Seconds
		} else {
			rec.Loaded = append(rec.Loaded, r.Seeds)
		}
	}}
	if bar != nil {
		build.Progress = func(n int64) { bar.Add64(n) }
	}
	t0 := time.Now()
	db, err := egdb.BuildDir(ctx, dir, rules, opts.MaxSeeds, build)
	rec.Seconds = time.Since(t0).Seconds()
	if bar != nil && err != nil {
		fmt.Fprintln(opts.IO.ErrOut)
	}
	if err != nil {
		return interrupted(err, fmt.Sprintf("slices %s are saved; run the same command to resume", slicesRange(slices.Sorted(slices.Values(append(slices.Clone(rec.Loaded), rec.Built...))))))
	}
	db.Close()
	if rec.BuildSeconds > 0 {
		rec.PositionsPerSecond = float64(rec.PositionsBuilt) / rec.BuildSeconds
	}
	if opts.JSON {
		return cmdutil.PrintJSON(opts.IO.Out, rec)
	}
	w := opts.IO.Out
	fmt.Fprintf(w, "endgame database %v, slices 0..%d, in %s\n", rules, opts.MaxSeeds, rec.Dir)
	fmt.Fprintf(w, "built %s; already there %s\n", slicesRange(rec.Built), slicesRange(rec.Loaded))
	fmt.Fprintf(w, "positions %s (%s built, %s format), %s bytes on disk, %.2f bits a position\n", results.Group(rec.Positions), results.Group(rec.PositionsBuilt), rec.Format, results.Group(rec.Bytes), 8*float64(rec.Bytes)/float64(max(rec.Positions, 1)))
	fmt.Fprintf(w, "%.1f s (%.1f s building), %.2f M positions/s, %d threads\n", rec.Seconds, rec.BuildSeconds, rec.PositionsPerSecond/1e6, threads)
	return nil
}
