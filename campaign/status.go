package campaign

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/kalah-solver/kalah/results"
	"github.com/kalah-solver/kalah/solver"
	"github.com/nats-io/nats.go/jetstream"
)

// Status is a campaign's progress, written to the state bucket by its
// coordinator every few seconds and at its end ('kalah campaign status').
type Status struct {
	Params
	State string `json:"state"` // running, stopped (the coordinator ended early) or done
	Runs  int    `json:"runs"`  // coordinator runs so far
	// Restarts is Runs-1: how often the coordinator was started again.
	Restarts int `json:"restarts"`
	// Lower and Upper bound the root's value (for its mover, stores
	// counted), Moves every root move's.
	Lower int          `json:"lower"`
	Upper int          `json:"upper"`
	Moves []MoveStatus `json:"moves"`

	Issued      int64 `json:"units_issued"`      // units put on the queue
	Done        int64 `json:"units_done"`        // answers accepted
	Cancelled   int64 `json:"units_cancelled"`   // units given up after a brother failed high
	Redelivered int64 `json:"units_redelivered"` // answers that needed a second delivery (a worker vanished)
	// Recovered: units whose copy left the queue unanswered, answered
	// from the results bucket or queued again; Stalled: units waiting
	// now for longer than a minute with no worker that may take them
	// heard from for as long (watch.go).
	Recovered int64 `json:"units_recovered"`
	Stalled   int64 `json:"units_stalled"`
	// Affine: answers to units that went first to the worker that
	// answered their board's last test (affinity.go); AffineKept: those
	// that worker answered.
	Affine     int64 `json:"units_affine"`
	AffineKept int64 `json:"units_affine_kept"`
	// Repeated: result messages delivered to the coordinator again (held
	// past the results consumer's ack wait, or around a crash), taken
	// once and not counted in Done or Nodes again.
	Repeated   int64 `json:"results_repeated"`
	Rejected   int64 `json:"results_rejected"`   // result messages not trusted
	Mismatched int64 `json:"results_mismatched"` // answers of another build, rule or database depth, rejected
	// RefusedResults: answers of quarantined workers, refused (check.go).
	RefusedResults int64 `json:"results_refused"`
	// The cross-checks (check.go): the share of accepted answers checked
	// by this run, the checks issued, those that agreed, those whose first
	// answer disagreed (each then had a third test), those left undone
	// (no other worker to take them), and the nodes they cost (counted
	// in Nodes too).
	VerifyShare     float64 `json:"verify_share"`
	ChecksIssued    int64   `json:"checks_issued"`
	ChecksAgreed    int64   `json:"checks_agreed"`
	ChecksDisagreed int64   `json:"checks_disagreed"`
	ChecksUndone    int64   `json:"checks_undone"`
	CheckNodes      int64   `json:"check_nodes"`
	// BoundsCrossed: answers whose bound crossed the opposite bound on
	// the same board (both sides are checked).
	BoundsCrossed int64 `json:"bounds_crossed"`
	// Quarantined: the workers found giving a wrong answer, whose answers
	// are refused; SearchRestarts, how often the search started again
	// because of one.
	Quarantined    []Quarantine `json:"quarantined"`
	SearchRestarts int          `json:"search_restarts"`
	// Refused: workers that hand this campaign's units back, and why
	// (filled in by Info).
	Refused []Refusal `json:"refused"`
	Local   int64     `json:"local_tests"` // small tests the coordinator ran itself
	// Outages: how often the coordinator found the cluster not answering
	// and waited for it, OutageSeconds for how long in all (outage.go).
	Outages       int     `json:"cluster_outages"`
	OutageSeconds float64 `json:"cluster_outage_seconds"`
	// Pending and InFlight are filled in by Info, from the stream: units
	// queued and units held by workers (over every campaign) right now.
	Pending  uint64 `json:"units_pending"`
	InFlight int    `json:"units_in_flight"`

	// The rate over a recent window of the coordinator's run (rate.go):
	// RateWindow is the window's length in seconds, 0 before there is one.
	RateWindow     float64 `json:"rate_window_seconds"`
	UnitsPerSecond float64 `json:"units_per_second"`
	NodesPerSecond float64 `json:"nodes_per_second"`
	// ETA, filled in by Info: seconds to drain the units out now at that
	// rate, null when unknown; ETABasis says what it rests on.
	ETA      *float64 `json:"eta_seconds"`
	ETABasis string   `json:"eta_basis"`

	Nodes int64 `json:"nodes"` // over every accepted answer
	// CoordinatorNodes is the coordinator's own search over every run:
	// its guesses, its tests of small boards and the end of the line. The
	// record's node count is Nodes + CoordinatorNodes.
	CoordinatorNodes int64 `json:"coordinator_nodes"`
	// SharedHits: entries the workers found in the shared table, over
	// every accepted answer.
	SharedHits int64 `json:"shared_hits"`
	// Stats: the workers' search counters over every accepted answer
	// that reports them (the fields of 'kalah solve --json'), to compare
	// a campaign's node mix with a solve's: peeks, table probes and
	// database answers a node.
	Stats solver.Stats `json:"stats"`

	CPUSeconds float64      `json:"cpu_seconds"` // workers' seconds over every accepted answer
	Seconds    float64      `json:"seconds"`     // the coordinator's wall time over every run
	Workers    []WorkerInfo `json:"workers"`
	Updated    string       `json:"updated"`
}

// MoveStatus is a root move's proven bounds.
type MoveStatus struct {
	Move  string `json:"move"`
	Lower int    `json:"lower"`
	Upper int    `json:"upper"`
}

// WorkerInfo is what a worker contributed and how it was built (every
// answer accepted is of the campaign's build and database depth, see
// signature.go): one row per identity (identity.go).
type WorkerInfo struct {
	Name      string  `json:"name"`
	Host      string  `json:"host"`
	PID       int     `json:"pid"`
	Build     string  `json:"build"`
	Revision  string  `json:"revision"`
	EGDBSeeds int     `json:"egdb_seeds"`
	Threads   int     `json:"threads"`
	TableSize int64   `json:"table_size"`
	Units     int64   `json:"units"`
	Nodes     int64   `json:"nodes"` // over its units and its checks
	Seconds   float64 `json:"seconds"`
	// LastHeard: when its last answer was taken (RFC 3339).
	LastHeard string `json:"last_heard"`
	// Checked: its answers picked for a check; Checks: the checks it
	// solved; Refused: its answers refused after its quarantine.
	Checked     int64 `json:"checked"`
	Checks      int64 `json:"checks"`
	Refused     int64 `json:"refused"`
	Quarantined bool  `json:"quarantined"`
}

// ID is the row's identity key (Identity.ID).
func (w WorkerInfo) ID() string { return Identity{Name: w.Name, Host: w.Host, PID: w.PID}.ID() }

// workerRow returns the row of r's worker, added when new.
func (s *Status) workerRow(r Result) *WorkerInfo {
	id := r.Identity().ID()
	for i := range s.Workers {
		if s.Workers[i].ID() == id {
			return &s.Workers[i]
		}
	}
	s.Workers = append(s.Workers, WorkerInfo{Name: r.Worker, Host: r.Host, PID: r.PID, Build: r.Build, Revision: r.Revision,
		EGDBSeeds: r.EGDBSeeds, Threads: r.Threads, TableSize: r.TableSize})
	sort.Slice(s.Workers, func(i, j int) bool { return s.Workers[i].ID() < s.Workers[j].ID() })
	for i := range s.Workers {
		if s.Workers[i].ID() == id {
			return &s.Workers[i]
		}
	}
	return nil
}

func (s *Status) addWorker(r Result) {
	w := s.workerRow(r)
	w.Units++
	w.Nodes += r.Nodes
	w.Seconds += r.Seconds
}

// markQuarantined marks the row of the worker id.
func (s *Status) markQuarantined(id string) {
	for i := range s.Workers {
		if s.Workers[i].ID() == id {
			s.Workers[i].Quarantined = true
		}
	}
}

// setMove records the bounds of root move j and the root's.
func (co *Coordinator) setMove(j, lo, hi int) {
	co.mu.Lock()
	defer co.mu.Unlock()
	co.st.Moves[j].Lower, co.st.Moves[j].Upper = lo, hi
	co.st.Lower, co.st.Upper = -1<<30, -1<<30
	for _, m := range co.st.Moves {
		co.st.Lower, co.st.Upper = max(co.st.Lower, m.Lower), max(co.st.Upper, m.Upper)
	}
}

// stopping reports that the campaign itself is being stopped.
func (co *Coordinator) stopping() bool { return co.runCtx != nil && co.runCtx.Err() != nil }

// stamp fills in how the record was computed: the nodes (the workers'
// and the coordinator's own), the workers' tables, the database depth they
// used and this build's provenance.
func (co *Coordinator) stamp(rec *results.Record) {
	co.mu.Lock()
	defer co.mu.Unlock()
	rec.Nodes = co.st.Nodes + co.st.CoordinatorNodes
	// Every answer is of the campaign's build and database depth (the
	// coordinator rejects any other).
	rec.EGDBSeeds = co.p.EGDBSeeds
	for _, w := range co.st.Workers {
		rec.Threads += w.Threads
		rec.TableSize = max(rec.TableSize, w.TableSize)
	}
	rec.Date = time.Now().UTC().Format("2006-01-02")
	rec.Provenance = results.Current()
}

// statusLoop writes the status every StatusEvery until the returned
// function is called.
func (co *Coordinator) statusLoop(ctx context.Context, prevSeconds float64) func() {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(co.cfg.StatusEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				if _, err := co.c.State.Get(ctx, co.p.Name+".stop"); err == nil {
					co.logf("stopped by 'kalah campaign stop'")
					co.stopRun()
					return
				}
				co.mu.Lock()
				co.st.Seconds = prevSeconds + time.Since(co.start).Seconds()
				co.rate.add(sample{t: time.Now(), done: co.st.Done, nodes: co.st.Nodes})
				co.st.setRate(&co.rate)
				st := co.st
				st.Moves = append([]MoveStatus(nil), co.st.Moves...)
				st.Workers = append([]WorkerInfo(nil), co.st.Workers...)
				st.Quarantined = append([]Quarantine(nil), co.st.Quarantined...)
				co.mu.Unlock()
				co.saveStatus(ctx, &st)
			}
		}
	}()
	return func() { close(done); <-finished }
}

// SaveStatus writes a campaign's status to the state bucket.
func SaveStatus(ctx context.Context, c *Conn, st *Status) error {
	st.Updated = time.Now().UTC().Format(time.RFC3339)
	data, err := json.Marshal(st)
	if err != nil {
		return err
	}
	_, err = c.State.Put(ctx, st.Name+".status", data)
	return err
}

// LoadStatus reads a campaign's last status.
func LoadStatus(ctx context.Context, c *Conn, name string) (*Status, error) {
	e, err := c.State.Get(ctx, name+".status")
	if err != nil {
		return nil, err
	}
	var st Status
	return &st, json.Unmarshal(e.Value(), &st)
}

// ErrNotDone is returned for the record of a campaign not finished yet.
var ErrNotDone = errors.New("campaign not finished")

// LoadRecord reads a finished campaign's record.
func LoadRecord(ctx context.Context, c *Conn, name string) (*results.Record, error) {
	e, err := c.State.Get(ctx, name+".record")
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, fmt.Errorf("%w: %q", ErrNotDone, name)
	}
	if err != nil {
		return nil, err
	}
	var rec results.Record
	err = json.Unmarshal(e.Value(), &rec)
	rec.SyncDeprecated()
	return &rec, err
}

// Info returns a campaign's status with the queue's counts: its units
// pending on the stream and the units workers hold.
func Info(ctx context.Context, c *Conn, name string) (*Status, error) {
	p, err := LoadParams(ctx, c, name)
	if err != nil {
		return nil, err
	}
	st, err := LoadStatus(ctx, c, name)
	if err != nil {
		st = &Status{Params: p, State: "created"}
		st.Lower, st.Upper = p.wholeRange()
	}
	if s, err := c.JS.Stream(ctx, unitStream); err == nil {
		if info, err := s.Info(ctx, jetstream.WithSubjectFilter(unitSubject(name))); err == nil {
			st.Pending = info.State.Subjects[unitSubject(name)]
		}
		if cons, err := s.Consumer(ctx, workersName); err == nil {
			if ci, err := cons.Info(ctx); err == nil {
				st.InFlight = ci.NumAckPending
				st.Pending -= min(st.Pending, uint64(ci.NumAckPending))
			}
		}
	}
	st.Refused = loadRefusals(ctx, c, name)
	st.setETA(time.Now())
	return st, nil
}

// Stop asks a campaign's coordinator to stop (it checks at its next status
// write) and removes the campaign's units still queued; answers already
// given stay in the bucket, and 'campaign start' goes on from them.
func Stop(ctx context.Context, c *Conn, name string) error {
	if _, err := LoadParams(ctx, c, name); err != nil {
		return err
	}
	if _, err := c.State.Put(ctx, name+".stop", []byte(time.Now().UTC().Format(time.RFC3339))); err != nil {
		return err
	}
	s, err := c.JS.Stream(ctx, unitStream)
	if err != nil {
		return err
	}
	return s.Purge(ctx, jetstream.WithPurgeSubject(unitSubject(name)))
}
