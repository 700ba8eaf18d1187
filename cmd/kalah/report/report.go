// Package reportcmd implements "kalah report": generate docs/results.md from
// the result records and the published values.
package reportcmd

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/internal/outfile"
	"github.com/kalah-solver/kalah/results"
	"github.com/spf13/cobra"
)

// DefaultOut is where the report goes, relative to the repository root.
const DefaultOut = "docs/results.md"

// Options are the inputs of one "kalah report".
type Options struct {
	IO    *cmdutil.IOStreams
	Data  string
	Out   string // "-" for standard output
	Check bool
}

// NewCmdReport returns the report command.
func NewCmdReport(io *cmdutil.IOStreams) *cobra.Command {
	opts := &Options{IO: io}
	cmd := &cobra.Command{
		Use:   "report",
		Short: "Generate docs/results.md from the records and published values",
		Long: `Generate the results document from the records in --data (the solved start
positions written by 'kalah sweep', one <rule>.jsonl file per rule, and the
game graphs written by 'kalah graph --save' to graph.jsonl, and the open
cells, unfinished with their proven bounds, in open.jsonl) and the published
values embedded in package results, with their sources: both value tables
(a column for every seed count a record has, past the target cells' six),
side by side with the published values and a match column, the opening-move
values, the principal variations and the paper's perfect games, the cells
still open with their bounds and why, the game graph tables (the
paper's Tables 3 to 5), the state-space and endgame-database sizes (Tables 2
and 8), and how each cell was computed.

Every record is checked first (legal principal variation ending at the value,
all opening chains, best chain = value). The output depends only on the
records: the same records give the same bytes. --check compares instead of
writing and fails when the file differs. Run it from the repository root.`,
		Example: `  kalah report
  kalah report --check
  kalah report --out - | less`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return run(opts) },
	}
	cmd.Flags().StringVar(&opts.Data, "data", results.DefaultDir, "results directory")
	cmd.Flags().StringVar(&opts.Out, "out", DefaultOut, "file to write, - for standard output")
	cmd.Flags().BoolVar(&opts.Check, "check", false, "compare with --out instead of writing it; fail if it differs")
	return cmd
}

func run(opts *Options) error {
	doc, err := results.Report(results.Archive{Dir: opts.Data})
	if err != nil {
		return err
	}
	switch {
	case opts.Check:
		old, err := os.ReadFile(opts.Out)
		if err != nil {
			return err
		}
		if !bytes.Equal(old, doc) {
			return fmt.Errorf("%s is out of date with the records in %s: run 'kalah report'", opts.Out, opts.Data)
		}
		fmt.Fprintf(opts.IO.Out, "%s is up to date\n", opts.Out)
		return nil
	case opts.Out == "-":
		_, err := opts.IO.Out.Write(doc)
		return err
	}
	if err := os.MkdirAll(filepath.Dir(opts.Out), 0o755); err != nil {
		return err
	}
	if err := outfile.Write(opts.Out, func(w io.Writer) error { _, err := w.Write(doc); return err }); err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.Out, "wrote %s (%d bytes)\n", opts.Out, len(doc))
	return nil
}
