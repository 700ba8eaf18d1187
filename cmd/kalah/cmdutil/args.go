package cmdutil

import (
	"fmt"

	"github.com/spf13/cobra"
)

// FlagError is the root command's flag error function (SetFlagErrorFunc):
// an unknown flag or a bad flag value is bad input, exit code 2, with a
// pointer to the command's help.
func FlagError(cmd *cobra.Command, err error) error {
	return BadInput(fmt.Errorf("%w (see '%s --help')", err, cmd.CommandPath()))
}

// Args wraps a cobra argument validator so that its errors are bad input.
func Args(v cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		return BadInput(v(cmd, args))
	}
}

// NoArgs rejects positional arguments as bad input.
func NoArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return BadInputf("%s takes no arguments, got %q (see '%s --help')", cmd.CommandPath(), args[0], cmd.CommandPath())
	}
	return nil
}

// UnknownCommand is the Args validator of a command that only groups
// subcommands (the root): any argument left over names no subcommand.
// Cobra reports such a mistake outside the flag error function, so the
// grouping command validates its own arguments instead.
func UnknownCommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		msg += fmt.Sprintf("; did you mean %q?", s[0])
	}
	return BadInputf("%s (see '%s --help')", msg, cmd.CommandPath())
}
