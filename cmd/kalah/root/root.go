// Package root assembles the kalah command tree.
package root

import (
	"fmt"
	analyzecmd "github.com/kalah-solver/kalah/cmd/kalah/analyze"
	"strings"

	benchcmd "github.com/kalah-solver/kalah/cmd/kalah/bench"
	bookcmd "github.com/kalah-solver/kalah/cmd/kalah/book"
	cachecmd "github.com/kalah-solver/kalah/cmd/kalah/cache"
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
	sweepcmd "github.com/kalah-solver/kalah/cmd/kalah/sweep"
	versioncmd "github.com/kalah-solver/kalah/cmd/kalah/version"
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
"Solving Kalah", 2000), with endgame databases, a cache of proven results
on disk and a parallel MTD(f) search.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		// Bad flags, unknown commands and stray arguments are bad input
		// (exit code 2); bare "kalah" prints the help.
		Args: cmdutil.UnknownCommand,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.SetFlagErrorFunc(cmdutil.FlagError)
	cmd.SetUsageTemplate(usageTemplate)
	versioncmd.SetRootVersion(cmd)
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
	cmd.AddCommand(cachecmd.NewCmdCache(io))
	cmd.AddCommand(sweepcmd.NewCmdSweep(io))
	cmd.AddCommand(bookcmd.NewCmdBook(io))
	cmd.AddCommand(graphcmd.NewCmdGraph(io))
	cmd.AddCommand(analyzecmd.NewCmdAnalyze(io))
	cmd.AddCommand(analyzecmd.NewCmdVerifyLine(io))
	cmd.AddCommand(reportcmd.NewCmdReport(io))
	cmd.AddCommand(servecmd.NewCmdServe(io))
	cmd.AddCommand(playcmd.NewCmdPlay(io))
	cmd.AddCommand(campaigncmd.NewCmdCampaign(io))
	cmd.AddCommand(workercmd.NewCmdWorker(io))
	cmd.AddCommand(versioncmd.NewCmdVersion(io))
	// The old names, hidden, for one release (removed in v0.3.0).
	cmd.AddCommand(deprecatedAlias(cachecmd.NewCmdCache(io), "store", "kalah cache"))
	cmd.AddCommand(deprecatedAlias(sweepcmd.NewCmdSweep(io), "table", "kalah sweep"))
	return cmd
}

// deprecatedAlias turns cmd, a second copy of a command's tree, into its
// old name: hidden from the help, and each of its commands deprecated, so
// that a run says on standard error to use the new name (now). Its help
// and warnings go to standard error, keeping standard output for what the
// commands print (e.g. "$(kalah store path)").
func deprecatedAlias(cmd *cobra.Command, old, now string) *cobra.Command {
	cmd.Use = old + strings.TrimPrefix(cmd.Use, cmd.Name())
	cmd.Hidden = true
	var deprecate func(c *cobra.Command, path string)
	deprecate = func(c *cobra.Command, path string) {
		c.Deprecated = fmt.Sprintf("use %q", path)
		for _, sub := range c.Commands() {
			deprecate(sub, path+" "+sub.Name())
		}
	}
	deprecate(cmd, now)
	cmd.SetOut(cmdutil.ErrOf(cmd))
	return cmd
}

// Execute runs the command tree as main does. Help asked of a command that
// does not exist ("kalah frobnicate --help") is the unknown command's
// error, exit code 2, not the root's help: cobra answers --help before it
// checks the arguments.
func Execute(cmd *cobra.Command) error {
	var unknown error
	help := cmd.HelpFunc()
	cmd.SetHelpFunc(func(c *cobra.Command, args []string) {
		if c == cmd {
			// The words left once the flags are parsed: a root that runs
			// takes none, so any is a command that does not exist.
			if unknown = cmdutil.UnknownCommand(c, c.Flags().Args()); unknown != nil {
				return
			}
		}
		help(c, args)
	})
	if err := cmd.Execute(); err != nil {
		return err
	}
	return unknown
}
