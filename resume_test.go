package kalah

import (
	"context"
	"errors"
	"log"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kalah-solver/kalah/persist"
	"github.com/kalah-solver/kalah/solver"
	"github.com/kalah-solver/kalah/tt"
)

// stageLog records, from a solve's progress reports, the nodes searched
// when each stage ("move c", ...) was last reported, in order of the
// stages' first appearance.
type stageLog struct {
	mu     sync.Mutex
	order  []string
	nodes  map[string]int64
	onMove func(moves int) // called when a new root move's search begins
}

func (l *stageLog) report(p solver.Progress) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.nodes == nil {
		l.nodes = map[string]int64{}
	}
	if _, ok := l.nodes[p.Stage]; !ok {
		l.order = append(l.order, p.Stage)
		if l.onMove != nil && len(p.Stage) > 5 && p.Stage[:5] == "move " {
			l.onMove(len(l.order))
		}
	}
	l.nodes[p.Stage] = max(l.nodes[p.Stage], p.Nodes)
}

// cost is what each stage cost: its last report's nodes minus the last
// report of the stage before it.
func (l *stageLog) cost() map[string]int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := map[string]int64{}
	prev := int64(0)
	for _, s := range l.order {
		out[s] = l.nodes[s] - prev
		prev = max(prev, l.nodes[s])
	}
	return out
}

// A solve interrupted after some root moves are pinned down leaves a
// checkpoint in the cache; a new session (a cold table) resumes from it:
// the finished moves cost it next to nothing, the whole solve fewer nodes
// than a fresh one, and the answer is a fresh solve's. Once it is
// finished, the checkpoint is gone. The interruption is a context cancel
// at the moment the progress reports show the third move's search begin.
func TestResumeAfterInterrupt(t *testing.T) {
	cfg := Config{Pits: 5, Seeds: 3, Threads: 1, NoEGDB: true, TableSize: 64 << 20,
		CheckpointEvery: time.Nanosecond}
	fresh := func() (*Result, map[string]int64) {
		var l stageLog
		c := cfg
		c.NoCache, c.Progress = true, l.report
		k, err := Open(c)
		if err != nil {
			t.Fatal(err)
		}
		defer k.Close()
		res, err := k.Solve(context.Background(), k.Start())
		if err != nil {
			t.Fatal(err)
		}
		return res, l.cost()
	}
	want, wantCost := fresh()

	dir := filepath.Join(t.TempDir(), "cache")
	cfg.CacheDir = dir
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first := &stageLog{onMove: func(n int) {
		if n == 3 {
			cancel()
		}
	}}
	c := cfg
	c.Progress = first.report
	k, err := Open(c)
	if err != nil {
		t.Fatal(err)
	}
	part, err := k.Solve(ctx, k.Start())
	if !errors.Is(err, solver.ErrInterrupted) {
		t.Fatalf("interrupted solve: %v", err)
	}
	var finished []string
	for _, m := range part.Moves {
		if m.Solved {
			finished = append(finished, "move "+m.Move)
		}
	}
	if len(finished) < 2 {
		t.Fatalf("interrupted after %d finished moves (%v); want 2", len(finished), part.Moves)
	}
	if err := k.Close(); err != nil {
		t.Fatal(err)
	}

	second := &stageLog{}
	c.Progress = second.report
	k, err = Open(c)
	if err != nil {
		t.Fatal(err)
	}
	got, err := k.Solve(context.Background(), k.Start())
	if err != nil {
		t.Fatal(err)
	}
	if got.FromCache || !got.Resumed {
		t.Fatalf("resumed solve: from cache %v, resumed %v", got.FromCache, got.Resumed)
	}
	if got.Value != want.Value || len(got.Moves) != len(want.Moves) {
		t.Fatalf("resumed solve: value %d, %d moves; fresh: %d, %d moves", got.Value, len(got.Moves), want.Value, len(want.Moves))
	}
	for i, m := range got.Moves {
		if m.Value != want.Moves[i].Value || !m.Solved {
			t.Errorf("move %s: resumed %+d (solved %v), fresh %+d", m.Move, m.Value, m.Solved, want.Moves[i].Value)
		}
	}
	cost := second.cost()
	for _, s := range finished {
		// One null-window test answered by the entry of the move's child:
		// a handful of nodes, against thousands in the fresh solve.
		if cost[s] > wantCost[s]/20 {
			t.Errorf("%s finished before the interruption: resumed solve spent %d nodes on it, fresh %d", s, cost[s], wantCost[s])
		}
	}
	if got.Stats.Nodes >= want.Stats.Nodes {
		t.Errorf("resumed solve: %d nodes, fresh %d", got.Stats.Nodes, want.Stats.Nodes)
	}
	t.Logf("fresh %d nodes; interrupted after %d nodes (%v done); resumed: %d nodes",
		want.Stats.Nodes, part.Stats.Nodes, finished, got.Stats.Nodes)
	if err := k.Close(); err != nil {
		t.Fatal(err)
	}

	// The finished solve dropped its checkpoint and saved its root record.
	st, err := persist.Open(dir, k.Variant(), persist.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tab, _ := tt.New(5, cfg.TableSize)
	if _, err := st.LoadCheckpoint(k.Start(), tab); !errors.Is(err, persist.ErrNoCheckpoint) {
		t.Errorf("after the finished solve: %v", err)
	}
	if _, ok := st.GetRoot(k.Start()); !ok {
		t.Error("no root record after the finished solve")
	}
}

// Checkpoints taken while the workers search (as often as they can be
// here) change nothing in the answer, and the race detector sees the
// table read beside the search; the finished solve leaves none behind.
func TestCheckpointsWhileSearching(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	var saved sync.Map
	cfg := Config{Pits: 5, Seeds: 3, Threads: 2, NoEGDB: true, TableSize: 16 << 20, CacheDir: dir,
		CheckpointEvery: time.Millisecond, Log: log.New(logFunc(func(s string) { saved.Store(s, true) }), "", 0)}
	k, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	res, err := k.Solve(context.Background(), k.Start())
	if err != nil {
		t.Fatal(err)
	}
	if res.Value != 6 { // as a fresh solve without a cache (TestResumeAfterInterrupt)
		t.Errorf("value %+d, want +6", res.Value)
	}
	n := 0
	saved.Range(func(key, _ any) bool {
		if strings.HasPrefix(key.(string), "checkpoint ") {
			n++
		}
		return true
	})
	t.Logf("%d checkpoints during a solve of %d nodes", n, res.Stats.Nodes)
	if files, _ := filepath.Glob(filepath.Join(dir, "resume", "*")); len(files) != 0 {
		t.Errorf("after the solve: %v", files)
	}
}

// logFunc is an io.Writer that hands each log line to a function.
type logFunc func(string)

func (f logFunc) Write(b []byte) (int, error) {
	f(string(b))
	return len(b), nil
}
