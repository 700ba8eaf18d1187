package egdbcmd

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/egdb"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
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
FILE, or standard output for csv and jsonl.`,
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

// exportRow is one Parquet row.
type exportRow struct {
	Rank     int64  `parquet:"rank"`
	Position string `parquet:"position"`
	ToMove   string `parquet:"to_move,dict"`
	Seeds    int32  `parquet:"seeds"`
	Gain     int32  `parquet:"gain"`
	Margin   int32  `parquet:"margin"`
}

func runExport(opts *ExportOptions) (err error) {
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
	data, release, err := egdb.OpenSlice(dir, rules, opts.Seeds)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("slice %d of the %v database is not built in %s (build it with: kalah egdb build --pits %d --rule %v --max-seeds %d)",
			opts.Seeds, rules, egdb.RuleDir(dir, rules), rules.Pits, rules.Capture, opts.Seeds)
	}
	if err != nil {
		return err
	}
	defer release()
	x, err := egdb.NewIndex(rules.Pits, opts.Seeds)
	if err != nil {
		return err
	}
	var out io.Writer = opts.IO.Out
	if opts.Output != "" {
		f, err := os.Create(opts.Output)
		if err != nil {
			return err
		}
		defer func() {
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}()
		out = f
	}
	m, s := rules.Pits, opts.Seeds
	c := x.Cursor(s, 0, x.Size(s))
	if opts.Format == "parquet" {
		return writeParquet(out, m, s, &c, data)
	}
	bw := bufio.NewWriterSize(out, 1<<16)
	var line []byte
	if opts.Format == "csv" {
		bw.WriteString("rank,position,to_move,seeds,gain,margin\n")
	}
	for c.Next() {
		g := int(data[c.Rank])
		line = line[:0]
		if opts.Format == "csv" {
			line = strconv.AppendInt(line, c.Rank, 10)
			line = append(line, ",\""...)
			line = appendPosition(line, m, c.Own, c.Opp)
			line = append(line, "\",south,"...)
			line = strconv.AppendInt(line, int64(s), 10)
			line = append(line, ',')
			line = strconv.AppendInt(line, int64(g), 10)
			line = append(line, ',')
			line = strconv.AppendInt(line, int64(2*g-s), 10)
		} else {
			line = append(line, `{"rank":`...)
			line = strconv.AppendInt(line, c.Rank, 10)
			line = append(line, `,"position":"`...)
			line = appendPosition(line, m, c.Own, c.Opp)
			line = append(line, `","to_move":"south","seeds":`...)
			line = strconv.AppendInt(line, int64(s), 10)
			line = append(line, `,"gain":`...)
			line = strconv.AppendInt(line, int64(g), 10)
			line = append(line, `,"margin":`...)
			line = strconv.AppendInt(line, int64(2*g-s), 10)
			line = append(line, '}')
		}
		line = append(line, '\n')
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// appendPosition appends the position's standard notation with South to
// move and empty stores, as engine.Position.String writes it.
func appendPosition(b []byte, m int, own, opp uint64) []byte {
	for i := 0; i < m; i++ {
		b = strconv.AppendUint(b, own>>(8*uint(i))&0xff, 10)
		b = append(b, ',')
	}
	b = append(b, "0,"...)
	for i := 0; i < m; i++ {
		b = strconv.AppendUint(b, opp>>(8*uint(i))&0xff, 10)
		b = append(b, ',')
	}
	return append(b, '0')
}

func writeParquet(out io.Writer, m, s int, c *egdb.Cursor, data []byte) error {
	w := parquet.NewGenericWriter[exportRow](out, parquet.MaxRowsPerRowGroup(1<<20), parquet.Compression(&zstd.Codec{}),
		parquet.KeyValueMetadata("kalah.egdb", fmt.Sprintf("pits=%d seeds=%d", m, s)))
	batch := make([]exportRow, 0, 4096)
	var buf []byte
	flush := func() error {
		_, err := w.Write(batch)
		batch = batch[:0]
		return err
	}
	for c.Next() {
		g := int32(data[c.Rank])
		buf = appendPosition(buf[:0], m, c.Own, c.Opp)
		batch = append(batch, exportRow{Rank: c.Rank, Position: string(buf), ToMove: "south", Seeds: int32(s), Gain: g, Margin: 2*g - int32(s)})
		if len(batch) == cap(batch) {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	return w.Close()
}
