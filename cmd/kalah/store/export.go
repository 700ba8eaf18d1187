package storecmd

import (
	"bufio"
	"fmt"
	"io"
	"strconv"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/internal/outfile"
	"github.com/kalah-solver/kalah/tt"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
	"github.com/spf13/cobra"
)

// ExportOptions are the inputs of one "kalah store export".
type ExportOptions struct {
	IO     *cmdutil.IOStreams
	Store  Flags
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
		Short: "Write the store's proven entries, one row each",
		Long: `Write the store's proven transposition-table entries (every rule and pit count,
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
		Example: `  kalah store export --format jsonl | head
  kalah store export --pits 6 --rule no-empty-capture --format parquet -o store.parquet`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runExport(opts) },
	}
	addFlags(cmd, &opts.Store)
	cmd.Flags().IntVar(&opts.Pits, "pits", 0, "only entries of this pit count (default all)")
	cmd.Flags().StringVar(&opts.Rule, "rule", "", "only entries of this rule: no-empty-capture or empty-capture (default both)")
	cmd.Flags().StringVar(&opts.Format, "format", "jsonl", "jsonl or parquet")
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "", "output file (default: standard output; required for parquet)")
	return cmd
}

// exportRow is one Parquet row.
type exportRow struct {
	Rule     string `parquet:"rule,dict"`
	Pits     int32  `parquet:"pits"`
	Position string `parquet:"position"`
	ToMove   string `parquet:"to_move,dict"`
	Lower    int32  `parquet:"lower"`
	Upper    int32  `parquet:"upper"`
	Move     string `parquet:"move,dict"`
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
	var capture *engine.Capture
	if opts.Rule != "" {
		c, err := engine.ParseCapture(opts.Rule)
		if err != nil {
			return cmdutil.BadInput(err)
		}
		capture = &c
	}
	st, err := opts.Store.open(opts.IO)
	if err != nil {
		return err
	}
	defer st.Close()
	keep := func(r engine.Rules) bool {
		return (opts.Pits == 0 || r.Pits == opts.Pits) && (capture == nil || r.Capture == *capture)
	}
	var rules *engine.Rules
	if opts.Pits != 0 && capture != nil {
		rules = &engine.Rules{Pits: opts.Pits, Capture: *capture}
	}
	row := func(r engine.Rules, k engine.Key, e tt.Entry) exportRow {
		p := engine.Position{Pits: r.Pits, Board: engine.Board{Own: k.Own, Opp: k.Opp}, ToMove: engine.South}
		// A missing bound is the one the seeds on the board give.
		s := p.Board.Seeds()
		lo, hi := e.Lower(), e.Upper()
		if lo == tt.NoLower {
			lo = -s
		}
		if hi == tt.NoUpper {
			hi = s
		}
		return exportRow{Rule: r.Capture.String(), Pits: int32(r.Pits), Position: p.String(), ToMove: "south",
			Lower: int32(lo), Upper: int32(hi), Move: engine.MoveLetter(engine.South, e.Move())}
	}
	write := func(out io.Writer) error {
		if opts.Format == "parquet" {
			w := parquet.NewGenericWriter[exportRow](out, parquet.Compression(&zstd.Codec{}), parquet.KeyValueMetadata("kalah.store", st.Dir()))
			batch := make([]exportRow, 0, 4096)
			flush := func() error {
				_, err := w.Write(batch)
				batch = batch[:0]
				return err
			}
			err := st.Range(rules, func(r engine.Rules, k engine.Key, e tt.Entry) error {
				if !keep(r) {
					return nil
				}
				batch = append(batch, row(r, k, e))
				if len(batch) == cap(batch) {
					return flush()
				}
				return nil
			})
			if err == nil {
				err = flush()
			}
			if err != nil {
				return err
			}
			return w.Close()
		}
		bw := bufio.NewWriterSize(out, 1<<16)
		var line []byte
		err := st.Range(rules, func(r engine.Rules, k engine.Key, e tt.Entry) error {
			if !keep(r) {
				return nil
			}
			x := row(r, k, e)
			line = append(line[:0], `{"rule":"`...)
			line = append(line, x.Rule...)
			line = append(line, `","pits":`...)
			line = strconv.AppendInt(line, int64(x.Pits), 10)
			line = append(line, `,"position":"`...)
			line = append(line, x.Position...)
			line = append(line, `","to_move":"south","lower":`...)
			line = strconv.AppendInt(line, int64(x.Lower), 10)
			line = append(line, `,"upper":`...)
			line = strconv.AppendInt(line, int64(x.Upper), 10)
			line = append(line, `,"move":"`...)
			line = append(line, x.Move...)
			line = append(line, "\"}\n"...)
			_, err := bw.Write(line)
			return err
		})
		if err != nil {
			return fmt.Errorf("export: %w", err)
		}
		return bw.Flush()
	}
	if opts.Output == "" {
		return write(opts.IO.Out)
	}
	return outfile.Write(opts.Output, write)
}
