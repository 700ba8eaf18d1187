package versioncmd

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/egdb"
	"github.com/kalah-solver/kalah/persist"
)

func execute(args ...string) (out string, code int, err error) {
	io, o, _ := cmdutil.Test()
	cmd := NewCmdVersion(io)
	cmd.SetArgs(args)
	err = cmd.Execute()
	return o.String(), cmdutil.ExitCode(err), err
}

func TestText(t *testing.T) {
	out, code, err := execute()
	if code != 0 {
		t.Fatalf("kalah version: exit %d, %v", code, err)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[0], "kalah ") || len(lines[0]) <= len("kalah ") {
		t.Fatalf("kalah version printed:\n%s", out)
	}
	for _, want := range []string{
		"revision:",
		runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH,
		"endgame databases:  format 2 (reads formats 1 to 2)",
		"cache:              format 2",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("kalah version: no %q in\n%s", want, out)
		}
	}
	if _, code, err := execute("extra"); code != 2 {
		t.Errorf("kalah version extra: exit %d, %v; want 2", code, err)
	}
}

func TestJSON(t *testing.T) {
	out, code, err := execute("--json")
	if code != 0 {
		t.Fatalf("kalah version --json: exit %d, %v", code, err)
	}
	var rec map[string]any
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&rec); err != nil || dec.More() || strings.Count(out, "\n") != 1 {
		t.Fatalf("want one JSON object on one line, got %q (%v)", out, err)
	}
	for _, k := range []string{"version", "revision", "revision_time", "modified", "go", "platform", "egdb_format", "cache_format"} {
		if _, ok := rec[k]; !ok {
			t.Errorf("no %q in %s", k, out)
		}
	}
	if len(rec) != 8 {
		t.Errorf("%d fields, want 8: %s", len(rec), out)
	}
	if rec["go"] != runtime.Version() || rec["platform"] != runtime.GOOS+"/"+runtime.GOARCH ||
		rec["egdb_format"] != float64(egdb.FormatVersion) || rec["cache_format"] != float64(persist.FormatVersion) {
		t.Errorf("kalah version --json: %s", out)
	}
}

// TestInfoText: the revision line says what the build information says.
func TestInfoText(t *testing.T) {
	in := Info{Version: "v0.1.0", Revision: "0123abcd", RevisionTime: "2026-12-03T10:00:00Z", Modified: true,
		Go: "go1.26.8", Platform: "linux/amd64", EgdbFormat: 2, CacheFormat: 2}
	want := `kalah v0.1.0
  revision:           0123abcd 2026-12-03T10:00:00Z (modified: built with uncommitted changes)
  go:                 go1.26.8 linux/amd64
  endgame databases:  format 2 (reads formats 1 to 2)
  cache:              format 2
`
	if got := in.Text(); got != want {
		t.Errorf("Text:\n%s\nwant:\n%s", got, want)
	}
	in.Revision, in.RevisionTime, in.Modified = "", "", false
	if got := in.Text(); !strings.Contains(got, "revision:           unknown (built without version control information)\n") {
		t.Errorf("Text without VCS information:\n%s", got)
	}
}
