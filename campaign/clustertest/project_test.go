package clustertest

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/kalah-solver/kalah/bench"
	"github.com/kalah-solver/kalah/campaign"
)

// TestProjection predicts campaigns not run on many workers: the
// one-worker run of a TestScaling output (KALAH_CLUSTER_TEMPLATE, the
// file of KALAH_CLUSTER_SCALE_OUT) replayed with the costs of each
// 'kalah campaign estimate --json' file of KALAH_CLUSTER_ESTIMATES
// (comma-separated; FILE+FILE+... are estimates of one campaign with
// other --seed values, whose samples are pooled) by campaign.Project, on 1, 64 and 512 workers of one
// thread at the template run's node rate a worker. It needs no cluster;
// KALAH_CLUSTER_ESTIMATE_LOAD says what ran beside the samples;
// KALAH_CLUSTER_SCALE_RECORD=1 adds the predictions to
// bench/data/campaign.jsonl from a clean tree.
func TestProjection(t *testing.T) {
	tmpl, ests := os.Getenv("KALAH_CLUSTER_TEMPLATE"), os.Getenv("KALAH_CLUSTER_ESTIMATES")
	if tmpl == "" || ests == "" {
		t.Skip("KALAH_CLUSTER_TEMPLATE and KALAH_CLUSTER_ESTIMATES unset: nothing to project")
	}
	var runs []scaleRun
	b, err := os.ReadFile(tmpl)
	if err == nil {
		err = json.Unmarshal(b, &runs)
	}
	if err != nil || len(runs) == 0 || runs[0].Workers != 1 || runs[0].Game == "" {
		t.Fatalf("%s: want TestScaling's runs, the first with one worker (%v)", tmpl, err)
	}
	one := runs[0].Traces
	var nodes int64
	var busy float64
	for _, tr := range one {
		nodes, busy = nodes+tr.Nodes, busy+tr.Seconds
	}
	rate := float64(nodes) / busy
	workers := []int{1, 64, 512}
	rev, date := revision(t), time.Now().UTC()
	var recs []bench.Record
	sampleLoad := os.Getenv("KALAH_CLUSTER_ESTIMATE_LOAD") // what ran beside the estimates' samples
	if sampleLoad == "" {
		sampleLoad = "the estimates' load not given"
	}
	for _, file := range strings.Split(ests, ",") {
		e, err := readEstimates(strings.Split(file, "+"))
		if err != nil {
			t.Fatal(err)
		}
		if e.Split != runs[0].Split || !strings.HasPrefix(runs[0].Game, fmt.Sprintf("Kalah(%d,", e.Pits)) {
			t.Fatalf("%s: split %d, %d pits; the template %s", file, e.Split, e.Pits, runs[0].Game)
		}
		pr, err := campaign.Project(one, e.SampleNodes, e.Units, rate, workers, 0, 200, 1)
		if err != nil {
			t.Fatal(err)
		}
		r := "ec"
		if e.Rule != "empty-capture" {
			r = "nec"
		}
		ms := []bench.Metric{
			value("estimated units", e.Units),
			value("template units", float64(pr.Units)),
			value("sample tests", float64(e.Sampled)),
			value("finished", float64(e.Finished)),
			value("estimated nodes", e.Nodes),
			value("M nodes/s a worker", round(rate/1e6, 2)),
		}
		for _, s := range pr.Predictions {
			lo, med, hi := round(s.Low/3600, 2), round(s.Seconds/3600, 2), round(s.High/3600, 2)
			ms = append(ms, bench.Metric{Name: fmt.Sprintf("%d workers h", s.Workers), Min: &lo, Median: &med, Max: &hi},
				value(fmt.Sprintf("%d workers efficiency", s.Workers), round(s.Efficiency, 3)))
		}
		note := fmt.Sprintf("The tree: the one-worker campaign of the template, %s (%d units); each unit's nodes drawn from a "+
			"bootstrap of the estimate's sample, times %.3g (the estimate's units over the template's), at the template run's rate; "+
			"hours as median (10th-90th percentile) of 200 draws: the sample's uncertainty, not that of the assumed %.2g units per frontier board "+
			"nor of the template's shape. Workers of one thread each.", runs[0].Game, pr.Units, pr.Scale, e.TestsPerBoard)
		if e.Sampled < 2 {
			note += " One sample test: every draw gives every unit its cost, and the draws show no uncertainty at all; the sample's is unknown."
		}
		if e.Finished == 0 && e.Sampled > 1 {
			note += " No sample test finished: each one's nodes are what the budget allowed, so the range shows the budget, not the spread of the units' costs."
		}
		if e.LowerBound {
			note += " The budget stopped a sample test: its nodes count as searched so far, and every figure is a floor."
		}
		db := "no database"
		if e.EGDBSeeds > 0 {
			db = fmt.Sprintf("%d-seed database", e.EGDBSeeds)
		}
		recs = append(recs, bench.Record{
			ID:    fmt.Sprintf("campaign-scale-predict-k%d%d-%s-s%d-%s", e.Pits, e.Seeds, r, e.Split, date.Format("20060102-1504")),
			Topic: "campaign-scale",
			Config: fmt.Sprintf("prediction: Kalah(%d,%d) %s, %s, split %d, on 1, 64 and 512 workers",
				e.Pits, e.Seeds, e.Rule, db, e.Split),
			What: "kalah campaign simulate --estimate: a recorded one-worker campaign's unit tree replayed with the unit costs of kalah campaign estimate's sample",
			Command: fmt.Sprintf("kalah campaign estimate --pits %d --seeds %d --rule %s --egdb DIR --split %d --threads 1 --budget B --seed S --json > E (for each sample); "+
				"KALAH_CLUSTER_TEMPLATE=T KALAH_CLUSTER_ESTIMATES=E1+E2... KALAH_CLUSTER_ESTIMATE_LOAD=L go test -run '^TestProjection$' ./campaign/clustertest (T: make scale-test's KALAH_CLUSTER_SCALE_OUT)",
				e.Pits, e.Seeds, e.Rule, e.Split),
			Revision: rev, Machine: "epyc-2c", Date: date.Format("2006-01-02"),
			Load:    fmt.Sprintf("%s (the sample's rate is not used); load average %s when projected", sampleLoad, loadAverage()),
			Metrics: ms, Note: note,
		})
	}
	for _, r := range recs {
		t.Logf("%s: %s", r.Config, metricText(r.Metrics))
	}
	if os.Getenv("KALAH_CLUSTER_SCALE_RECORD") != "" {
		appendRecords(t, recs)
	}
}

// readEstimates reads 'kalah campaign estimate --json' files of one
// campaign and pools their samples (campaign.Estimate.Pool).
func readEstimates(files []string) (campaign.Estimate, error) {
	var pooled campaign.Estimate
	for i, file := range files {
		var e campaign.Estimate
		b, err := os.ReadFile(file)
		if err == nil {
			err = json.Unmarshal(b, &e)
		}
		if err == nil && i > 0 {
			err = pooled.Pool(e)
		}
		if err != nil {
			return e, fmt.Errorf("%s: %v", file, err)
		}
		if i == 0 {
			pooled = e
		}
	}
	return pooled, nil
}
