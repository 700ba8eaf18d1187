package solver

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kalah-solver/kalah/engine"
)

// TestProgressBoundsHold: every progress report, from the ticker as well
// as after the passes, carries bounds that hold the exact value of the
// stage it names and lie within the seeds of the game, for a root solve
// and for a board's value, from the first report on.
func TestProgressBoundsHold(t *testing.T) {
	r := engine.Variant{Pits: 5, Rule: engine.NoEmptyCapture}
	p, want := solvedStart(t, r, 3)
	exact := map[string]int{"start": want.Value, "value": want.Value, "deepening": want.Value, "position": want.Value}
	for _, m := range want.Moves {
		exact["move "+m.Move] = m.Value
	}
	total := p.Board.Total()
	for _, threads := range []int{1, 2} {
		var mu sync.Mutex
		var got []Progress
		for _, board := range []bool{false, true} {
			s, err := New(r, Options{TableSize: 1 << 22, Threads: threads, ProgressEvery: 50 * time.Microsecond, Progress: func(q Progress) {
				mu.Lock()
				got = append(got, q)
				mu.Unlock()
			}})
			if err != nil {
				t.Fatal(err)
			}
			if board {
				_, err = s.BoardValue(context.Background(), p.Board)
			} else {
				_, err = s.SolveEveryMove(context.Background(), p)
			}
			s.Close()
			if err != nil {
				t.Fatal(err)
			}
		}
		mu.Lock()
		if len(got) < 10 {
			t.Fatalf("threads=%d: %d progress reports", threads, len(got))
		}
		for _, q := range got {
			v, ok := exact[q.Stage]
			if !ok && !strings.HasPrefix(q.Stage, "pv") {
				t.Fatalf("threads=%d: report of unknown stage %q", threads, q.Stage)
			}
			if q.Lower < -total || q.Upper > total || (ok && (q.Lower > v || q.Upper < v)) {
				t.Fatalf("threads=%d: stage %q in [%d, %d], exact %+d, %d seeds", threads, q.Stage, q.Lower, q.Upper, v, total)
			}
		}
		mu.Unlock()
	}
}

// TestProgressTotal: a report's Total counts the nodes of every solve of
// the solver so far, Nodes only the current one's, so that a caller
// running several solves of one task (a sweep's cell) shows the task's.
func TestProgressTotal(t *testing.T) {
	r := engine.Variant{Pits: 5, Rule: engine.NoEmptyCapture}
	p, _ := solvedStart(t, r, 3)
	var mu sync.Mutex
	var got []Progress
	s, err := New(r, Options{TableSize: 1 << 22, Threads: 1, ProgressEvery: 50 * time.Microsecond, Progress: func(q Progress) {
		mu.Lock()
		got = append(got, q)
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.SolveEveryMove(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	first := s.Stats().Nodes
	mu.Lock()
	n := len(got)
	mu.Unlock()
	s.Table().Clear()
	if _, err := s.BoardValue(context.Background(), p.Board); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if n == 0 || len(got) == n {
		t.Fatalf("%d reports of the first solve, %d of the second", n, len(got)-n)
	}
	for i, q := range got {
		if q.Total < q.Nodes || i < n && q.Total != q.Nodes {
			t.Fatalf("report %d (%q): Total %d, Nodes %d", i, q.Stage, q.Total, q.Nodes)
		}
		if i >= n && q.Total != first+q.Nodes {
			t.Fatalf("report %d of the second solve: Total %d, want %d + Nodes %d", i, q.Total, first, q.Nodes)
		}
	}
}
