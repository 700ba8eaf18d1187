// Package egdbcmd implements "kalah egdb": build, verify, probe, inspect
// and export endgame databases (package egdb).
package egdbcmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/egdb"
	"github.com/kalah-solver/kalah/engine"
	"github.com/spf13/cobra"
)

// NewCmdEgdb returns the egdb command with its subcommands.
func NewCmdEgdb(io *cmdutil.IOStreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "egdb",
		Short: "Build, verify, probe, convert and export endgame databases",
		Long: `Endgame databases hold, for every position with at most a given number of
seeds in the pits (stores excluded) and seeds on both sides, how many of
those seeds the side to move banks under perfect play. There is one file per
seed count ("slice") per pit count and capture rule, under the database
directory (see 'kalah egdb path'). docs/egdb.md explains the design.`,
		Args: cmdutil.UnknownCommand,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(NewCmdBuild(io), NewCmdVerify(io), NewCmdProbe(io), NewCmdStats(io),
		NewCmdExport(io), NewCmdSize(io), NewCmdPath(io), NewCmdConvert(io))
	return cmd
}

// DBFlags name a database: its directory, pit count and rule.
type DBFlags struct {
	Dir  string
	Pits int
	Rule string
}

// addDBFlags registers --egdb and, when withGame, --pits and --rule.
func addDBFlags(cmd *cobra.Command, f *DBFlags, withGame bool) {
	cmd.Flags().StringVar(&f.Dir, "egdb", "", "database directory (default: $XDG_DATA_HOME/kalah/egdb or ~/.local/share/kalah/egdb)")
	if withGame {
		cmd.Flags().IntVar(&f.Pits, "pits", 6, "pits per side, m (1-8)")
		cmd.Flags().StringVar(&f.Rule, "rule", engine.NoEmptyCapture.String(), "capture convention: no-empty-capture or empty-capture")
	}
}

// addRunFlags registers the flags of a long run over a database (build,
// verify): --threads, -q and --json.
func addRunFlags(cmd *cobra.Command, threads *int, quiet, json *bool) {
	cmd.Flags().IntVar(threads, "threads", 0, "threads (default: all cores)")
	cmd.Flags().BoolVarP(quiet, "quiet", "q", false, "no progress bar")
	cmd.Flags().BoolVar(json, "json", false, "print one JSON object instead of text")
}

// dir is --egdb or the default directory.
func (f *DBFlags) dir() (string, error) {
	if f.Dir != "" {
		return f.Dir, nil
	}
	return egdb.DefaultDir()
}

// rules parses --pits and --rule; errors are bad input.
func (f *DBFlags) rules() (engine.Variant, error) {
	c, err := engine.ParseRule(f.Rule)
	if err != nil {
		return engine.Variant{}, cmdutil.BadInput(err)
	}
	r, err := engine.NewVariant(f.Pits, c)
	return r, cmdutil.BadInput(err)
}

// interruptible returns a context cancelled by Ctrl-C or SIGTERM.
func interruptible() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// interrupted maps a cancelled context's error to cmdutil.ErrInterrupted
// (exit code 130), with what was kept.
func interrupted(err error, kept string) error {
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("%w: %s", cmdutil.ErrInterrupted, kept)
	}
	return err
}

// slicesRange writes a list of seed counts compactly: "0..20", "6..8, 11".
func slicesRange(ss []int) string {
	out := ""
	for i := 0; i < len(ss); {
		j := i
		for j+1 < len(ss) && ss[j+1] == ss[j]+1 {
			j++
		}
		if out != "" {
			out += ", "
		}
		if j > i {
			out += fmt.Sprintf("%d..%d", ss[i], ss[j])
		} else {
			out += fmt.Sprint(ss[i])
		}
		i = j + 1
	}
	if out == "" {
		return "none"
	}
	return out
}
