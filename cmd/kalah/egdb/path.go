package egdbcmd

import (
	"fmt"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/egdb"
	"github.com/spf13/cobra"
)

// PathOptions are the inputs of one "kalah egdb path".
type PathOptions struct {
	IO   *cmdutil.IOStreams
	Dir  string
	JSON bool
}

// NewCmdPath returns the path command.
func NewCmdPath(io *cmdutil.IOStreams) *cobra.Command {
	opts := &PathOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "path",
		Short: "Print the endgame-database directory",
		Long: `Print the directory where endgame databases are built and looked up:
$XDG_DATA_HOME/kalah/egdb when XDG_DATA_HOME is set (and absolute), else
~/.local/share/kalah/egdb. Every egdb command takes --egdb DIR to use
another. Text output is the directory alone, one line; --json adds the
databases found there, each with the slices its files cover.`,
		Example: `  kalah egdb path
  du -sh "$(kalah egdb path)"`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runPath(opts) },
	}
	cmd.Flags().StringVar(&opts.Dir, "egdb", "", "database directory (default: $XDG_DATA_HOME/kalah/egdb or ~/.local/share/kalah/egdb)")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print one JSON object instead of text")
	return cmd
}

type pathDB struct {
	Rule   string `json:"rule"`
	Pits   int    `json:"pits"`
	Dir    string `json:"dir"`
	Slices []int  `json:"slices"` // seed counts with a file
}

func runPath(opts *PathOptions) error {
	dir := opts.Dir
	if dir == "" {
		var err error
		if dir, err = egdb.DefaultDir(); err != nil {
			return err
		}
	}
	if !opts.JSON {
		_, err := fmt.Fprintln(opts.IO.Out, dir)
		return err
	}
	dbs, err := egdb.Databases(dir)
	if err != nil {
		return err
	}
	out := struct {
		Dir       string   `json:"dir"`
		Databases []pathDB `json:"databases"`
	}{Dir: dir, Databases: []pathDB{}}
	for _, r := range dbs {
		ss, err := egdb.Slices(dir, r)
		if err != nil {
			return err
		}
		out.Databases = append(out.Databases, pathDB{Rule: r.Rule.String(), Pits: r.Pits, Dir: egdb.RuleDir(dir, r), Slices: append([]int{}, ss...)})
	}
	return cmdutil.PrintJSON(opts.IO.Out, out)
}
