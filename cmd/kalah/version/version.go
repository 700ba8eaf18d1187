// Package versioncmd implements "kalah version" and "kalah --version": which
// kalah this is, and which files it can read.
package versioncmd

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/egdb"
	"github.com/kalah-solver/kalah/persist"
	"github.com/kalah-solver/kalah/results"
	"github.com/spf13/cobra"
)

// Options are the inputs of one "kalah version".
type Options struct {
	IO   *cmdutil.IOStreams
	JSON bool
}

// NewCmdVersion returns the version command.
func NewCmdVersion(io *cmdutil.IOStreams) *cobra.Command {
	opts := &Options{IO: io}
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print which kalah this is and which files it can read",
		Long: `Print the version of this kalah, the commit it was built from (with the
commit's time, and whether the source had uncommitted changes), the Go
version and platform it was built with, and the formats of the endgame
database files and of the cache that it can read.

The version is the release (v0.1.0, say) for a kalah installed with
'go install github.com/kalah-solver/kalah/cmd/kalah@v0.1.0'. One built
from a clone of the repository says "(devel)", or, when built with the
commit stamped in ('make build'), a version naming the commit, with
"+dirty" when the source had uncommitted changes. Quote this output, or
the --json one, when you report a problem. 'kalah --version' prints the
same.`,
		Example: `  kalah version
  kalah version --json`,
		Args: cmdutil.NoArgs,
		RunE: func(*cobra.Command, []string) error { return run(opts) },
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print one JSON object instead of text")
	return cmd
}

// Info is what "kalah version" reports.
type Info struct {
	Version      string `json:"version"`       // module version: "v0.1.0" for a release, "(devel)" or a pseudo-version for a local build
	Revision     string `json:"revision"`      // commit built from; "" without version control information
	RevisionTime string `json:"revision_time"` // that commit's time, RFC 3339; "" likewise
	Modified     bool   `json:"modified"`      // built with uncommitted changes
	Go           string `json:"go"`            // Go version
	Platform     string `json:"platform"`      // GOOS/GOARCH
	EgdbFormat   int    `json:"egdb_format"`   // newest endgame database file format read (and written); older ones are read too
	CacheFormat  int    `json:"cache_format"`  // the cache's format, the only one opened
}

// Current returns the Info of the running kalah.
func Current() Info {
	b := results.CurrentBuild()
	v := b.Version
	if v == "" {
		v = "(devel)" // a test binary, or a build without module information
	}
	return Info{
		Version:      v,
		Revision:     b.Revision,
		RevisionTime: b.Time,
		Modified:     b.Modified,
		Go:           b.Go,
		Platform:     runtime.GOOS + "/" + runtime.GOARCH,
		EgdbFormat:   egdb.FormatVersion,
		CacheFormat:  persist.FormatVersion,
	}
}

// Text is the text "kalah version" prints, lines ending in newlines.
func (in Info) Text() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "kalah %s\n", in.Version)
	rev := "unknown (built without version control information)"
	if in.Revision != "" {
		rev = in.Revision
		if in.RevisionTime != "" {
			rev += " " + in.RevisionTime
		}
		if in.Modified {
			rev += " (modified: built with uncommitted changes)"
		}
	}
	fmt.Fprintf(&sb, "  revision:           %s\n", rev)
	fmt.Fprintf(&sb, "  go:                 %s %s\n", in.Go, in.Platform)
	egdbRead := fmt.Sprintf("format %d", in.EgdbFormat)
	if in.EgdbFormat > 1 {
		egdbRead += fmt.Sprintf(" (reads formats 1 to %d)", in.EgdbFormat)
	}
	fmt.Fprintf(&sb, "  endgame databases:  %s\n", egdbRead)
	fmt.Fprintf(&sb, "  cache:              format %d\n", in.CacheFormat)
	return sb.String()
}

func run(opts *Options) error {
	in := Current()
	if opts.JSON {
		return cmdutil.PrintJSON(opts.IO.Out, in)
	}
	_, err := fmt.Fprint(opts.IO.Out, in.Text())
	return err
}

// SetRootVersion makes 'kalah --version' print what 'kalah version' prints.
func SetRootVersion(root *cobra.Command) {
	in := Current()
	root.Version = in.Version
	// The text as one quoted template string, so that nothing in it is
	// read as a template action.
	root.SetVersionTemplate("{{" + strconv.Quote(in.Text()) + "}}")
	root.Flags().Bool("version", false, "print the version of kalah (as 'kalah version' does)")
}
