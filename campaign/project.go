package campaign

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// Project replays a recorded unit tree (Simulate's model) with the unit
// costs of a campaign not run, from its estimate's sample ('kalah campaign
// simulate --estimate'): the tree's shape, lags and transport delay are
// the recorded campaign's; each unit's nodes are drawn from the sample.
//
// Each draw first resamples the estimate's sample tests with replacement
// (a bootstrap: the uncertainty of a small sample's mean and spread), then
// gives every unit of the tree the nodes of one of them at random, times
// scale, and replays the tree at rate nodes a second a worker. scale is
// the estimate's units over the tree's, so the draws' mean work is the
// estimate's nodes: the tree keeps its count of units (its parallelism),
// and each unit is scale times as large. The spread of the draws is the
// sample's uncertainty only; the estimate's assumed tests per board and
// the template's shape are not in it.

// Spread is one count of workers' predicted wall time over the draws.
type Spread struct {
	Workers int `json:"workers"`
	// Seconds is the median draw's wall time, Low and High the 10th and
	// 90th percentiles; Efficiency the median of the workers' busy share.
	Seconds    float64 `json:"seconds"`
	Low        float64 `json:"low_seconds"`
	High       float64 `json:"high_seconds"`
	Efficiency float64 `json:"efficiency"`
}

// Projection is Project's answer.
type Projection struct {
	Units          int      `json:"units"`           // the recorded tree's
	EstimatedUnits float64  `json:"estimated_units"` // the estimate's
	Scale          float64  `json:"scale"`           // nodes of a unit over a drawn sample test's
	Sample         int      `json:"sample"`          // the estimate's sample tests
	Rate           float64  `json:"nodes_per_second"`
	Delay          float64  `json:"delay_seconds"`
	Cores          int      `json:"cores,omitempty"`
	Draws          int      `json:"draws"`
	Predictions    []Spread `json:"predictions"`
}

// Project replays traces draws times on each count of workers with unit
// costs drawn from sample (nodes of the estimate's sample tests); units
// is the estimate's count of units and rate one worker's nodes a second;
// cores are the cores the workers share (0: a core each; SimulateOnCores).
func Project(traces []Trace, sample []int64, units, rate float64, workers []int, cores, draws int, seed uint64) (Projection, error) {
	pr := Projection{Units: len(traces), EstimatedUnits: units, Sample: len(sample), Rate: rate, Cores: max(cores, 0), Draws: draws}
	switch {
	case len(traces) == 0:
		return pr, fmt.Errorf("no recorded units to replay")
	case len(sample) == 0:
		return pr, fmt.Errorf("the estimate has no sample tests")
	case rate <= 0 || units <= 0 || draws < 1:
		return pr, fmt.Errorf("a rate, a count of units and draws must be positive (rate %g, units %g, draws %d)", rate, units, draws)
	}
	t := newTree(traces)
	pr.Delay = t.delay
	pr.Scale = units / float64(len(traces))
	rng := rand.New(rand.NewPCG(seed, 0x73696d))
	secs := make([][]float64, len(workers))
	effs := make([][]float64, len(workers))
	boot := make([]int64, len(sample))
	work := make([]float64, len(traces))
	for range draws {
		for i := range boot {
			boot[i] = sample[rng.IntN(len(sample))]
		}
		for i := range work {
			work[i] = float64(boot[rng.IntN(len(boot))]) * pr.Scale / rate
		}
		for k, p := range workers {
			r := replay(p, cores, t, work)
			secs[k] = append(secs[k], r.Seconds)
			effs[k] = append(effs[k], r.Efficiency)
		}
	}
	for k, p := range workers {
		slices.Sort(secs[k])
		slices.Sort(effs[k])
		pr.Predictions = append(pr.Predictions, Spread{Workers: p, Seconds: quantile(secs[k], 0.5),
			Low: quantile(secs[k], 0.1), High: quantile(secs[k], 0.9), Efficiency: quantile(effs[k], 0.5)})
	}
	return pr, nil
}

// quantile is the q-quantile of sorted xs (the nearest rank).
func quantile(xs []float64, q float64) float64 {
	i := int(q * float64(len(xs)))
	return xs[min(i, len(xs)-1)]
}
