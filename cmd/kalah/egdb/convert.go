package egdbcmd

import (
	"context"
	"fmt"
	"time"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/egdb"
	"github.com/kalah-solver/kalah/results"
	"github.com/spf13/cobra"
)

// ConvertOptions are the inputs of one "kalah egdb convert".
type ConvertOptions struct {
	IO    *cmdutil.IOStreams
	DB    DBFlags
	To    string
	Quiet bool
	JSON  bool
	Ctx   context.Context // nil: cancelled by Ctrl-C or SIGTERM
}

// NewCmdConvert returns the convert command.
func NewCmdConvert(io *cmdutil.IOStreams) *cobra.Command {
	opts := &ConvertOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "convert",
		Short: "Rewrite a database's files in the packed or the byte format",
		Long: `Rewrite every slice file of the database of --pits and --rule in the format
--to: packed (about 4.1 bits a position, format version 2, the default of
'kalah egdb build') or byte (one byte a position, version 1, which builds
before the packed format read). Each file is loaded with every check,
re-encoded, decoded again and compared entry by entry with the original,
then written under a temporary name and renamed over the old file. Files
already in the format are left alone, so an interrupted conversion (Ctrl-C)
resumes when run again, and a database with files of both formats opens
and probes like any other. One line per slice on standard error, unless -q.`,
		Example: `  kalah egdb convert --pits 6 --rule no-empty-capture
  kalah egdb convert --pits 6 --rule empty-capture --to byte --json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runConvert(opts) },
	}
	addDBFlags(cmd, &opts.DB, true)
	cmd.Flags().StringVar(&opts.To, "to", "packed", "format to write: packed or byte")
	cmd.Flags().BoolVarP(&opts.Quiet, "quiet", "q", false, "no line per slice")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print one JSON object instead of text")
	return cmd
}

type convertRecord struct {
	Rule       string               `json:"rule"`
	Pits       int                  `json:"pits"`
	Dir        string               `json:"dir"`
	To         string               `json:"to"`
	Slices     []egdb.ConvertReport `json:"slices"`
	Converted  int                  `json:"converted"`
	FileBytes  int64                `json:"file_bytes"` // all slice files after
	BytesSaved int64                `json:"bytes_saved"`
	Seconds    float64              `json:"seconds"`
	results.Provenance
}

func runConvert(opts *ConvertOptions) error {
	rules, err := opts.DB.rules()
	if err != nil {
		return err
	}
	enc, err := egdb.ParseEncoding(opts.To)
	if err != nil {
		return cmdutil.BadInputf("--to: %v", err)
	}
	dir, err := opts.DB.dir()
	if err != nil {
		return err
	}
	ctx := opts.Ctx
	if ctx == nil {
		c, stop := interruptible()
		defer stop()
		ctx = c
	}
	rec := convertRecord{Rule: rules.Rule.String(), Pits: rules.Pits, Dir: egdb.RuleDir(dir, rules), To: opts.To,
		Slices: []egdb.ConvertReport{}, Provenance: results.Current()}
	t0 := time.Now()
	err = egdb.Convert(ctx, dir, rules, enc, func(r egdb.ConvertReport) {
		rec.Slices = append(rec.Slices, r)
		rec.FileBytes += r.FileBytes
		rec.BytesSaved += r.BytesSaved
		if r.Converted {
			rec.Converted++
		}
		if !opts.Quiet {
			what := "already " + r.To
			if r.Converted {
				what = fmt.Sprintf("%s -> %s, %s bytes (%.2f bits a position), %d exceptions, %.1f s", r.From, r.To,
					results.Group(r.FileBytes), 8*float64(r.FileBytes)/float64(max(r.Positions, 1)), r.Exceptions, r.Seconds)
			}
			fmt.Fprintf(opts.IO.ErrOut, "slice %d: %s\n", r.Seeds, what)
		}
	})
	rec.Seconds = time.Since(t0).Seconds()
	if err != nil {
		return interrupted(err, fmt.Sprintf("%d slices converted and saved; run the same command to resume", rec.Converted))
	}
	if opts.JSON {
		return cmdutil.PrintJSON(opts.IO.Out, rec)
	}
	w := opts.IO.Out
	fmt.Fprintf(w, "endgame database %v in %s: %d of %d slice files converted to %s\n", rules, rec.Dir, rec.Converted, len(rec.Slices), rec.To)
	fmt.Fprintf(w, "%s bytes on disk (%s saved) in %.1f s\n", results.Group(rec.FileBytes), results.Group(rec.BytesSaved), rec.Seconds)
	return nil
}
