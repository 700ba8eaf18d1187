package campaign

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/solver"
)

// An estimate of a campaign before it runs ('kalah campaign estimate').
//
// It rests on two measured things and one assumed one:
//
//  1. The frontier (measured, exact): the distinct boards the
//     coordinator's split reaches Split plies below the root moves, as
//     search.go walks them (extra turns are plies too); every unit is a
//     null-window test on one of them. Boards of at most LocalSeeds seeds
//     are the coordinator's own and no unit.
//  2. The cost of a unit (measured, sampled): frontier boards in a random
//     order, each given the null-window test a unit would be (at the
//     rounded depth-limited guess, as the first MTD(f) step asks), solved
//     one after the other by one local session, as a worker solves its
//     units, until the budget runs out. A test the budget stops counts
//     with the nodes it had searched, and makes the estimate a lower one.
//  3. Tests per frontier board (assumed): how many units the coordinator
//     issues per frontier board over the whole campaign (MTD(f) steps
//     times the share of brothers the young-brothers wait lets out),
//     by default the ratio measured on the campaigns of
//     docs/distributed.md at the same split (TestsPerBoard).
//
// Then units = frontier boards (not local) x tests per board, and nodes =
// units x the sampled mean; both are printed with their parts. The sample
// is small and unit costs are skewed (a few units hold most nodes), so the
// estimate is an order of magnitude, and says so.

// testsPerBoard is units issued per frontier board by split (index),
// measured on the campaigns of docs/distributed.md: at split 0 the MTD(f)
// steps of a root move (16-17); at split 1 the mean of six Kalah(6,3),
// (6,4) and (6,5) campaigns (86, 121, 113, 96, 69 and 105 units on 35
// boards); at splits 2-4 the mean of the Kalah(6,4) campaigns of both
// rules with the 28-seed databases (150 and 111 units on 185 boards, 357
// and 266 on 941, 636 and 566 on 4,665 and 4,671; docs/distributed.md). The deeper
// the split, the more of the frontier the young-brothers wait never
// reaches.
var testsPerBoard = [...]float64{16, 2.8, 0.70, 0.33, 0.13}

// TestsPerBoard is the units issued per frontier board that an estimate
// at split assumes by default (testsPerBoard; 0 past the measured
// splits).
func TestsPerBoard(split int) float64 {
	if split < 0 || split >= len(testsPerBoard) {
		return 0
	}
	return testsPerBoard[split]
}

// EstimateConfig configures an estimate's local solver and budget.
type EstimateConfig struct {
	Budget        time.Duration // the sampling's wall time
	Threads       int
	TableSize     int64 // 0: the session's policy for the game
	EGDBDir       string
	NoEGDB        bool
	TestsPerBoard float64 // 0: TestsPerBoard(split)
	Seed          uint64  // the sample's order
}

// Estimate is what 'kalah campaign estimate' prints.
type Estimate struct {
	Params
	Frontier      int     `json:"frontier_boards"`   // distinct boards Split plies below the root moves
	FrontierLocal int     `json:"frontier_local"`    // of which the coordinator tests itself (at most LocalSeeds seeds)
	Sampled       int     `json:"sampled"`           // sample tests run
	Finished      int     `json:"finished"`          // of which finished
	SampleNodes   []int64 `json:"sample_nodes"`      // nodes of each sample test, in the order run
	SampleSeconds float64 `json:"sample_seconds"`    // wall time of the sample
	MeanNodes     float64 `json:"mean_unit_nodes"`   // mean over the sample
	MedianNodes   int64   `json:"median_unit_nodes"` // median over the sample
	NodesPerSec   float64 `json:"nodes_per_second"`  // the sample's rate on this machine
	TestsPerBoard float64 `json:"tests_per_board"`   // assumed
	Units         float64 `json:"units"`             // estimated units
	Nodes         float64 `json:"nodes"`             // estimated nodes
	CPUDays       float64 `json:"cpu_days"`          // Nodes at the sample's rate, per search thread
	LowerBound    bool    `json:"lower_bound"`       // a sample test was stopped by the budget
	Basis         string  `json:"basis"`
}

// summarize sets the sample's mean, median and rate and the estimated
// nodes from SampleNodes, SampleSeconds and Units.
func (e *Estimate) summarize() {
	var sum int64
	for _, n := range e.SampleNodes {
		sum += n
	}
	sorted := append([]int64(nil), e.SampleNodes...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	if len(sorted) > 0 {
		e.MeanNodes = math.Round(float64(sum) / float64(len(sorted)))
		e.MedianNodes = sorted[len(sorted)/2]
	}
	if e.SampleSeconds > 0 {
		e.NodesPerSec = math.Round(float64(sum) / e.SampleSeconds)
	}
	e.Nodes = math.Round(e.Units * e.MeanNodes)
}

// Pool adds the sample of o, an estimate of the same campaign (position,
// rule, split, database depth) with another --seed, to e's: each is a
// random sample of the same frontier, so their union is one larger
// sample. The rate is over both samples' seconds, and Basis stays e's.
func (e *Estimate) Pool(o Estimate) error {
	if o.Position != e.Position || o.ToMove != e.ToMove || o.Rule != e.Rule || o.Split != e.Split ||
		o.EGDBSeeds != e.EGDBSeeds || o.Units != e.Units {
		return errors.New("not an estimate of the same campaign")
	}
	e.Sampled += o.Sampled
	e.Finished += o.Finished
	e.SampleNodes = append(e.SampleNodes, o.SampleNodes...)
	e.SampleSeconds = round3(e.SampleSeconds + o.SampleSeconds)
	e.LowerBound = e.LowerBound || o.LowerBound
	e.summarize()
	return nil
}

// frontier lists the distinct boards (relative, stores cleared) of the
// unit tests Split plies below the root moves of pos, and how many of
// them the coordinator would test itself.
func frontier(r engine.Variant, pos engine.Position, split, localSeeds int) (units []engine.Board, local int) {
	seen := map[engine.Key]bool{}
	var walk func(b engine.Board, split int)
	walk = func(b engine.Board, split int) {
		if b.Over() {
			return
		}
		if split < 0 || b.Seeds() <= localSeeds {
			k := b.Key()
			if !seen[k] {
				seen[k] = true
				if b.Seeds() <= localSeeds {
					local++
				} else {
					units = append(units, b)
				}
			}
			return
		}
		for _, i := range solver.RootOrder(r, b) {
			c, res := r.Sow(b, i)
			if res.Over() {
				continue
			}
			if !res.Extra() {
				c = c.Flip()
			}
			walk(c, split-1)
		}
	}
	// The root's moves are MTD(f)'s, not a split: each child is tested
	// with Split plies of splitting below it.
	walk(pos.Board, split)
	return units, local
}

// RunEstimate computes the estimate of the campaign p (see above).
func RunEstimate(ctx context.Context, p Params, cfg EstimateConfig) (*Estimate, error) {
	r, pos, err := p.root()
	if err != nil {
		return nil, err
	}
	if cfg.TestsPerBoard <= 0 {
		cfg.TestsPerBoard = TestsPerBoard(p.Split)
	}
	if cfg.TestsPerBoard <= 0 {
		return nil, fmt.Errorf("estimate: no units per frontier board measured at split %d; give one", p.Split)
	}
	if cfg.Budget <= 0 {
		return nil, errors.New("estimate: the budget must be positive")
	}
	boards, local := frontier(r, pos, p.Split, p.LocalSeeds)
	e := &Estimate{Params: p, Frontier: len(boards) + local, FrontierLocal: local, TestsPerBoard: cfg.TestsPerBoard, SampleNodes: []int64{}}
	if len(boards) == 0 {
		e.Basis = "no unit: every board of the split is small enough for the coordinator, or the game ends first"
		return e, nil
	}
	k, err := kalah.Open(kalah.Config{Pits: r.Pits, Seeds: 1, Rule: r.Rule, Threads: cfg.Threads,
		TableSize: cfg.TableSize, TableSeeds: pos.Board.Seeds(),
		EGDBDir: cfg.EGDBDir, NoEGDB: cfg.NoEGDB, NoCache: true})
	if err != nil {
		return nil, err
	}
	defer k.Close()
	if err := k.Ready(); err != nil {
		return nil, err
	}
	e.EGDBSeeds = k.EGDBSeeds() // the depth the sample ran with
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x6b616c6168))
	rng.Shuffle(len(boards), func(i, j int) { boards[i], boards[j] = boards[j], boards[i] })
	t0 := time.Now()
	bctx, cancel := context.WithTimeout(ctx, cfg.Budget)
	defer cancel()
	for _, b := range boards {
		if bctx.Err() != nil {
			break
		}
		n0 := k.Stats().Nodes
		guess, err := k.Guess(bctx, b, 12)
		if err != nil {
			return nil, err
		}
		gamma := solver.RoundUp(guess, b.Seeds())
		_, _, err = k.NullWindow(bctx, b, gamma)
		nodes := k.Stats().Nodes - n0 // the guess is part of a unit's cost too
		if err != nil && !errors.Is(err, solver.ErrInterrupted) {
			return nil, err
		}
		e.Sampled++
		e.SampleNodes = append(e.SampleNodes, nodes)
		if err == nil && bctx.Err() == nil {
			e.Finished++
		} else {
			e.LowerBound = true
		}
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	e.SampleSeconds = round3(time.Since(t0).Seconds())
	e.Units = math.Round(float64(len(boards)) * cfg.TestsPerBoard)
	e.summarize()
	if e.NodesPerSec > 0 {
		threads := float64(max(1, k.Threads()))
		e.CPUDays = round3(e.Nodes / (e.NodesPerSec / threads) / 86400)
	}
	kind := "an estimate"
	if e.LowerBound {
		kind = "a lower estimate (the budget stopped a sample test: its nodes count as searched so far)"
	}
	e.Basis = fmt.Sprintf("%s: %d frontier boards %d plies below the root (%d more of at most %d seeds are the coordinator's), "+
		"x %.2g tests per board (assumed: the units issued per frontier board measured on Kalah(6,3)-(6,5) campaigns at this split) = %.0f units; "+
		"x %.3g nodes per unit (mean of %d sample tests, %d finished, median %d, in %.1f s) = %.3g nodes; "+
		"unit costs are skewed and the sample small, so take it as an order of magnitude",
		kind, len(boards), p.Split+1, local, p.LocalSeeds, cfg.TestsPerBoard, e.Units, e.MeanNodes, e.Sampled, e.Finished, e.MedianNodes, e.SampleSeconds, e.Nodes)
	return e, nil
}
