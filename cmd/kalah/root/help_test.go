package root

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/spf13/cobra"
)

// terminalWidth is the width every help page fits in: an 80-column
// terminal.
const terminalWidth = 80

// TestHelpWidth: the help of every command, its description, examples,
// list of subcommands and flags, fits in 80 columns.
func TestHelpWidth(t *testing.T) {
	io, _, _ := cmdutil.Test()
	root := NewCmdRoot(io)
	var walk func(c *cobra.Command)
	checked := 0
	walk = func(c *cobra.Command) {
		if c.Hidden || c.Deprecated != "" {
			return
		}
		out, _, code, err := execute(append(strings.Fields(c.CommandPath())[1:], "--help")...)
		if code != 0 {
			t.Errorf("%s --help: exit code %d (%v)", c.CommandPath(), code, err)
		}
		for i, line := range strings.Split(out, "\n") {
			if n := utf8.RuneCountInString(line); n > terminalWidth {
				t.Errorf("%s --help, line %d: %d columns, want at most %d:\n%s", c.CommandPath(), i+1, n, terminalWidth, line)
			}
		}
		checked++
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	if checked < 30 {
		t.Errorf("checked the help of %d commands, want every command (30 or more)", checked)
	}
}
