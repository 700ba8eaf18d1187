package root

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
)

// execute runs kalah in-process, as main does, and returns its output,
// error stream and exit code.
func execute(args ...string) (out, errOut string, code int, err error) {
	io, o, e := cmdutil.Test()
	cmd := NewCmdRoot(io)
	cmd.SetArgs(args)
	err = Execute(cmd)
	return o.String(), e.String(), cmdutil.ExitCode(err), err
}

// TestBadInput: every kind of bad input is exit code 2 with a one-line
// message, nothing on standard output, and no panic.
func TestBadInput(t *testing.T) {
	cases := []struct {
		args []string
		want string // in the message
	}{
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"frobnicate", "--help"}, `unknown command "frobnicate"`},
		{[]string{"sho"}, `did you mean "show"`},
		{[]string{"--bogus"}, "unknown flag: --bogus"},
		{[]string{"show", "--bogus"}, "unknown flag: --bogus"},
		{[]string{"show", "extra"}, "takes no arguments"},
		{[]string{"show", "--pits", "six"}, `invalid argument "six" for --pits: want a whole number`},
		{[]string{"show", "--pits", "99999999999999999999"}, `for --pits: out of range`},
		{[]string{"show", "--pits", "0"}, "pits must be 1..8"},
		{[]string{"show", "--seeds", "0"}, "at least 1"},
		{[]string{"show", "--seeds", "22"}, "264 seeds"},
		{[]string{"show", "--rule", "kalah"}, `unknown rule "kalah"`},
		{[]string{"show", "--position", "4,4,4"}, "3 numbers"},
		{[]string{"show", "--position", "4,4,x,4,4,4,0,4,4,4,4,4,4,0"}, `field 3 is "x"`},
		{[]string{"show", "--position", "0,0,0,0,0,0,0,4,4,4,4,4,4,0"}, "impossible position"},
		{[]string{"show", "--position", "4,4,4,4,4,4,0,4,4,4,4,4,4,0", "--to-move", "up"}, `side to move "up"`},
		{[]string{"show", "--position", "4,4,4,4,4,4,0,4,4,4,4,4,4,0", "--seeds", "4"}, "--seeds names a start position"},
		{[]string{"move"}, "needs at least one move"},
		{[]string{"move", "c", "c"}, `ply 2`},
		{[]string{"move", "Q"}, "want a pit letter"},
		{[]string{"move", "0"}, "pit numbers run 1..6"},
		{[]string{"move", "--position", "0,0,0,0,0,1,0,0,0,0,0,0,1,0", "f", "a"}, "the game is over"},
		{[]string{"perft", "--depth", "0"}, "--depth must be 1..200"},
		{[]string{"perft", "--depth"}, "flag needs an argument"},
		{[]string{"perft", "--json=maybe"}, `invalid argument "maybe"`},
	}
	for _, c := range cases {
		out, errOut, code, err := execute(c.args...)
		if code != 2 {
			t.Errorf("kalah %v: exit code %d (%v), want 2", c.args, code, err)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") {
			t.Errorf("kalah %v: message %q, want one line containing %q", c.args, msg, c.want)
		}
		if out != "" || errOut != "" {
			t.Errorf("kalah %v: printed %q / %q; the error alone should be reported (by main)", c.args, out, errOut)
		}
	}
}

// TestJSON: each command with --json prints exactly one JSON object naming
// its rule, and exits 0.
func TestJSON(t *testing.T) {
	for _, args := range [][]string{
		{"show", "--json"},
		{"show", "--json", "--position", "1,1,1,1,0,1,1,1", "--to-move", "north", "--rule", "empty-capture"},
		{"move", "--json", "c", "f"},
		{"perft", "--json", "--depth", "5"},
	} {
		out, _, code, err := execute(args...)
		if code != 0 {
			t.Errorf("kalah %v: exit code %d (%v)", args, code, err)
			continue
		}
		var rec map[string]any
		dec := json.NewDecoder(strings.NewReader(out))
		if err := dec.Decode(&rec); err != nil || dec.More() || strings.Count(out, "\n") != 1 {
			t.Errorf("kalah %v: want one JSON object on one line, got %q (%v)", args, out, err)
			continue
		}
		for _, k := range []string{"rule", "pits", "position", "to_move"} {
			if _, ok := rec[k]; !ok {
				t.Errorf("kalah %v: no %q in %v", args, k, rec)
			}
		}
	}
}

func TestText(t *testing.T) {
	out, _, code, err := execute("perft", "--pits", "4", "--seeds", "3", "--rule", "empty-capture", "--depth", "6")
	if code != 0 || !strings.Contains(out, "    6                 1507\n") || !strings.Contains(out, "rule empty-capture") {
		t.Errorf("perft: code %d (%v), output:\n%s", code, err, out)
	}
	out, _, code, _ = execute()
	if code != 0 || !strings.Contains(out, "Usage:") {
		t.Errorf("bare kalah: code %d, output:\n%s", code, out)
	}
	out, _, code, _ = execute("show", "--help")
	if code != 0 || !strings.Contains(out, "--position") {
		t.Errorf("show --help: code %d, output:\n%s", code, out)
	}
}

// TestCPUProfile: --cpuprofile writes a profile that pprof can read (a
// gzipped protobuf), and an unwritable path is bad input.
func TestCPUProfile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpu.prof")
	if _, errOut, code, err := execute("perft", "--depth", "6", "--cpuprofile", path); code != 0 {
		t.Fatalf("perft --cpuprofile: exit %d, %v, %s", code, err, errOut)
	}
	b, err := os.ReadFile(path)
	if err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("profile: %d bytes, %v; want a gzip stream", len(b), err)
	}
	_, _, code, err := execute("show", "--cpuprofile", filepath.Join(t.TempDir(), "no", "such", "dir", "cpu.prof"))
	if code != 2 || err == nil || !strings.Contains(err.Error(), "--cpuprofile") {
		t.Errorf("unwritable --cpuprofile: exit %d, %v; want 2 naming the flag", code, err)
	}
}
