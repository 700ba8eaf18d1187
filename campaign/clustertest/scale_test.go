package clustertest

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/kalah-solver/kalah/bench"
	"github.com/kalah-solver/kalah/campaign"
)

// scaleEnv turns on TestScaling: it runs one campaign three times and
// takes minutes, a measurement rather than a check (make scale-test).
const scaleEnv = "KALAH_CLUSTER_SCALE"

// scaleRun is one measured campaign: its workers and its recorded units.
type scaleRun struct {
	Game    string           `json:"game"` // its position, rule, database and split
	Split   int              `json:"split"`
	Workers int              `json:"workers"`
	Traces  []campaign.Trace `json:"traces"`
}

// TestScaling runs the campaign of KALAH_CLUSTER_GAME under
// KALAH_CLUSTER_RULE (default empty-capture) at KALAH_CLUSTER_SPLIT
// (default 1) on a fresh cluster with each
// count of workers of KALAH_CLUSTER_SCALE ("1,2,4"), one thread each and
// no cross-checks, and compares each run's wall time (first issue to last
// answer) with the simulation of the one-worker run's unit tree
// (campaign.Simulate). It checks the values against kalah solve and logs
// the times, a measurement, never a timed check. KALAH_CLUSTER_SCALE_OUT
// names a file for the runs' traces (JSON); KALAH_CLUSTER_SCALE_RECORD=1
// adds the comparison to bench/data/campaign.jsonl, from a clean tree
// only (the records' topic campaign-scale in docs/benchmarks.md).
func TestScaling(t *testing.T) {
	spec := os.Getenv(scaleEnv)
	if spec == "" {
		t.Skip(scaleEnv + " unset: the scaling runs take minutes (make scale-test)")
	}
	need(t)
	var counts []int
	for _, f := range strings.Split(spec, ",") {
		var n int
		if _, err := fmt.Sscan(f, &n); err != nil || n < 1 || n > 8 {
			t.Fatalf("%s=%q: want counts of workers 1..8, separated by commas", scaleEnv, spec)
		}
		counts = append(counts, n)
	}
	rule := os.Getenv("KALAH_CLUSTER_RULE")
	if rule == "" {
		rule = "empty-capture"
	}
	g := envGame(t, rule)
	split := 1
	if v := os.Getenv("KALAH_CLUSTER_SPLIT"); v != "" {
		if _, err := fmt.Sscan(v, &split); err != nil || split < 0 || split > 4 {
			t.Fatalf("KALAH_CLUSTER_SPLIT=%q: want 0..4", v)
		}
	}
	loadBefore := loadAverage()
	rev := revision(t) // before the runs: the tree the binaries are built from
	var runs []scaleRun
	for _, p := range counts {
		// A fresh cluster each: no answer of an earlier run is known.
		t.Run(fmt.Sprintf("workers=%d", p), func(t *testing.T) {
			c := newCluster(t, p)
			for i := 1; i <= p; i++ {
				c.worker(fmt.Sprintf("w%d", i), g)
			}
			co := c.coordinator("c1", g, "--verify-share", "0", "--split", fmt.Sprint(split))
			rec := c.record(co, "c1", g, 2*time.Hour)
			c.check(g, rec, true)
			out, err := probe(c.net.hosts["c1"], c.urls, "traces", g.name())
			if err != nil {
				t.Fatal(err)
			}
			var tr []campaign.Trace
			if err := json.Unmarshal(out, &tr); err != nil {
				t.Fatal(err)
			}
			runs = append(runs, scaleRun{Game: fmt.Sprintf("Kalah(%d,%d) %s, %d-seed database, split %d", g.pits, g.seeds, g.rule, g.egdb, split),
				Split: split, Workers: p, Traces: tr})
		})
	}
	if len(runs) != len(counts) || runs[0].Workers != 1 {
		return
	}
	if out := os.Getenv("KALAH_CLUSTER_SCALE_OUT"); out != "" {
		b, _ := json.Marshal(runs)
		if err := os.WriteFile(out, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	recs := scaleRecords(g, split, runs, rev, loadBefore, loadAverage())
	for _, r := range recs {
		t.Logf("%s: %s", r.Config, metricText(r.Metrics))
	}
	if os.Getenv("KALAH_CLUSTER_SCALE_RECORD") != "" {
		appendRecords(t, recs)
	}
}

// scaleRecords compares each run with the simulation of the one-worker
// run's unit tree: at that run's recorded seconds, and at each run's own
// node rate a worker (how fast a worker ran beside the others).
func scaleRecords(g game, split int, runs []scaleRun, rev, loadBefore, loadAfter string) []bench.Record {
	one := runs[0].Traces
	base := campaign.Simulate(one, []int{1}, 0)
	cores := runtime.NumCPU()
	oneRate := workerRate(one)
	date := time.Now().UTC()
	rule := "empty-capture"
	if g.rule != rule {
		rule = "no-empty-capture"
	}
	db := "no database"
	if g.egdb > 0 {
		db = fmt.Sprintf("%d-seed database", g.egdb)
	}
	var out []bench.Record
	for _, r := range runs {
		measured := campaign.Simulate(r.Traces, []int{r.Workers}, 0).Recorded
		nodes := campaign.Simulate(r.Traces, nil, 0).Nodes
		rate := workerRate(r.Traces)
		atSeconds := campaign.Simulate(one, []int{r.Workers}, 0).Predictions[0].Seconds
		atRate := campaign.Simulate(one, []int{r.Workers}, rate).Predictions[0].Seconds
		// The run's rate over the one-worker tree's nodes: every unit
		// also as much larger as this run's nodes are.
		growth := float64(nodes) / float64(base.Nodes)
		atNodes := campaign.Simulate(one, []int{r.Workers}, rate/growth).Predictions[0].Seconds
		// The one-worker run's tree and rate on this machine's cores, the
		// workers sharing them; then with every unit's nodes grown too.
		onCores := campaign.SimulateOnCores(one, []int{r.Workers}, 0, cores).Predictions[0].Seconds
		onCoresNodes := campaign.SimulateOnCores(one, []int{r.Workers}, oneRate/growth, cores).Predictions[0].Seconds
		errPct := func(p float64) float64 { return math.Round(1000*(p/measured-1)) / 10 }
		out = append(out, bench.Record{
			ID:    fmt.Sprintf("campaign-scale-%s-s%d-w%d-%s", g.name(), split, r.Workers, date.Format("20060102-1504")),
			Topic: "campaign-scale",
			Config: fmt.Sprintf("Kalah(%d,%d) %s, %s, split %d, three-node cluster, %d worker(s) of one thread",
				g.pits, g.seeds, rule, db, split, r.Workers),
			What: "the campaign's wall time (first issue to last answer) against kalah campaign simulate of the one-worker run's unit tree: " +
				"at that run's recorded unit seconds, at this run's node rate a worker, and at that rate with every unit's nodes times this run's nodes over the one-worker run's",
			Command:  fmt.Sprintf("make scale-test KALAH_CLUSTER_GAME=%d,%d KALAH_CLUSTER_EGDB=%d KALAH_CLUSTER_RULE=%s KALAH_CLUSTER_SPLIT=%d", g.pits, g.seeds, g.egdb, g.rule, split),
			Revision: rev,
			Machine:  "epyc-2c",
			Date:     date.Format("2006-01-02"),
			Load:     loadNote(loadBefore, loadAfter),
			Metrics: []bench.Metric{
				value("measured s", round(measured, 1)),
				value("predicted s", round(atSeconds, 1)),
				value("error %", errPct(atSeconds)),
				value(fmt.Sprintf("predicted s on %d shared cores", cores), round(onCores, 1)),
				value("error % on shared cores", errPct(onCores)),
				value(fmt.Sprintf("predicted s on %d shared cores at this run's nodes", cores), round(onCoresNodes, 1)),
				value("error % on shared cores at this run's nodes", errPct(onCoresNodes)),
				value("predicted s at this run's rate", round(atRate, 1)),
				value("error % at this rate", errPct(atRate)),
				value("predicted s at this run's rate and nodes", round(atNodes, 1)),
				value("error % at this rate and nodes", errPct(atNodes)),
				value("units", float64(len(r.Traces))),
				value("nodes / one worker's", round(growth, 2)),
				value("M nodes/s a worker", round(rate/1e6, 2)),
			},
			Note: fmt.Sprintf("The workers, the three NATS servers and the coordinator share %d cores: a run with more workers than free cores ", cores) +
				"runs each unit slower, which the prediction at the recorded seconds cannot know, the ones on shared cores model " +
				"(the one-worker run's rate, the cores shared equally among running units; the servers' and the coordinator's share left out) " +
				"and the one at this run's rate is told. " +
				"More workers also search more nodes (each has its own table and misses what the others' units left in theirs), " +
				"which only the predictions at this run's nodes are told.",
		})
	}
	return out
}

// metricText is the metrics as a line of the log.
func metricText(ms []bench.Metric) string {
	var fs []string
	for _, m := range ms {
		switch {
		case m.Value != nil:
			fs = append(fs, fmt.Sprintf("%s %g", m.Name, *m.Value))
		case m.Median != nil && m.Min != nil && m.Max != nil:
			fs = append(fs, fmt.Sprintf("%s %g (%g-%g)", m.Name, *m.Median, *m.Min, *m.Max))
		}
	}
	return strings.Join(fs, ", ")
}

func value(name string, v float64) bench.Metric { return bench.Metric{Name: name, Value: &v} }

func round(v float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(v*p) / p
}

// loadAverage is the first three fields of /proc/loadavg.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// moduleDir is the repository's root.
func moduleDir(t *testing.T) string {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Dir(strings.TrimSpace(string(out)))
}

// revision is the repository's commit, with "+dirty" when the tree has
// changes (the binaries are built from it; GOFLAGS may leave the VCS
// stamp out of them).
func revision(t *testing.T) string {
	dir := moduleDir(t)
	out, err := exec.Command("git", "-C", dir, "rev-parse", "--short=7", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	rev := strings.TrimSpace(string(out))
	if st, err := exec.Command("git", "-C", dir, "status", "--porcelain").Output(); err != nil || len(st) > 0 {
		rev += "+dirty"
	}
	return rev
}

// appendRecords adds the records to bench/data/campaign.jsonl, only from
// a clean tree (a record names the commit it measured).
func appendRecords(t *testing.T, recs []bench.Record) {
	for _, r := range recs {
		if err := r.Check(); err != nil {
			t.Fatalf("not recorded (built from a modified tree?): %v", err)
		}
	}
	name := filepath.Join(moduleDir(t), bench.DataDir, "campaign.jsonl")
	f, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, r := range recs {
		b, _ := json.Marshal(r)
		fmt.Fprintf(f, "%s\n", b)
	}
	t.Logf("%d records added to %s", len(recs), name)
}

// loadNote is a scaling record's load: the load averages before and after
// the runs and what else ran, as KALAH_CLUSTER_LOAD says.
func loadNote(before, after string) string {
	n := fmt.Sprintf("load average %s before the runs, %s after", before, after)
	if s := os.Getenv("KALAH_CLUSTER_LOAD"); s != "" {
		n += "; " + s
	}
	return n
}

// workerRate is a run's nodes a second of one worker: its units' nodes
// over its workers' seconds on them.
func workerRate(traces []campaign.Trace) float64 {
	var nodes int64
	var busy float64
	for _, tr := range traces {
		nodes += tr.Nodes
		busy += tr.Seconds
	}
	return float64(nodes) / busy
}
