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
	"github.com/spf13/cobra"
)

// BuildOptions are the inputs of one "kalah egdb build".
type BuildOptions struct {
	IO       *cmdutil.IOStreams
	DB       DBFlags
	MaxSeeds int
	Format   string
	MaxMem   string // --max-memory; "": the memory available
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
left (where standard error is not a terminal, a line at every tenth); the
summary gives positions, bytes and seconds.

--format packed (the default) stores about 4.1 bits a position (format
version 2); --format byte one byte a position (version 1, which older
builds read). Existing files keep their format, whatever --format says;
'kalah egdb convert' rewrites them.

Deeper databases make the search faster and cost time, disk and memory
(six pits, packed, one rule): 20 seeds take seconds on two cores and
110 MB; 28 seeds minutes and 2.9 GB; 32 seeds 11.2 GB; 34 seeds 20.7 GB,
within an hour or two, and 2-3 GiB of the build's own memory beside the
page cache. With 34 seeds every move's value of Kalah(6,4) takes a
fraction of a second. The measured times, by machine: docs/benchmarks.md
("Database build", "Solve cost by database depth").

Memory: a slice of under 2^27 positions (six pits: up to 21 seeds) is
built whole, one byte a position and then its packed copy. A larger
slice, or one that would not fit in --max-memory whole, is built in
parts: pairs of sub-slices (the mover holding a seeds, and s-a) that
depend on nothing else in the slice, at one byte a position for the part
under way only (six pits: 0.8 GB for slice 32, 1.4 GB for 34, 2.2 GB for
36). Each finished part is saved in s<S>.bytes.tmp beside the slice
files (one byte a position: disk space as large as the slice, 10.1 GB for
slice 34) and recorded in s<S>.parts.json, so an interrupted slice
resumes from its last finished part; the parts are then packed into
s<S>.egdb, the same file a whole build writes, and the two files removed.
A damaged or mismatched s<S>.parts.json or s<S>.bytes.tmp stops the build
with an error naming it (remove both to build the slice anew). The slices
below are mapped from their files, so the kernel keeps them in its page
cache as far as memory allows. --max-memory (default: the memory
available, MemAvailable, or less if the process's control group, e.g. a
container's --memory, leaves less) is checked before each slice: one
whose largest part would not fit stops the build with an error that says
so, keeping every slice and part already written.`,
		Example: `  kalah egdb build --max-seeds 20
  kalah egdb build --pits 6 --rule empty-capture --max-seeds 24 --threads 2
  kalah egdb build --pits 6 --max-seeds 32
  kalah egdb build --pits 6 --max-seeds 34 --max-memory 4GiB
  kalah egdb build --pits 4 --max-seeds 16 --egdb /tmp/egdb --json
  kalah egdb build --max-seeds 20 --format byte`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runBuild(opts) },
	}
	addDBFlags(cmd, &opts.DB, true)
	cmd.Flags().IntVar(&opts.MaxSeeds, "max-seeds", 20, "largest seed count (stores excluded) to build, 0..255")
	cmd.Flags().StringVar(&opts.Format, "format", "packed", "format of the slices built: packed (4 bits a position) or byte")
	cmd.Flags().StringVar(&opts.MaxMem, "max-memory", "", "memory a slice may take while it is built, e.g. 8GiB (default: the memory available)")
	addRunFlags(cmd, &opts.Threads, &opts.Quiet, &opts.JSON)
	return cmd
}

// buildRecord is the JSON output of build.
type buildRecord struct {
	Rule               string  `json:"rule"`
	Pits               int     `json:"pits"`
	MaxSeeds           int     `json:"max_seeds"`
	Dir                string  `json:"dir"`
	Format             string  `json:"format"`   // of the slices built
	Built              []int   `json:"built"`    // slices computed by this run
	InParts            []int   `json:"in_parts"` // those of them built in parts
	Loaded             []int   `json:"loaded"`   // slices whose files existed
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
	maxMem, err := cmdutil.ParseBytes(opts.MaxMem)
	if err != nil {
		return cmdutil.BadInputf("--max-memory: %v", err)
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
	var bar *cmdutil.Bar
	if !opts.Quiet && todo > 0 {
		bar = cmdutil.NewBar(opts.IO.ErrOut, todo, fmt.Sprint(rules))
	}
	rec := buildRecord{Rule: rules.Rule.String(), Pits: rules.Pits, MaxSeeds: opts.MaxSeeds, Dir: egdb.RuleDir(dir, rules), Format: opts.Format,
		Built: []int{}, InParts: []int{}, Loaded: []int{}, Threads: threads, Provenance: results.Current()}
	// partsDone and partsOf: the finished parts of the slice under way.
	partsDone, partsOf, partsSlice := 0, 0, -1
	build := egdb.Options{Threads: threads, Encoding: enc, MaxMemory: maxMem, SliceDone: func(r egdb.SliceReport) {
		rec.Positions += r.Positions
		rec.Bytes += egdb.HeaderSize + r.Bytes
		if r.Built {
			rec.Built = append(rec.Built, r.Seeds)
			rec.PositionsBuilt += r.Positions
			rec.BuildSeconds += r.Seconds
			if r.Parts > 0 {
				rec.InParts = append(rec.InParts, r.Seeds)
			}
		} else {
			rec.Loaded = append(rec.Loaded, r.Seeds)
		}
		partsDone, partsSlice = 0, -1
	}, PartDone: func(r egdb.PartReport) {
		if r.Seeds != partsSlice {
			partsDone, partsSlice = 0, r.Seeds
		}
		partsDone, partsOf = partsDone+1, r.Parts
	}}
	if bar != nil {
		build.Progress = func(n int64) { bar.Add64(n) }
	}
	t0 := time.Now()
	db, err := egdb.BuildDir(ctx, dir, rules, opts.MaxSeeds, build)
	rec.Seconds = time.Since(t0).Seconds()
	bar.End(err)
	if err != nil {
		kept := fmt.Sprintf("slices %s are saved", slicesRange(slices.Sorted(slices.Values(append(slices.Clone(rec.Loaded), rec.Built...)))))
		if partsDone > 0 {
			kept += fmt.Sprintf(", and %d of the %d parts of slice %d", partsDone, partsOf, partsSlice)
		}
		return interrupted(err, kept+"; run the same command to resume")
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
	inParts := ""
	if len(rec.InParts) > 0 {
		inParts = fmt.Sprintf(" (%s in parts)", slicesRange(rec.InParts))
	}
	fmt.Fprintf(w, "built %s%s; already there %s\n", slicesRange(rec.Built), inParts, slicesRange(rec.Loaded))
	fmt.Fprintf(w, "positions %s (%s built, %s format), %s bytes on disk, %.2f bits a position\n", results.Group(rec.Positions), results.Group(rec.PositionsBuilt), rec.Format, results.Group(rec.Bytes), 8*float64(rec.Bytes)/float64(max(rec.Positions, 1)))
	fmt.Fprintf(w, "%.1f s (%.1f s building), %.2f M positions/s, %d threads\n", rec.Seconds, rec.BuildSeconds, rec.PositionsPerSecond/1e6, threads)
	return nil
}
