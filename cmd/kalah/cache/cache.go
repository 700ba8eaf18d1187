// Package cachecmd implements "kalah cache": inspect, export and compact
// the cache, the table of proven results on disk (package persist).
package cachecmd

import (
	"fmt"
	"io"
	"log"
	"os"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/persist"
	"github.com/kalah-solver/kalah/results"
	"github.com/spf13/cobra"
)

// NewCmdCache returns the cache command with its subcommands.
func NewCmdCache(io *cmdutil.IOStreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "cache",
		Short: "Inspect, export and compact the cache of proven results",
		Long: `The cache keeps the proven results of 'kalah solve' across runs: the
transposition-table entries that were expensive to prove, and the whole
answer of every position solved to the end (a root record), so that a solve
interrupted by Ctrl-C resumes where it stopped and a repeated solve answers
at once. It is a BadgerDB directory shared by every rule and pit count (see
'kalah cache path'); deleting it loses nothing but time. docs/formats.md
describes its records.`,
		Args: cmdutil.UnknownCommand,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(NewCmdStats(io), NewCmdExport(io), NewCmdGC(io), NewCmdPath(io))
	return cmd
}

// Flags are what every cache subcommand takes.
type Flags struct {
	Dir     string
	Verbose bool
}

func addFlags(cmd *cobra.Command, f *Flags) {
	addDirFlag(cmd, f)
	cmd.Flags().BoolVarP(&f.Verbose, "verbose", "v", false, "log the cache's options on standard error")
}

// addDirFlag adds --cache, and --store, its deprecated name, bound to the
// same directory.
func addDirFlag(cmd *cobra.Command, f *Flags) {
	cmd.Flags().StringVar(&f.Dir, "cache", "", cmdutil.CacheDirHelp)
	cmdutil.DeprecatedAlias(cmd, "store", "cache")
}

// dir is --cache or the default directory.
func (f *Flags) dir() (string, error) {
	if f.Dir != "" {
		return f.Dir, nil
	}
	return persist.DefaultDir()
}

// open opens an existing cache for maintenance (every rule).
func (f *Flags) open(ios *cmdutil.IOStreams) (*persist.Cache, error) {
	dir, err := f.dir()
	if err != nil {
		return nil, err
	}
	var lg *log.Logger
	if f.Verbose {
		lg = log.New(ios.ErrOut, "kalah cache: ", 0)
	}
	if err := persist.MigrateDefault(dir, lg); err != nil {
		return nil, err
	}
	if _, err := os.Stat(dir); os.IsNotExist(err) {
		return nil, fmt.Errorf("no cache at %s yet ('kalah solve' creates it)", dir)
	}
	return persist.Open(dir, engine.Variant{}, persist.Options{Log: lg})
}

// StatsOptions are the inputs of one "kalah cache stats".
type StatsOptions struct {
	IO    *cmdutil.IOStreams
	Cache Flags
	JSON  bool
}

// NewCmdStats returns the stats command.
func NewCmdStats(io *cmdutil.IOStreams) *cobra.Command {
	opts := &StatsOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "stats",
		Short: "Count the cache's entries by rule and pits, and its disk size",
		Long: `Count the cache's records by rule and pit count: proven transposition-table
entries and root records (positions solved to the end), and measure the
directory: every file's bytes, and BadgerDB's own estimate of its tables
(LSM) and value log. Scans every key: a few seconds per ten million entries.`,
		Example: `  kalah cache stats
  kalah cache stats --cache /data/kalah-cache --json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runStats(opts) },
	}
	addFlags(cmd, &opts.Cache)
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print one JSON object instead of text")
	return cmd
}

type countRecord struct {
	Rule    string `json:"rule"`
	Pits    int    `json:"pits"`
	Entries int64  `json:"entries"`
	Roots   int64  `json:"roots"`
	Resume  int64  `json:"resume"`
}

type statsRecord struct {
	Dir       string        `json:"dir"`
	Counts    []countRecord `json:"counts"`
	Entries   int64         `json:"entries"`
	Roots     int64         `json:"roots"`
	Resume    int64         `json:"resume"`
	DiskBytes int64         `json:"disk_bytes"`
	LSMBytes  int64         `json:"lsm_bytes"`
	VlogBytes int64         `json:"vlog_bytes"`
	results.Provenance
}

func runStats(opts *StatsOptions) error {
	st, err := opts.Cache.open(opts.IO)
	if err != nil {
		return err
	}
	defer st.Close()
	s, err := st.Stats()
	if err != nil {
		return err
	}
	rec := statsRecord{Dir: st.Dir(), Counts: []countRecord{}, DiskBytes: s.DiskBytes, LSMBytes: s.LSMBytes, VlogBytes: s.VlogBytes, Provenance: results.Current()}
	for _, c := range s.Counts {
		rec.Counts = append(rec.Counts, countRecord{Rule: c.Variant.Rule.String(), Pits: c.Variant.Pits, Entries: c.Entries, Roots: c.Roots, Resume: c.Resume})
		rec.Entries += c.Entries
		rec.Roots += c.Roots
		rec.Resume += c.Resume
	}
	if err := st.Close(); err != nil {
		return err
	}
	if opts.JSON {
		return cmdutil.PrintJSON(opts.IO.Out, rec)
	}
	return printStats(opts.IO.Out, &rec)
}

func printStats(w io.Writer, rec *statsRecord) error {
	fmt.Fprintf(w, "cache %s\n", rec.Dir)
	fmt.Fprintf(w, "%-17s %4s %14s %8s %10s\n", "rule", "pits", "entries", "roots", "resume")
	for _, c := range rec.Counts {
		fmt.Fprintf(w, "%-17s %4d %14d %8d %10d\n", c.Rule, c.Pits, c.Entries, c.Roots, c.Resume)
	}
	fmt.Fprintf(w, "%-17s %4s %14d %8d %10d\n", "total", "", rec.Entries, rec.Roots, rec.Resume)
	_, err := fmt.Fprintf(w, "on disk %d bytes (%.1f MiB); BadgerDB: tables %d, value log %d bytes\n",
		rec.DiskBytes, float64(rec.DiskBytes)/(1<<20), rec.LSMBytes, rec.VlogBytes)
	return err
}

// GCOptions are the inputs of one "kalah cache gc".
type GCOptions struct {
	IO    *cmdutil.IOStreams
	Cache Flags
}

// NewCmdGC returns the gc command.
func NewCmdGC(io *cmdutil.IOStreams) *cobra.Command {
	opts := &GCOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "gc",
		Short: "Compact the cache and remove checkpoints no solve will load",
		Long: `Compact the cache: merge BadgerDB's tables into one level (which drops the
older versions of rewritten entries) and rewrite the value-log files that are
mostly garbage. Prints the size on disk before and after. Needs the cache to
itself: it fails while a solve uses it.

It also deletes the checkpoints (the cache's resume/ directory) that no solve
will load: those of positions the cache holds a root record of (solved to
the end), those this kalah cannot read (another format, a header that does
not match the file's name, the wrong size) and the temporary files of
checkpoint writes cut short. The checkpoints of unfinished solves are kept,
however old; it prints how many it removed and kept.`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runGC(opts) },
	}
	addFlags(cmd, &opts.Cache)
	return cmd
}

func runGC(opts *GCOptions) error {
	st, err := opts.Cache.open(opts.IO)
	if err != nil {
		return err
	}
	defer st.Close()
	before, err := st.Stats()
	if err != nil {
		return err
	}
	pruned, err := st.PruneCheckpoints()
	if err != nil {
		return err
	}
	n, err := st.GC()
	if err != nil {
		return err
	}
	if err := st.Close(); err != nil {
		return err
	}
	// Sizes after the close, which writes the last tables out.
	st, err = opts.Cache.open(opts.IO)
	if err != nil {
		return err
	}
	after, err := st.Stats()
	st.Close()
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.Out, "cache %s: flattened, %d value-log files rewritten; on disk %d -> %d bytes\n", st.Dir(), n, before.DiskBytes, after.DiskBytes)
	_, err = fmt.Fprintf(opts.IO.Out, "checkpoints: %d removed (%d of solved positions, %d unreadable, %d cut short), %d of unfinished solves kept\n",
		pruned.Removed(), pruned.Solved, pruned.Unreadable, pruned.Partial, pruned.Kept)
	return err
}

// PathOptions are the inputs of one "kalah cache path".
type PathOptions struct {
	IO    *cmdutil.IOStreams
	Cache Flags
}

// NewCmdPath returns the path command.
func NewCmdPath(io *cmdutil.IOStreams) *cobra.Command {
	opts := &PathOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "path",
		Short: "Print the cache's directory",
		Long: `Print the directory of the cache: $XDG_DATA_HOME/kalah/cache when
XDG_DATA_HOME is set (and absolute), else ~/.local/share/kalah/cache.
'kalah solve' and every cache command take --cache DIR to use another.`,
		Example: `  kalah cache path
  du -sh "$(kalah cache path)"`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dir, err := opts.Cache.dir()
			if err != nil {
				return err
			}
			_, err = fmt.Fprintln(opts.IO.Out, dir)
			return err
		},
	}
	addDirFlag(cmd, &opts.Cache)
	return cmd
}
