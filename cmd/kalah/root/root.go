// Package root assembles the kalah command tree.
package root

import (
	benchcmd "github.com/kalah-solver/kalah/cmd/kalah/bench"
	bookcmd "github.com/kalah-solver/kalah/cmd/kalah/book"
	campaigncmd "github.com/kalah-solver/kalah/cmd/kalah/campaign"
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	egdbcmd "github.com/kalah-solver/kalah/cmd/kalah/egdb"
	graphcmd "github.com/kalah-solver/kalah/cmd/kalah/graph"
	movecmd "github.com/kalah-solver/kalah/cmd/kalah/move"
	perftcmd "github.com/kalah-solver/kalah/cmd/kalah/perft"
	playcmd "github.com/kalah-solver/kalah/cmd/kalah/play"
	reportcmd "github.com/kalah-solver/kalah/cmd/kalah/report"
	servecmd "github.com/kalah-solver/kalah/cmd/kalah/serve"
	showcmd "github.com/kalah-solver/kalah/cmd/kalah/show"
	solvecmd "github.com/kalah-solver/kalah/cmd/kalah/solve"
	storecmd "github.com/kalah-solver/kalah/cmd/kalah/store"
	tablecmd "github.com/kalah-solver/kalah/cmd/kalah/table"
	verifylinecmd "github.com/kalah-solver/kalah/cmd/kalah/verifyline"
	workercmd "github.com/kalah-solver/kalah/cmd/kalah/worker"
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
		// Bad flags, unknown commands and stray arguments are bad input
		// (exit code 2); bare "kalah" prints the help.
		Args: cmdutil.UnknownCommand,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.SetFlagErrorFunc(cmdutil.FlagError)
	addProfileFlags(cmd)
	cmd.SetIn(io.In)
	cmd.SetOut(io.Out)
	cmd.SetErr(io.ErrOut)
	// Subcommands: one package each, registered here.
	cmd.AddCommand(showcmd.NewCmdShow(io))
	cmd.AddCommand(movecmd.NewCmdMove(io))
	cmd.AddCommand(perftcmd.NewCmdPerft(io))
	cmd.AddCommand(benchcmd.NewCmdBench(io))
	cmd.AddCommand(egdbcmd.NewCmdEgdb(io))
	cmd.AddCommand(solvecmd.NewCmdSolve(io))
	cmd.AddCommand(storecmd.NewCmdStore(io))
	cmd.AddCommand(tablecmd.NewCmdTable(io))
	cmd.AddCommand(bookcmd.NewCmdBook(io))
	cmd.AddCommand(graphcmd.NewCmdGraph(io))
	cmd.AddCommand(verifylinecmd.NewCmdVerifyLine(io))
	cmd.AddCommand(reportcmd.NewCmdReport(io))
	cmd.AddCommand(servecmd.NewCmdServe(io))
	cmd.AddCommand(playcmd.NewCmdPlay(io))
	cmd.AddCommand(campaigncmd.NewCmdCampaign(io))
	cmd.AddCommand(workercmd.NewCmdWorker(io))
	return cmd
}
