package egdb

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/kalah-solver/kalah/engine"
)

// TestBuildTiming prints per-slice build times for EGDB_TIMING=maxSeeds
// (six pits); it is skipped otherwise.
func TestBuildTiming(t *testing.T) {
	max, _ := strconv.Atoi(os.Getenv("EGDB_TIMING"))
	if max == 0 {
		t.Skip("set EGDB_TIMING=maxSeeds to time a build")
	}
	threads, _ := strconv.Atoi(os.Getenv("EGDB_THREADS"))
	rules := engine.Rules{Pits: 6, Capture: engine.NoEmptyCapture}
	if os.Getenv("EGDB_RULE") == "empty-capture" {
		rules.Capture = engine.EmptyCapture
	}
	start := time.Now()
	var total int64
	_, err := Build(context.Background(), rules, max, Options{Threads: threads, SliceDone: func(r SliceReport) {
		total += r.Positions
		fmt.Printf("s=%d positions=%d %.2fs %.1f Mpos/s\n", r.Seeds, r.Positions, r.Seconds, float64(r.Positions)/r.Seconds/1e6)
	}})
	if err != nil {
		t.Fatal(err)
	}
	el := time.Since(start).Seconds()
	fmt.Printf("total %d positions %.2fs %.1f Mpos/s\n", total, el, float64(total)/el/1e6)
}

var _ = rand.IntN
