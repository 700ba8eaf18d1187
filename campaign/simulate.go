package campaign

import (
	"container/heap"
	"math"
	"slices"
)

// Simulate replays a campaign's recorded unit tree (trace.go) on P
// workers ('kalah campaign simulate').
//
// The model: a unit can be issued only once the answer that led to its
// issue (its cause) is in, and the coordinator then took as long as it
// did in the recorded run (its lag: the recorded issue time minus the
// cause's answer time; for a unit without a cause, minus the first
// unit's issue time). A unit takes its worker's recorded seconds, or its
// nodes at a given rate, plus the transport's delay (the tenth percentile
// of the recorded time from issue to answer less the worker's seconds).
// Ready units go to free workers in the order of their readiness, then of
// their recorded issue. Workers that share fewer cores than they are share
// them equally (SimulateOnCores). What the recorded run did without a unit out, the
// coordinator's own guesses before the first unit and its line after the
// last answer, is not in the model.

// Prediction is the simulated run on P workers.
type Prediction struct {
	Workers int `json:"workers"`
	// Seconds: the simulated wall time from the first unit's issue to
	// the last answer; Busy: the workers' time on units.
	Seconds    float64 `json:"seconds"`
	Busy       float64 `json:"busy_seconds"`
	Efficiency float64 `json:"efficiency"` // Busy / (Workers x Seconds)
	Idle       float64 `json:"idle_share"` // 1 - Efficiency
}

// Simulation is Simulate's answer.
type Simulation struct {
	Units int   `json:"units"`
	Nodes int64 `json:"nodes"`
	// Recorded: the recorded wall time from the first unit's issue to
	// the last answer, and the recorded run's workers (identities).
	Recorded        float64 `json:"recorded_seconds"`
	RecordedWorkers int     `json:"recorded_workers"`
	// Rate: nodes a second of one worker the units are replayed at (0:
	// each unit at its recorded seconds); Delay: the transport's delay
	// added to each unit.
	Rate  float64 `json:"nodes_per_second"`
	Delay float64 `json:"delay_seconds"`
	// Cores: the cores the workers share (0: a core each).
	Cores       int          `json:"cores,omitempty"`
	Predictions []Prediction `json:"predictions"`
}

// Simulate replays traces on each count of workers; rate > 0 replays
// every unit at that many nodes a second instead of its recorded seconds.
// Every worker has a core of its own.
func Simulate(traces []Trace, workers []int, rate float64) Simulation {
	return SimulateOnCores(traces, workers, rate, 0)
}

// SimulateOnCores is Simulate with the workers sharing cores cores (0: a
// core each): while more units run than there are cores, each goes at
// cores over their count of its speed alone (processor sharing); the
// transport's delay is not slowed.
func SimulateOnCores(traces []Trace, workers []int, rate float64, cores int) Simulation {
	sim := Simulation{Units: len(traces), Rate: rate, Cores: max(cores, 0)}
	if len(traces) == 0 {
		return sim
	}
	t := newTree(traces)
	sim.Delay, sim.Recorded, sim.RecordedWorkers = t.delay, t.recorded, t.workers
	work := make([]float64, len(traces))
	for i, tr := range traces {
		sim.Nodes += tr.Nodes
		if rate > 0 {
			work[i] = float64(tr.Nodes) / rate
		} else {
			work[i] = tr.Seconds
		}
	}
	for _, p := range workers {
		sim.Predictions = append(sim.Predictions, replay(p, cores, t, work))
	}
	return sim
}

// tree is a recorded unit tree as Simulate replays it: the units without
// a recorded cause (roots), each unit's units caused by it (children), its
// lag after its cause (after the first issue for a root), and the run's
// transport delay, recorded wall time and workers.
type tree struct {
	roots    []int
	children [][]int
	lag      []float64
	delay    float64
	recorded float64
	workers  int
}

func newTree(traces []Trace) tree {
	var t tree
	byID := map[string]int{}
	ids := map[string]bool{}
	t0, last := math.Inf(1), math.Inf(-1)
	var delays []float64
	for i, tr := range traces {
		byID[tr.ID] = i
		ids[tr.Worker] = true
		t0, last = min(t0, tr.Issued), max(last, tr.Finished)
		delays = append(delays, max(tr.Finished-tr.Issued-tr.Seconds, 0))
	}
	slices.Sort(delays)
	t.delay = delays[len(delays)/10]
	t.recorded, t.workers = last-t0, len(ids)
	t.children = make([][]int, len(traces))
	t.lag = make([]float64, len(traces))
	for i, tr := range traces {
		if c, ok := byID[tr.Cause]; ok && tr.Cause != "" && c != i && traces[c].Finished <= tr.Issued {
			t.children[c] = append(t.children[c], i)
			t.lag[i] = tr.Issued - traces[c].Finished
		} else {
			t.roots = append(t.roots, i)
			t.lag[i] = tr.Issued - t0
		}
	}
	return t
}

// replay is one list-scheduling run of tree t on p workers sharing
// cores cores (0: a core each), unit i taking work[i] seconds alone plus
// the transport's delay. Running units share the cores equally, so they
// all progress alike: v is the work a unit running since the start would
// have done, and a unit started at v0 is done computing when v reaches
// v0 plus its work.
func replay(p, cores int, t tree, work []float64) Prediction {
	ready := &evHeap{}
	for _, i := range t.roots {
		heap.Push(ready, ev{at: t.lag[i], unit: i})
	}
	computing := &evHeap{} // at: the v it is done at
	sending := &evHeap{}   // at: when its answer is in
	start := make([]float64, len(work))
	free, now, v, busy := p, 0.0, 0.0, 0.0
	speed := func() float64 {
		if n := computing.Len(); cores > 0 && n > cores {
			return float64(cores) / float64(n)
		}
		return 1
	}
	for ready.Len() > 0 || computing.Len() > 0 || sending.Len() > 0 {
		for free > 0 && ready.Len() > 0 && (*ready)[0].at <= now {
			e := heap.Pop(ready).(ev)
			start[e.unit] = now
			heap.Push(computing, ev{at: v + work[e.unit], unit: e.unit})
			free--
		}
		s := speed()
		next := math.Inf(1)
		if computing.Len() > 0 {
			next = now + ((*computing)[0].at-v)/s
		}
		if sending.Len() > 0 {
			next = min(next, (*sending)[0].at)
		}
		if free > 0 && ready.Len() > 0 {
			next = min(next, (*ready)[0].at)
		}
		next = max(next, now)
		v += (next - now) * s
		now = next
		for computing.Len() > 0 && (*computing)[0].at <= v+1e-9*max(1, math.Abs(v)) {
			e := heap.Pop(computing).(ev)
			heap.Push(sending, ev{at: now + t.delay, unit: e.unit})
		}
		for sending.Len() > 0 && (*sending)[0].at <= now {
			e := heap.Pop(sending).(ev)
			free++
			busy += e.at - start[e.unit]
			for _, c := range t.children[e.unit] {
				heap.Push(ready, ev{at: e.at + t.lag[c], unit: c})
			}
		}
	}
	pr := Prediction{Workers: p, Seconds: round3(now), Busy: round3(busy)}
	if now > 0 {
		pr.Efficiency = round3(busy / (float64(p) * now))
		pr.Idle = round3(1 - busy/(float64(p)*now))
	}
	return pr
}

// ev is a unit ready (at: when) or running (at: its end); ties go to the
// unit issued first in the recorded run.
type ev struct {
	at   float64
	unit int
}

type evHeap []ev

func (h evHeap) Len() int { return len(h) }
func (h evHeap) Less(i, j int) bool {
	if h[i].at != h[j].at {
		return h[i].at < h[j].at
	}
	return h[i].unit < h[j].unit
}
func (h evHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *evHeap) Push(x any)   { *h = append(*h, x.(ev)) }
func (h *evHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
