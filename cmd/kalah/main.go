// Command kalah is the command-line front of the toolkit; every command is a
// thin layer over the library packages.
package main

import (
	"fmt"
	"os"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/cmd/kalah/root"
)

func main() {
	io := cmdutil.System()
	err := root.Execute(root.NewCmdRoot(io))
	if err != nil {
		fmt.Fprintln(io.ErrOut, "kalah:", err)
	}
	os.Exit(cmdutil.ExitCode(err))
}
