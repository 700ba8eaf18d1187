package egdbcmd

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/egdb"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/results"
	"github.com/spf13/cobra"
)

// VerifyOptions are the inputs of one "kalah egdb verify".
type VerifyOptions struct {
	IO      *cmdutil.IOStreams
	DB      DBFlags
	Sample  float64
	Seed    uint64
	Threads int
	Quiet   bool
	JSON    bool
	Ctx     context.Context // nil: cancelled by Ctrl-C or SIGTERM
	changed func(string) bool
}

// NewCmdVerify returns the verify command.
func NewCmdVerify(io *cmdutil.IOStreams) *cobra.Command {
	opts := &VerifyOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "verify",
		Short: "Check database files and every entry against its children",
		Long: `Check endgame databases: every slice file's header, size and payload
checksum, then the one-ply consistency of its entries: each must equal the
best move's worth recomputed from the stored entries of the positions after
the move. A fully consistent database is the unique solution of the
recurrence, so a full check proves it correct. --sample F checks a random
fraction F of the positions of each slice instead of all.

Without --pits and --rule every database in the directory is checked. Exits
1 if any file is bad or any entry disagrees.

Every file is read and checked every time. Opening a database for a solve
skips the payload check of a file it has checked in full before and that
is unchanged since (the same inode, size and modification time, kept in
checked.json beside the files), so verify is the command for a database on
a disk you doubt.`,
		Example: `  kalah egdb verify
  kalah egdb verify --pits 6 --rule empty-capture --sample 0.01`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.changed = cmd.Flags().Changed
			return runVerify(opts)
		},
	}
	addDBFlags(cmd, &opts.DB, true)
	cmd.Flags().Float64Var(&opts.Sample, "sample", 1, "fraction of the positions to check, in (0, 1]")
	cmd.Flags().Uint64Var(&opts.Seed, "seed", 1, "random seed of --sample")
	addRunFlags(cmd, &opts.Threads, &opts.Quiet, &opts.JSON)
	return cmd
}

type verifyRecord struct {
	Dir       string          `json:"dir"`
	Sample    float64         `json:"sample"`
	Databases []egdb.DirCheck `json:"databases"`
	OK        bool            `json:"ok"`
	Seconds   float64         `json:"seconds"`
	results.Provenance
}

func runVerify(opts *VerifyOptions) error {
	if !(opts.Sample > 0 && opts.Sample <= 1) {
		return cmdutil.BadInputf("--sample must be in (0, 1], got %v", opts.Sample)
	}
	dir, err := opts.DB.dir()
	if err != nil {
		return err
	}
	changed := opts.changed
	if changed == nil {
		changed = func(string) bool { return true }
	}
	var todo []engine.Variant
	if changed("pits") || changed("rule") {
		r, err := opts.DB.rules()
		if err != nil {
			return err
		}
		todo = append(todo, r)
	} else if todo, err = egdb.Databases(dir); err != nil {
		return err
	}
	if len(todo) == 0 {
		return fmt.Errorf("no endgame database in %s", dir)
	}
	ctx := opts.Ctx
	if ctx == nil {
		c, stop := interruptible()
		defer stop()
		ctx = c
	}
	t0 := time.Now()
	rec := verifyRecord{Dir: dir, Sample: opts.Sample, OK: true, Provenance: results.Current()}
	for _, r := range todo {
		c, err := verifyDB(ctx, opts, dir, r)
		if err != nil {
			return interrupted(err, "verification stopped")
		}
		rec.OK = rec.OK && c.OK()
		rec.Databases = append(rec.Databases, c)
	}
	rec.Seconds = time.Since(t0).Seconds()
	if opts.JSON {
		if err := cmdutil.PrintJSON(opts.IO.Out, rec); err != nil {
			return err
		}
	} else {
		printVerify(opts, rec)
	}
	if !rec.OK {
		return errors.New("verification failed")
	}
	return nil
}

func verifyDB(ctx context.Context, opts *VerifyOptions, dir string, r engine.Variant) (egdb.DirCheck, error) {
	vo := egdb.VerifyOptions{Fraction: opts.Sample, Seed: opts.Seed, Threads: opts.Threads}
	var bar *cmdutil.Bar
	if !opts.Quiet {
		vo.Start = func(total int64) {
			if total > 0 {
				bar = cmdutil.NewBar(opts.IO.ErrOut, total, fmt.Sprintf("verify %v", r))
			}
		}
		vo.Progress = func(n int64) {
			if bar != nil {
				bar.Add64(n)
			}
		}
	}
	dc, err := egdb.VerifyDir(ctx, dir, r, vo)
	bar.End(err)
	return dc, err
}

func printVerify(opts *VerifyOptions, rec verifyRecord) {
	w := opts.IO.Out
	for _, c := range rec.Databases {
		fmt.Fprintf(w, "Kalah(%d) %s in %s\n", c.Pits, c.Rule, c.Dir)
		if len(c.Files) == 0 {
			fmt.Fprintf(w, "  no slice files\n")
		}
		var ok []int
		formats := map[string][]int{}
		var bytes int64
		for _, f := range c.Files {
			if f.Error == "" {
				ok = append(ok, f.Seeds)
				formats[f.Format] = append(formats[f.Format], f.Seeds)
				bytes += f.Bytes
			} else {
				fmt.Fprintf(w, "  BAD %s\n", f.Error)
			}
		}
		fmt.Fprintf(w, "  files intact (header, size, checksum): slices %s", slicesRange(ok))
		for _, f := range []string{"packed", "byte"} {
			if len(formats[f]) > 0 {
				fmt.Fprintf(w, "; %s %s", f, slicesRange(formats[f]))
			}
		}
		fmt.Fprintf(w, "; %s bytes\n", results.Group(bytes))
		for _, s := range c.Slices {
			if s.Mismatches == 0 {
				continue
			}
			fmt.Fprintf(w, "  slice %d: %d of %d checked entries disagree with their children\n", s.Seeds, s.Mismatches, s.Checked)
			for _, m := range s.Examples {
				p := engine.Position{Pits: c.Pits, Board: m.Board, ToMove: engine.South}
				fmt.Fprintf(w, "    rank %d, position %s (south to move): stored %d, children give %d\n", m.Rank, p, m.Stored, m.Recomputed)
			}
		}
		what := "every entry"
		if rec.Sample < 1 {
			what = fmt.Sprintf("a %g sample", rec.Sample)
		}
		fmt.Fprintf(w, "  consistency, %s of slices 0..%d: %s positions checked, %s mismatches\n", what, len(c.Slices)-1, results.Group(c.Checked), results.Group(c.Mismatches))
	}
	verdict := "OK"
	if !rec.OK {
		verdict = "FAILED"
	}
	fmt.Fprintf(w, "%s in %.1f s\n", verdict, rec.Seconds)
}
