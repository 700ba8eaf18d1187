package egdbcmd

import (
	"io"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/egdb/export"
	"github.com/kalah-solver/kalah/internal/outfile"
	"github.com/spf13/cobra"
)

// ExportOptions are the inputs of one "kalah egdb export".
type ExportOptions struct {
	IO     *cmdutil.IOStreams
	DB     DBFlags
	Seeds  int
	Format string
	Output string
}

// NewCmdExport returns the export command.
func NewCmdExport(io *cmdutil.IOStreams) *cobra.Command {
	opts := &ExportOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Write every position of a slice with its value",
		Long: `Write every position of one slice (--seeds seeds in the pits) of the
database of --pits and --rule, in rank order, one row each:

  rank      the position's rank in the slice (0, 1, ...)
  position  the 2m+2 hole counts in the standard order, stores 0
  to_move   always "south": a database position is seen from the mover
  seeds     s, the seeds in the pits
  gain      g, the seeds the mover banks under perfect play
  margin    2g - s, the mover's final store minus the opponent's

as CSV (with a header; the position is quoted), JSON lines or Parquet
(zstd-compressed, row groups of 2^20 rows). The
rows are streamed: memory does not grow with the slice. Output goes to -o
FILE, which appears (or is replaced) only once the export is complete, or
to standard output for csv and jsonl.`,
		Example: `  kalah egdb export --pits 4 --seeds 8 --format csv
  kalah egdb export --seeds 16 --format parquet -o s16.parquet`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runExport(opts) },
	}
	addDBFlags(cmd, &opts.DB, true)
	cmd.Flags().IntVar(&opts.Seeds, "seeds", -1, "the slice: seeds in the pits (required)")
	cmd.Flags().StringVar(&opts.Format, "format", "csv", "csv, jsonl or parquet")
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "", "output file (default: standard output; required for parquet)")
	return cmd
}

func runExport(opts *ExportOptions) error {
	rules, err := opts.DB.rules()
	if err != nil {
		return err
	}
	if opts.Seeds < 0 || opts.Seeds > 255 {
		return cmdutil.BadInputf("--seeds must be given, 0..255")
	}
	switch opts.Format {
	case "csv", "jsonl":
	case "parquet":
		if opts.Output == "" {
			return cmdutil.BadInputf("--format parquet needs -o FILE")
		}
	default:
		return cmdutil.BadInputf("--format %q: want csv, jsonl or parquet", opts.Format)
	}
	dir, err := opts.DB.dir()
	if err != nil {
		return err
	}
	write := func(w io.Writer) error { return export.Slice(w, opts.Format, dir, rules, opts.Seeds) }
	if opts.Output == "" {
		return write(opts.IO.Out)
	}
	return outfile.Write(opts.Output, write)
}
