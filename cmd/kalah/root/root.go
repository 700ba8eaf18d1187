// Package root assembles the kalah command tree.
package root

import (
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/spf13/cobra"
)

// NewCmdRoot returns the kalah command with every subcommand attached.
func NewCmdRoot(io *cmdutil.IOStreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "kalah",
		Short: "Solve Kalah(m,n) exactly under both capture conventions",
		Long: `kalah computes exact perfect-play values and best moves of Kalah(m,n)
positions under both capture conventions (no-empty-capture, the rule sheets'
default, and empty-capture, the convention of Irving, Donkers & Uiterwijk,
"Solving Kalah", 2000), with endgame databases, a persistent transposition
table and a parallel MTD(f) search.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	cmd.SetIn(io.In)
	cmd.SetOut(io.Out)
	cmd.SetErr(io.ErrOut)
	// Subcommands: one package each, registered here.
	return cmd
}
