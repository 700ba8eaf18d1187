package reportcmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/results"
)

const repo = "../../.."

// The committed docs/results.md is exactly what the generator makes of the
// committed records: the document never drifts from the data.
func TestCommittedReportUpToDate(t *testing.T) {
	want, err := results.Report(results.Archive{Dir: filepath.Join(repo, results.DefaultDir)})
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(repo, DefaultOut))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("%s is out of date with %s: run 'go run ./cmd/kalah report' from the repository root", DefaultOut, results.DefaultDir)
	}
}

func TestReportWriteAndCheck(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "results.md")
	data := filepath.Join(repo, results.DefaultDir)
	io, stdout, _ := cmdutil.Test()
	if err := run(&Options{IO: io, Data: data, Out: out}); err != nil {
		t.Fatal(err)
	}
	if err := run(&Options{IO: io, Data: data, Out: out, Check: true}); err != nil {
		t.Fatalf("check after write: %v", err)
	}
	if !strings.Contains(stdout.String(), "is up to date") {
		t.Errorf("stdout %q", stdout.String())
	}
	os.WriteFile(out, []byte("stale\n"), 0o644)
	if err := run(&Options{IO: io, Data: data, Out: out, Check: true}); err == nil || cmdutil.ExitCode(err) != 1 {
		t.Errorf("stale file: %v", err)
	}
	doc, _ := os.ReadFile(filepath.Join(repo, DefaultOut))
	for _, want := range []string{"## Comparison with the published values", "## Opening moves", "## Game graphs", "Table 8"} {
		if !strings.Contains(string(doc), want) {
			t.Errorf("the report lacks %q", want)
		}
	}
}

func TestReportBadRecord(t *testing.T) {
	dir := t.TempDir()
	s := results.Archive{Dir: dir}
	if err := os.WriteFile(s.Path("empty-capture"), []byte(`{"rule":"empty-capture","pits":4,"seeds":3,"value":6,"result":"W","openings":[],"pv":"","pv_letters":"","nodes":1,"seconds":0,"threads":1,"tt_bytes":1,"egdb_seeds":-1,"date":"x","version":"","vcs_revision":"","go":"","cpu":""}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	io, _, _ := cmdutil.Test()
	if err := run(&Options{IO: io, Data: dir, Out: "-"}); err == nil || !strings.Contains(err.Error(), "openings") {
		t.Errorf("a record without openings was accepted: %v", err)
	}
}
