package solver

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/kalah-solver/kalah/engine"
)

// teamMTDF pins down the value of b with the team's null-window tests,
// checking every bound against want.
func teamMTDF(t *testing.T, tm *Team, b engine.Board, want int) (nodes int64) {
	t.Helper()
	s := b.Seeds()
	lo, hi := -s, s
	for lo < hi {
		gamma := lo + 1 + (hi-lo-1)/2 // in (lo, hi]
		v, st, err := tm.NullWindow(context.Background(), b, gamma)
		if err != nil {
			t.Error(err)
			return nodes
		}
		nodes += st.Nodes
		rel := want - b.StoreDiff()
		if v >= gamma {
			if rel < v {
				t.Errorf("%v: test %d says value >= %d, reference %d", b, gamma, v, rel)
				return nodes
			}
			lo = v
		} else {
			if rel > v {
				t.Errorf("%v: test %d says value <= %d, reference %d", b, gamma, v, rel)
				return nodes
			}
			hi = v
		}
	}
	if lo+b.StoreDiff() != want {
		t.Errorf("%v: team value %d, reference %d", b, lo+b.StoreDiff(), want)
	}
	return nodes
}

// TestTeamMatchesBruteForce: several callers run MTD(f) at the same time
// on one team (more callers than threads, so tests wait, take helpers back
// and get helpers), and every bound agrees with the reference.
func TestTeamMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for _, cp := range engine.AllRules {
		for _, m := range []int{5, 6} {
			r := engine.Variant{Pits: m, Rule: cp}
			br := newBrute(r)
			var boards []engine.Board
			var wants []int
			count, most := 12, 17
			if testing.Short() {
				count, most = 8, 15
			}
			for len(boards) < count {
				p := randomPosition(rng, r, 3, 2*m)
				if p.Board.Seeds() > most || p.Board.Seeds() < 10 {
					continue
				}
				boards = append(boards, p.Board)
				wants = append(wants, br.value(p.Board))
			}
			for _, threads := range []int{1, 2, 3} {
				s := newTestSolver(t, r, threads)
				tm := s.Team()
				var wg sync.WaitGroup
				for c := range 4 {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for i := c; i < len(boards); i += 4 {
							teamMTDF(t, tm, boards[i], wants[i])
						}
					}()
				}
				wg.Wait()
				c := tm.Counts()
				t.Logf("%v threads=%d: %+v", r, threads, c)
				if threads > 1 && c.Joins == 0 {
					t.Errorf("%v threads=%d: no helper joined a test", r, threads)
				}
				if n := len(tm.free); n != threads || len(tm.helpers) != 0 || len(tm.tests) != 0 {
					t.Errorf("%v threads=%d: after the tests %d threads free, %d helping, %d tests", r, threads, n, len(tm.helpers), len(tm.tests))
				}
				s.Close()
			}
		}
	}
}

// TestTeamHelpersAnswer: one caller on a team of three gets two helpers
// (the lazy SMP of Solver.test), and a bigger board's values agree with a
// one-thread solver's. A cancelled test returns ErrInterrupted and leaves
// the team whole.
func TestTeamHelpersAnswer(t *testing.T) {
	r := engine.Variant{Pits: 5, Rule: engine.NoEmptyCapture}
	p, _ := r.StartPosition(3)
	one := newTestSolver(t, r, 1)
	defer one.Close()
	want, err := one.BoardValue(context.Background(), p.Board)
	if err != nil {
		t.Fatal(err)
	}
	s := newTestSolver(t, r, 3)
	defer s.Close()
	tm := s.Team()
	if nodes := teamMTDF(t, tm, p.Board, want); nodes == 0 {
		t.Error("no nodes counted")
	}
	if s.Stats().Tests == 0 {
		t.Error("no passes counted")
	}
	if c := tm.Counts(); c.Joins < 2*c.Tests {
		t.Errorf("one caller on three threads: %+v, want two helpers a test", c)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := tm.NullWindow(ctx, p.Board, 1); err != nil && !errors.Is(err, ErrInterrupted) {
		t.Fatalf("cancelled test: %v", err)
	}
	r6 := engine.Variant{Pits: 6, Rule: engine.NoEmptyCapture}
	big, _ := r6.StartPosition(4)
	ctx, cancel = context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	s6 := newTestSolver(t, r6, 2)
	defer s6.Close()
	tm6 := s6.Team()
	if _, _, err := tm6.NullWindow(ctx, big.Board, 1); !errors.Is(err, ErrInterrupted) {
		t.Fatalf("Kalah(6,4) test cut after 50 ms: %v, want ErrInterrupted", err)
	}
	if len(tm6.free) != 2 || len(tm6.helpers) != 0 {
		t.Fatalf("after a cancelled test: %d free, %d helping", len(tm6.free), len(tm6.helpers))
	}
	// The team still answers after a cancelled test.
	teamMTDF(t, tm, p.Board, want)
}
