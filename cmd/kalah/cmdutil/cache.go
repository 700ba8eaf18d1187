package cmdutil

import (
	"io"

	"github.com/spf13/cobra"
)

// CacheDirHelp is the help of --cache DIR, the cache's directory.
const CacheDirHelp = "cache directory (default: $XDG_DATA_HOME/kalah/cache or ~/.local/share/kalah/cache)"

// NoCacheHelp is the help of --no-cache.
const NoCacheHelp = "neither read nor write the cache"

// DeprecatedAlias adds old, the former name of cmd's flag now (defined
// already), as a hidden alias bound to the same variable: either name sets
// it, and the old one warns on standard error that it is deprecated in
// favour of the new. The old names are kept for one release (removed in
// v0.3.0).
func DeprecatedAlias(cmd *cobra.Command, old, now string) {
	fs := cmd.Flags()
	f := fs.Lookup(now)
	if f == nil {
		panic("cmdutil.DeprecatedAlias: no flag --" + now)
	}
	fs.Var(f.Value, old, f.Usage)
	a := fs.Lookup(old)
	a.NoOptDefVal = f.NoOptDefVal // a bool flag stays one
	a.DefValue = f.DefValue
	fs.MarkDeprecated(old, "use --"+now)
	// cobra prints the flag set's warnings to the command's output, which
	// is standard output: they go to its error stream instead, so that
	// they never mix with what the command prints (its JSON, say).
	fs.SetOutput(ErrOf(cmd))
}

// ErrOf is a writer to cmd's error stream (cmd.ErrOrStderr), looked up at
// each write, once the command tree is assembled.
func ErrOf(cmd *cobra.Command) io.Writer { return errOf{cmd} }

type errOf struct{ cmd *cobra.Command }

func (w errOf) Write(p []byte) (int, error) { return w.cmd.ErrOrStderr().Write(p) }

// TableSizeDefault says how a session sizes its table when --table-size is not
// given (solver.DefaultTableSizeFor), for the flag's help.
const TableSizeDefault = "by the game's pits, seeds and the endgame database's depth, at most a quarter of memory or 1 GiB"
