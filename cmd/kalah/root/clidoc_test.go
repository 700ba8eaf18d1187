package root

import (
	"bytes"
	"flag"
	"os"
	"testing"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
)

var update = flag.Bool("update", false, "rewrite docs/cli.md from the command tree")

// TestCLIDoc: docs/cli.md is what WriteCLIDoc makes of the command tree,
// so that the page cannot drift from the commands' help. With -update it
// rewrites the page.
func TestCLIDoc(t *testing.T) {
	const page = "../../../docs/cli.md"
	io, _, _ := cmdutil.Test()
	var b bytes.Buffer
	if err := WriteCLIDoc(&b, NewCmdRoot(io)); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(page, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	old, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(old, b.Bytes()) {
		t.Errorf("docs/cli.md is stale: the commands' help changed; regenerate it with\n\t%s", CLIDocCommand)
	}
}
