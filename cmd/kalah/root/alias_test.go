package root

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestDeprecatedCommands: "kalah store" and "kalah table", the old names of
// "kalah cache" and "kalah sweep", still run, hidden from the help; the
// warning goes to standard error, never into what the command prints.
func TestDeprecatedCommands(t *testing.T) {
	data := t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	want := filepath.Join(data, "kalah", "cache") + "\n"
	out, _, code, err := execute("cache", "path")
	if code != 0 || out != want {
		t.Fatalf("kalah cache path: %q, %v; want %q", out, err, want)
	}
	out, errOut, code, err := execute("store", "path")
	if code != 0 || out != want {
		t.Errorf("kalah store path: %q (exit %d, %v); want %q", out, code, err, want)
	}
	if !strings.Contains(errOut, `use "kalah cache path"`) {
		t.Errorf("kalah store path: no deprecation on standard error: %q", errOut)
	}
	out, _, code, err = execute("store", "path", "--store", "/x")
	if code != 0 || out != "/x\n" {
		t.Errorf("kalah store path --store /x: %q (exit %d, %v)", out, code, err)
	}

	out, errOut, code, err = execute("table", "--help")
	if code != 0 || !strings.Contains(out+errOut, "kalah table") || !strings.Contains(out+errOut, "--pits") {
		t.Errorf("kalah table --help: exit %d, %v:\n%s\n%s", code, err, out, errOut)
	}
	if _, _, code, err := execute("table", "--pits", "0"); code != 2 {
		t.Errorf("kalah table --pits 0: exit %d (%v), want 2 as for kalah sweep", code, err)
	}

	help, _, _, _ := execute("--help")
	for _, c := range []string{"cache", "sweep"} {
		if !strings.Contains(help, "\n  "+c+" ") {
			t.Errorf("kalah --help does not list %s:\n%s", c, help)
		}
	}
	for _, c := range []string{"store", "table"} {
		if strings.Contains(help, "\n  "+c+" ") {
			t.Errorf("kalah --help lists %s, a deprecated name:\n%s", c, help)
		}
	}
}
