package cmdutil

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
)

// FlagError is the root command's flag error function (SetFlagErrorFunc):
// an unknown flag or a bad flag value is bad input, exit code 2, with a
// pointer to the command's help.
func FlagError(cmd *cobra.Command, err error) error {
	return BadInput(fmt.Errorf("%s (see '%s --help')", flagMessage(err), cmd.CommandPath()))
}

// pflagValue matches pflag's message for a flag value that does not parse
// (`invalid argument "six" for "--pits" flag: strconv.ParseInt: parsing
// "six": invalid syntax`), whose tail is Go's parser speaking.
var pflagValue = regexp.MustCompile(`^invalid argument "(.*)" for "(.*)" flag: strconv\.Parse(Int|Uint|Float|Bool): parsing ".*": (invalid syntax|value out of range)$`)

// flagMessage says what a flag wants in the user's words where pflag
// would quote Go's number parser; other messages pass as they are.
func flagMessage(err error) string {
	m := pflagValue.FindStringSubmatch(err.Error())
	if m == nil {
		return err.Error()
	}
	f := strings.Fields(m[2])
	value, flag := m[1], f[len(f)-1]
	if m[4] == "value out of range" {
		return fmt.Sprintf("invalid argument %q for %s: out of range", value, flag)
	}
	want := map[string]string{"Int": "a whole number", "Uint": "a whole number, 0 or more", "Float": "a number", "Bool": "true or false"}[m[3]]
	return fmt.Sprintf("invalid argument %q for %s: want %s", value, flag, want)
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
