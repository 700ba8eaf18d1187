package campaigncmd

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	workercmd "github.com/kalah-solver/kalah/cmd/kalah/worker"
	"github.com/spf13/cobra"
)

func execute(t *testing.T, cmd *cobra.Command, args ...string) error {
	t.Helper()
	cmd.SetArgs(args)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	return cmd.ExecuteContext(context.Background())
}

func run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	io, out, _ := cmdutil.Test()
	cmd := NewCmdCampaign(io)
	cmd.SetFlagErrorFunc(cmdutil.FlagError)
	err := execute(t, cmd, args...)
	return out.String(), err
}

func TestStartLocalStatusResult(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	data := t.TempDir()
	out, err := run(t, "start", "k43", "--pits", "4", "--seeds", "3", "--local", "2", "--data", data, "--table-size", "16MiB", "--no-egdb", "-q", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Value  int    `json:"value"`
		Result string `json:"result"`
		Solved bool   `json:"solved"`
		Best   []string
	}
	if err := json.Unmarshal([]byte(out), &rec); err != nil || rec.Value != 6 || !rec.Solved || rec.Result != "W" {
		t.Fatalf("%s: %+v %v", out, rec, err)
	}
	out, err = run(t, "result", "k43", "--data", data)
	if err != nil || !strings.Contains(out, "value +6 W") {
		t.Errorf("result: %q %v", out, err)
	}
	out, err = run(t, "status", "k43", "--data", data)
	if err != nil || !strings.Contains(out, "done") || !strings.Contains(out, "value in [+6, +6]") ||
		!strings.Contains(out, "\nrate: ") || !strings.Contains(out, "\na worker node: ") || !strings.Contains(out, "\nsignature: build ") || !strings.Contains(out, "endgame database none") || !strings.Contains(out, "\nETA: unknown: the campaign is done") {
		t.Errorf("status: %q %v", out, err)
	}
	out, err = run(t, "status", "k43", "--data", data, "--json")
	var st map[string]any
	if err != nil || json.Unmarshal([]byte(out), &st) != nil {
		t.Fatalf("status --json: %q %v", out, err)
	}
	for _, k := range []string{"rate_window_seconds", "units_per_second", "nodes_per_second", "eta_seconds", "eta_basis", "coordinator_nodes", "shared_hits"} {
		if _, ok := st[k]; !ok {
			t.Errorf("status --json has no %q: %s", k, out)
		}
	}
	if st["eta_seconds"] != nil || !strings.HasPrefix(st["eta_basis"].(string), "unknown") {
		t.Errorf("a finished campaign's ETA: %v %v", st["eta_seconds"], st["eta_basis"])
	}
	// Every answer re-solved here agrees.
	out, err = run(t, "verify", "k43", "--data", data, "--sample", "0", "--table-size", "16MiB", "--no-egdb")
	if err != nil || !strings.Contains(out, " agree, 0 disagree") {
		t.Errorf("verify: %q %v", out, err)
	}
	out, err = run(t, "verify", "k43", "--data", data, "--sample", "2", "--seed", "5", "--table-size", "16MiB", "--no-egdb", "--json")
	var vr struct {
		Sampled, Agreed int
	}
	if err != nil || json.Unmarshal([]byte(out), &vr) != nil || vr.Sampled != 2 || vr.Agreed != 2 {
		t.Errorf("verify --json: %q %v", out, err)
	}
	// Its unit tree replayed on more workers.
	out, err = run(t, "simulate", "k43", "--data", data, "--workers", "1,4")
	if err != nil || !strings.Contains(out, " units, ") || !strings.Contains(out, "efficiency") {
		t.Errorf("simulate: %q %v", out, err)
	}
	out, err = run(t, "simulate", "k43", "--data", data, "--json")
	var sr struct {
		Units       int
		Predictions []struct {
			Workers int
			Seconds float64
		}
	}
	if err != nil || json.Unmarshal([]byte(out), &sr) != nil || sr.Units == 0 || len(sr.Predictions) != 6 {
		t.Errorf("simulate --json: %q %v", out, err)
	}
	// Four workers sharing one core are no faster than four with a core
	// each (the default workers are 1,2,4,...).
	out, err = run(t, "simulate", "k43", "--data", data, "--workers", "1,4", "--cores", "1", "--json")
	var cr struct {
		Cores       int
		Predictions []struct{ Seconds float64 }
	}
	if err != nil || json.Unmarshal([]byte(out), &cr) != nil || cr.Cores != 1 || len(cr.Predictions) != 2 ||
		len(sr.Predictions) < 3 || cr.Predictions[1].Seconds < sr.Predictions[2].Seconds {
		t.Errorf("simulate --cores 1: %q %v", out, err)
	}
	if _, err = run(t, "simulate", "k43", "--data", data, "--cores", "-1"); cmdutil.ExitCode(err) != 2 {
		t.Errorf("simulate --cores -1: exit %d (%v)", cmdutil.ExitCode(err), err)
	}
	// Replayed with the costs of an estimate of the same pits and split.
	est := filepath.Join(t.TempDir(), "e.json")
	out, err = run(t, "estimate", "--pits", "4", "--seeds", "4", "--budget", "10m", "--table-size", "16MiB", "--no-egdb", "--threads", "1", "--json")
	if err != nil || os.WriteFile(est, []byte(out), 0o644) != nil {
		t.Fatalf("estimate: %q %v", out, err)
	}
	out, err = run(t, "simulate", "k43", "--data", data, "--estimate", est, "--workers", "1,4", "--draws", "20", "--json")
	var pr struct {
		Units       int
		Predictions []struct {
			Workers int
			Low     float64 `json:"low_seconds"`
			Seconds float64
			High    float64 `json:"high_seconds"`
		}
	}
	if err != nil || json.Unmarshal([]byte(out), &pr) != nil || pr.Units != sr.Units || len(pr.Predictions) != 2 ||
		pr.Predictions[1].Low > pr.Predictions[1].Seconds || pr.Predictions[1].Seconds > pr.Predictions[1].High || pr.Predictions[1].Seconds == 0 {
		t.Errorf("simulate --estimate: %q %v", out, err)
	}
	out, err = run(t, "simulate", "k43", "--data", data, "--estimate", est, "--workers", "64")
	if err != nil || !strings.Contains(out, "10th-90th percentile") {
		t.Errorf("simulate --estimate: %q %v", out, err)
	}
	if _, err = run(t, "simulate", "k43", "--data", data, "--estimate", filepath.Join(data, "none.json")); cmdutil.ExitCode(err) != 2 {
		t.Errorf("simulate --estimate of no file: exit %d (%v)", cmdutil.ExitCode(err), err)
	}
	// Recorded: the cell stays open (no opening chains), with the exact
	// value and every first move's.
	res := t.TempDir()
	out, err = run(t, "record", "k43", "--data", data, "--results", res)
	if err != nil || !strings.Contains(out, "Kalah(4,3) no-empty-capture open, value = +6; a = -6; b = +6; c = +2; d = -2") {
		t.Errorf("record: %q %v", out, err)
	}
	// Without the guess, with the shared table: the cost changes, not the
	// value (Kalah(4,3) no-empty-capture: +6, moves a -6 b +6 c +2 d -2).
	out, err = run(t, "start", "k43-plain", "--pits", "4", "--seeds", "3", "--local", "2", "--data", data, "--table-size", "16MiB", "--no-egdb",
		"--guess-depth", "0", "--shared-table", "--local-seeds", "4", "-q")
	if err != nil || !strings.Contains(out, "value +6 W") || !strings.Contains(out, "moves: a -6 b +6 c +2 d -2") || !strings.Contains(out, "\nbest: b\n") {
		t.Errorf("without guess, with the shared table: %q %v", out, err)
	}
	// The same name for another game: refused, exit 2.
	_, err = run(t, "start", "k43", "--pits", "4", "--seeds", "3", "--rule", "empty-capture", "--local", "1", "--data", data, "-q")
	if cmdutil.ExitCode(err) != 2 {
		t.Errorf("conflict: exit %d (%v)", cmdutil.ExitCode(err), err)
	}
	_, err = run(t, "status", "none", "--data", data)
	if cmdutil.ExitCode(err) != 2 {
		t.Errorf("unknown campaign: exit %d (%v)", cmdutil.ExitCode(err), err)
	}
}

func TestBadInputAndUnreachable(t *testing.T) {
	for _, args := range [][]string{
		{"start", "x", "--pits", "4"},
		{"start", "x", "--local", "1", "--nats", "nats://127.0.0.1:1"},
		{"start", "bad name", "--local", "1"},
		{"start", "x", "--local", "1", "--egdb-seeds", "20"},
		{"start", "x", "--nats", "nats://127.0.0.1:1", "--egdb-seeds", "-2"},
		{"start"},
		{"status"},
		{"status", "x", "--nats-tls-ca", "/nonexistent/ca.pem"},
		{"status", "x", "--nats", "nats://127.0.0.1:1", "--nats-tls-ca", "/nonexistent/ca.pem"},
		{"status", "x", "--nats", "nats://127.0.0.1:1", "--nats-tls-cert", "/nonexistent/c.pem"},
		{"start", "x", "--nats", "nats://127.0.0.1:1", "--nats-creds", "/nonexistent/u.creds"},
		{"start", "x", "--local", "1", "--guess-depth", "-1"},
		{"start", "x", "--nats", "nats://127.0.0.1:1", "--no-shared-table"},
		{"start", "x", "--nats", "nats://127.0.0.1:1", "--shared-table"},
		{"start", "x", "--local", "1", "--shared-table", "--no-shared-table"},
		{"start", "x", "--local", "2", "--verify-share", "1.5"},
		{"start", "x", "--local", "2", "--verify-share", "-0.1"},
		{"verify", "x", "--sample", "-1"},
		{"verify"},
		{"simulate", "x", "--workers", "0"},
		{"simulate", "x", "--workers", "2,a"},
		{"simulate", "x", "--nodes-per-second", "-1"},
		{"simulate", "x", "--draws", "0"},
	} {
		if _, err := run(t, args...); cmdutil.ExitCode(err) != 2 {
			t.Errorf("%v: exit %d (%v)", args, cmdutil.ExitCode(err), err)
		}
	}
	t0 := time.Now()
	_, err := run(t, "status", "x", "--nats", "nats://127.0.0.1:1")
	if cmdutil.ExitCode(err) != 2 || time.Since(t0) > 5*time.Second || !strings.Contains(fmt.Sprint(err), "nats://127.0.0.1:1") {
		t.Errorf("unreachable: exit %d after %v (%v)", cmdutil.ExitCode(err), time.Since(t0), err)
	}
	io, _, _ := cmdutil.Test()
	w := workercmd.NewCmdWorker(io)
	t0 = time.Now()
	err = execute(t, w, "--nats", "nats://127.0.0.1:1")
	if cmdutil.ExitCode(err) != 2 || time.Since(t0) > 5*time.Second || !strings.Contains(fmt.Sprint(err), "unreachable at nats://127.0.0.1:1") {
		t.Errorf("worker, unreachable: exit %d after %v (%v)", cmdutil.ExitCode(err), time.Since(t0), err)
	}
	for _, args := range [][]string{
		{"--nats", "nats://127.0.0.1:1", "--nats-tls-key", "/nonexistent/k.pem"},
		{"--nats", "nats://127.0.0.1:1", "--nats-tls-cert", "/nonexistent/c.pem", "--nats-tls-key", "/nonexistent/k.pem"},
		{"--nats", "nats://127.0.0.1:1", "--nats-tls-ca", "/nonexistent/ca.pem"},
		{"--nats", "nats://127.0.0.1:1", "--shared-table", "--no-shared-table"},
	} {
		w := workercmd.NewCmdWorker(io)
		if err := execute(t, w, args...); cmdutil.ExitCode(err) != 2 || strings.Contains(err.Error(), "\n") {
			t.Errorf("worker %v: exit %d (%v)", args, cmdutil.ExitCode(err), err)
		}
	}
	// A database directory that holds none is bad input before the
	// server is asked.
	for _, dir := range []string{t.TempDir(), "/nonexistent/egdb"} {
		w := workercmd.NewCmdWorker(io)
		if err := execute(t, w, "--nats", "nats://127.0.0.1:1", "--egdb", dir); cmdutil.ExitCode(err) != 2 || !strings.Contains(fmt.Sprint(err), "holds no endgame database") {
			t.Errorf("worker --egdb %s: exit %d (%v)", dir, cmdutil.ExitCode(err), err)
		}
	}
}

func TestEstimateCommand(t *testing.T) {
	out, err := run(t, "estimate", "--pits", "4", "--seeds", "3", "--local-seeds", "6", "--budget", "10m", "--table-size", "16MiB", "--no-egdb", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var e struct {
		Frontier int     `json:"frontier_boards"`
		Sampled  int     `json:"sampled"`
		Finished int     `json:"finished"`
		Units    float64 `json:"units"`
		Nodes    float64 `json:"nodes"`
		Basis    string  `json:"basis"`
	}
	if err := json.Unmarshal([]byte(out), &e); err != nil || e.Frontier == 0 || e.Sampled != e.Finished || e.Units == 0 || e.Nodes == 0 || !strings.HasPrefix(e.Basis, "an estimate") {
		t.Errorf("%s: %+v %v", out, e, err)
	}
	out, err = run(t, "estimate", "--pits", "4", "--seeds", "3", "--budget", "10m", "--table-size", "16MiB", "--no-egdb")
	if err != nil || !strings.Contains(out, "frontier: ") || !strings.Contains(out, "tests per board, assumed") || !strings.Contains(out, "\nbasis: ") {
		t.Errorf("text: %q %v", out, err)
	}
	for _, args := range [][]string{
		{"estimate", "--budget", "0s"},
		{"estimate", "--split", "7"},
		{"estimate", "--tests-per-board", "-1"},
		{"estimate", "extra"},
	} {
		if _, err := run(t, args...); cmdutil.ExitCode(err) != 2 {
			t.Errorf("%v: exit %d (%v)", args, cmdutil.ExitCode(err), err)
		}
	}
}
