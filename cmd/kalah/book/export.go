package bookcmd

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/book"
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/internal/outfile"
	"github.com/spf13/cobra"
)

// ExportOptions are the inputs of one "kalah book export".
type ExportOptions struct {
	IO     *cmdutil.IOStreams
	Game   cmdutil.GameFlags
	Plies  int
	Cache  string
	Output string
	JSON   bool
}

// NewCmdExport returns "kalah book export".
func NewCmdExport(io *cmdutil.IOStreams) *cobra.Command {
	opts := &ExportOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Write the book in the cache to a book file, as built into kalah",
		Long: `Write the cache's root records of every position within --plies of the
start of Kalah(--pits, --seeds) under --rule to a book file: a header line
and one result record a line, start first and ply by ply,
gzip-compressed (docs/formats.md). Each record keeps the provenance of the
solve that made it.

The records are checked first with no search (each holds up for its
position, and each move's value agrees with the record of the position it
leads to); a position the cache does not answer is an error that names
it: run 'kalah book build' with the same flags first.

-o names the file, or a directory to write it into under its usual name,
<pits>-<seeds>-<rule>.jsonl.gz (default: the current directory). The
files in book/data of the source tree are built into kalah: the session
answers from them what its cache does not hold.`,
		Example: `  kalah book export --pits 6 --seeds 4 --rule empty-capture --plies 3 \
      --cache /tmp/cache -o book/data
  kalah book export --pits 4 --seeds 3 --plies 6 -o /tmp/4-3.jsonl.gz`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runExport(opts) },
	}
	cmdutil.AddGameFlags(cmd, &opts.Game, false)
	f := cmd.Flags()
	f.IntVar(&opts.Plies, "plies", 3, "depth of the book in sowings from the start")
	f.StringVar(&opts.Cache, "cache", "", "cache directory that holds the book (default: $XDG_DATA_HOME/kalah/cache or ~/.local/share/kalah/cache)")
	f.StringVarP(&opts.Output, "output", "o", ".", "book file, or the directory to write it into")
	f.BoolVar(&opts.JSON, "json", false, "print one JSON object instead of text")
	return cmd
}

// exportSummary is the JSON output of an export.
type exportSummary struct {
	book.Header
	File  string `json:"file"`
	Bytes int    `json:"bytes"`
	Cache string `json:"cache"`
}

func runExport(opts *ExportOptions) error {
	if opts.Plies < 0 || opts.Plies > 40 {
		return cmdutil.BadInputf("--plies must be 0..40, got %d", opts.Plies)
	}
	r, _, _, err := opts.Game.Resolve()
	if err != nil {
		return err
	}
	k, err := kalah.Open(kalah.Config{Pits: r.Pits, Seeds: opts.Game.Seeds, Rule: r.Rule, NoEGDB: true, NoBook: true, CacheDir: opts.Cache})
	if err != nil {
		return err
	}
	defer k.Close()
	recs, missing, err := k.BookRecords(opts.Plies)
	if err != nil {
		return err
	}
	if len(missing) > 0 {
		var names []string
		for i, p := range missing {
			if i == 3 {
				names = append(names, "...")
				break
			}
			names = append(names, fmt.Sprintf("%v %v", p, p.ToMove))
		}
		return fmt.Errorf("the cache %s answers %d of the %d positions within %d plies; missing %s: run 'kalah book build --pits %d --seeds %d --rule %s --plies %d --cache %s' first",
			k.CacheDir(), len(recs), len(recs)+len(missing), opts.Plies, strings.Join(names, ", "), r.Pits, opts.Game.Seeds, r.Rule, opts.Plies, k.CacheDir())
	}
	f, err := book.NewFile(r, opts.Game.Seeds, opts.Plies, recs)
	if err != nil {
		return err
	}
	if err := f.Check(); err != nil {
		return fmt.Errorf("the cache's book does not hold up: %w", err)
	}
	var buf bytes.Buffer
	if err := book.Write(&buf, f); err != nil {
		return err
	}
	out := opts.Output
	if st, err := os.Stat(out); err == nil && st.IsDir() {
		out = filepath.Join(out, book.FileName(f.Header))
	}
	if err := outfile.Write(out, func(w io.Writer) error {
		_, err := w.Write(buf.Bytes())
		return err
	}); err != nil {
		return err
	}
	sum := exportSummary{Header: f.Header, File: out, Bytes: buf.Len(), Cache: k.CacheDir()}
	sum.Positions = len(recs)
	if opts.JSON {
		return cmdutil.PrintJSON(opts.IO.Out, sum)
	}
	_, err = fmt.Fprintf(opts.IO.Out, "Kalah(%d,%d) %s: %d positions within %d plies from the cache %s to %s (%d bytes)\n",
		r.Pits, opts.Game.Seeds, r.Rule, sum.Positions, opts.Plies, sum.Cache, out, sum.Bytes)
	return err
}
