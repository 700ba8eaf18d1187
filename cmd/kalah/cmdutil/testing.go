package cmdutil

import (
	"bytes"
	"strings"
)

// Test returns streams over buffers, for running commands in-process in
// tests: no input, and the output and error buffers to read back.
func Test() (io *IOStreams, out, errOut *bytes.Buffer) {
	out, errOut = new(bytes.Buffer), new(bytes.Buffer)
	return &IOStreams{In: strings.NewReader(""), Out: out, ErrOut: errOut}, out, errOut
}
