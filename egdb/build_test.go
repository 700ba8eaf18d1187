package egdb

import (
	"context"
	"sync/atomic"
	"testing"
)

// A build reports every slice once, in order, with its size, and its
// progress adds up to the positions built.
func TestBuildReports(t *testing.T) {
	var reps []SliceReport
	var progress atomic.Int64
	db, err := Build(context.Background(), rules4, 10, Options{Threads: 2,
		SliceDone: func(r SliceReport) { reps = append(reps, r) },
		Progress:  func(n int64) { progress.Add(n) }})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if len(reps) != 11 {
		t.Fatalf("%d reports for slices 0..10", len(reps))
	}
	for s, r := range reps {
		if r.Seeds != s || r.Positions != SliceSize(4, s).Int64() || !r.Built || r.Seconds < 0 {
			t.Errorf("report %d: %+v, want slice %d of %d positions, built", s, r, s, SliceSize(4, s).Int64())
		}
	}
	if n := CumulativeSize(4, 10).Int64(); progress.Load() != n {
		t.Errorf("progress adds up to %d, the build has %d positions", progress.Load(), n)
	}
}
