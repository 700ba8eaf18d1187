package cachecmd

import (
	"io"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/internal/outfile"
	"github.com/kalah-solver/kalah/persist/export"
	"github.com/spf13/cobra"
)

// ExportOptions are the inputs of one "kalah cache export".
type ExportOptions struct {
	IO     *cmdutil.IOStreams
	Cache  Flags
	Pits   int
	Rule   string
	Format string
	Output string
}

// NewCmdExport returns the export command.
func NewCmdExport(io *cmdutil.IOStreams) *cobra.Command {
	opts := &ExportOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Write the cache's proven entries, one row each",
		Long: `Write the cache's proven transposition-table entries (every rule and pit count,
or those of --rule and --pits), in key order, one row each:

  rule      the capture convention
  pits      m
  position  the 2m+2 hole counts in the standard order, stores 0: an entry
            does not depend on the stores, and is seen from the mover
  to_move   always "south"
  value     the bound on the final store difference for the mover
  bound     exact, lower (the true value is at least value) or upper (at most)
  move      the best move found, a letter

as JSON lines or Parquet (zstd-compressed). Output goes to -o FILE, or
standard output for jsonl.`,
		Example: `  kalah cache export --format jsonl | head
  kalah cache export --pits 6 --rule no-empty-capture --format parquet \
      -o cache.parquet`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runExport(opts) },
	}
	addFlags(cmd, &opts.Cache)
	cmd.Flags().IntVar(&opts.Pits, "pits", 0, "only entries of this pit count (default all)")
	cmd.Flags().StringVar(&opts.Rule, "rule", "", "only entries of this rule: no-empty-capture or empty-capture (default both)")
	cmd.Flags().StringVar(&opts.Format, "format", "jsonl", "jsonl or parquet")
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "", "output file (default: standard output; required for parquet)")
	return cmd
}

func runExport(opts *ExportOptions) error {
	switch opts.Format {
	case "jsonl":
	case "parquet":
		if opts.Output == "" {
			return cmdutil.BadInputf("--format parquet needs -o FILE")
		}
	default:
		return cmdutil.BadInputf("--format %q: want jsonl or parquet", opts.Format)
	}
	if opts.Pits < 0 || opts.Pits > engine.MaxPits {
		return cmdutil.BadInputf("--pits must be 1..%d", engine.MaxPits)
	}
	var f export.Filter
	f.Pits = opts.Pits
	if opts.Rule != "" {
		c, err := engine.ParseRule(opts.Rule)
		if err != nil {
			return cmdutil.BadInput(err)
		}
		f.Rule = &c
	}
	st, err := opts.Cache.open(opts.IO)
	if err != nil {
		return err
	}
	defer st.Close()
	write := func(w io.Writer) error { return export.Entries(w, opts.Format, st, f) }
	if opts.Output == "" {
		return write(opts.IO.Out)
	}
	return outfile.Write(opts.Output, write)
}
