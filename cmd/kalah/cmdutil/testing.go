package cmdutil

import (
	"bytes"
	"strings"

	"github.com/spf13/cobra"
)

// Test returns streams over buffers, for running commands in-process in
// tests: no input, and the output and error buffers to read back.
func Test() (io *IOStreams, out, errOut *bytes.Buffer) {
	out, errOut = new(bytes.Buffer), new(bytes.Buffer)
	return &IOStreams{In: strings.NewReader(""), Out: out, ErrOut: errOut}, out, errOut
}

// RunTest runs the command newCmd makes over test streams (Test), with
// stdin as its input, on args, as the root would, and returns what it
// wrote to its output and error streams.
func RunTest(newCmd func(*IOStreams) *cobra.Command, stdin string, args ...string) (out, errOut string, err error) {
	io, o, e := Test()
	io.In = strings.NewReader(stdin)
	cmd := newCmd(io)
	cmd.SetArgs(args)
	cmd.SetOut(io.Out)
	cmd.SetErr(io.ErrOut)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err = cmd.Execute()
	return o.String(), e.String(), err
}
