package solver

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/tt"
)

// Options configure a Solver.
type Options struct {
	// TableSize is the transposition table's size; 0 means DefaultTableSize().
	TableSize int64
	// Threads is the number of search threads; 0 means all cores.
	Threads int
	// DB, if not nil, answers positions with at most DB.MaxSeeds() seeds.
	DB Database
	// Cache, if not nil, is the persistent second level under the table.
	Cache Cache
	// Progress, if not nil, is called from a separate goroutine every
	// ProgressEvery (default 2s) while a solve runs, and after every pass.
	Progress      func(Progress)
	ProgressEvery time.Duration
	// Deepen is the deepest depth-limited MTD(f) run (in steps of 3 plies)
	// before the full-depth search of a position's value, to find its first
	// guess and fill the table with good moves; 0 means DefaultDeepen, a
	// negative value none.
	Deepen int
}

// Progress is a snapshot of a running solve.
type Progress struct {
	Stage   string        // what is being solved, e.g. "move c"
	Lower   int           // proven bounds on the stage's value (absolute, for the root's mover)
	Upper   int           //
	Tests   int64         // null-window tests so far
	Nodes   int64         // nodes so far, over all threads
	Total   int64         // nodes of every solve of this solver so far (a cell's, in a sweep)
	Elapsed time.Duration // since the solve began
}

// DefaultDeepen is the depth of the deepening before a full-depth value
// search: the depth that did best among those compared on the value of
// Kalah(6,4) (record design-deepening, docs/benchmarks.md).
const DefaultDeepen = 18

// DefaultTableSize is a quarter of the machine's memory, capped at 1 GiB and
// at least 64 MiB. A table larger than the cap searches the same nodes
// more slowly, the difference being the kernel's work on the larger
// table's pages (record design-table-size, docs/benchmarks.md).
func DefaultTableSize() int64 {
	mem := totalMemory()
	b := mem / 4
	if b > 1<<30 {
		b = 1 << 30
	}
	if b < 64<<20 {
		b = 64 << 20
	}
	return b
}

// DefaultTableSizeFor is DefaultTableSize capped by what a solve of a board
// with seeds seeds on m pits a side, with an endgame database of dbSeeds
// seeds (0 for none), can use, whichever is smaller:
//   - the positions it can reach: two words for each position with at
//     most that many seeds (C(seeds+2m, 2m) of them);
//   - the work it will do: 1 GiB for 48 seeds and a database of at most
//     18, halved for every 1.5 seeds fewer on the board and for every 1.5
//     seeds of database past 18 (a database seed saves about the work of
//     a board seed, and a table of a quarter as many entries as nodes
//     does best), where on boards of at most four pits a seed, on the
//     board or in the database, counts m/6 of one: a move there has fewer
//     replies, and a seed adds less work, and a table the work does not
//     fill only costs the kernel's work on its pages (record
//     design-table-small-boards);
//
// rounded up to a power of two, at least 16 MiB. The table is probed at
// random, and a larger one than the work fills costs time for nothing:
// the kernel's work on the pages and the walks of its page tables grow
// with the table. A table much smaller than the work costs nodes instead,
// so the 18-seed database keeps 1 GiB (record design-table-size).
func DefaultTableSizeFor(m, seeds, dbSeeds int) int64 {
	// smallBoardPits is the most pits on which a seed counts m/6.
	const smallBoardPits = 4
	b := DefaultTableSize()
	if seeds < 0 || seeds > engine.MaxSeeds || m < 1 || m > engine.MaxPits {
		return b
	}
	positions := tt.Binom(seeds+2*m, 2*m)
	if positions < uint64(b)/16 {
		need := int64(16 << 20)
		for uint64(need) < positions*16 {
			need <<= 1
		}
		b = min(b, need)
	}
	// In half seeds: w = 2*(seeds - (dbSeeds-18)), 96 for Kalah(6,4)
	// with the 18-seed database; the table doubles every 3 half seeds.
	// On four pits or fewer a seed counts m/6 of one, on the board and
	// in the database alike.
	w, dw := 2*seeds, 2*dbSeeds
	if m <= smallBoardPits {
		w, dw = w*m/6, dw*m/6
	}
	if dw > 36 {
		w -= dw - 36
	}
	sh := w - 96
	if sh < 0 {
		sh -= 2 // round towards minus infinity
	}
	switch sh /= 3; {
	case sh <= -6:
		b = min(b, 16<<20)
	case sh < 0:
		b = min(b, int64(1<<30)>>-sh)
	case sh < 8:
		b = min(b, int64(1<<30)<<sh)
	}
	return max(b, 16<<20)
}

// DefaultTableSizeForValue is the default table of a value-only solve
// (SolveBestMove): a quarter of DefaultTableSizeFor, at least 16 MiB. Such a
// solve visits a fraction of the nodes of every move's value, and a table
// it does not fill only costs the kernel's work on its pages (record
// design-table-size, docs/benchmarks.md).
func DefaultTableSizeForValue(m, seeds, dbSeeds int) int64 {
	return max(DefaultTableSizeFor(m, seeds, dbSeeds)/4, 16<<20)
}

// Solver holds a table and threads for one rule set. A Solver is not safe
// for concurrent use by several goroutines (it runs its own threads),
// except through its Team, whose tests several goroutines may run at once.
type Solver struct {
	rules   engine.Variant
	opts    Options
	tab     *tt.Table
	threads []*thread
	cancel  atomic.Bool
	nodes   atomic.Int64 // published by the threads for progress
	nodes0  int64        // s.nodes when the current solve began
	mu      sync.Mutex   // guards stats while tests run at the same time
	stats   Stats
}

// New builds a solver for rules.
func New(rules engine.Variant, opts Options) (*Solver, error) {
	if err := rules.Validate(); err != nil {
		return nil, err
	}
	if opts.TableSize == 0 {
		opts.TableSize = DefaultTableSize()
	}
	if opts.Threads <= 0 {
		opts.Threads = runtime.GOMAXPROCS(0)
	}
	if opts.Deepen == 0 {
		opts.Deepen = DefaultDeepen
	}
	if opts.ProgressEvery == 0 {
		opts.ProgressEvery = 2 * time.Second
	}
	tab, err := tt.New(rules.Pits, opts.TableSize)
	if err != nil {
		return nil, err
	}
	s := &Solver{rules: rules, opts: opts, tab: tab}
	dbMax := -1
	if opts.DB != nil {
		dbMax = opts.DB.MaxSeeds()
	}
	var busy *busyTable
	if opts.Threads > 1 {
		busy = newBusyTable()
	}
	for i := 0; i < opts.Threads; i++ {
		w := &thread{busy: busy, rules: rules, tab: tab, db: opts.DB, dbMax: dbMax, id: i, shared: &s.nodes, cancel: &s.cancel, cacheSeeds: engine.MaxSeeds + 1}
		w.dbPre, _ = opts.DB.(Prefetcher)
		w.tabMin = tableMinSeeds(dbMax)
		if opts.Cache != nil {
			// A peek's cut-off costs no node (work 0): never worth storing.
			// Boards that skip the table skip the cache too: their
			// subtrees are a handful of nodes, and a look-up costs more
			// than it could save (cacheMinSeeds).
			w.cache, w.cacheSeeds, w.cacheWork = opts.Cache, cacheMinSeeds(opts.Cache.MinSeeds(), w.tabMin), max(opts.Cache.MinWork(), 1)
		}
		s.threads = append(s.threads, w)
	}
	return s, nil
}

// tableGap: with an endgame database of dbMax seeds, boards of at most
// dbMax+tableGap seeds skip the table (tableMinSeeds).
const tableGap = 2

// tableMinSeeds is the fewest seeds a board needs to be looked up in the
// table and stored there, with an endgame database of dbMax seeds (-1 for
// none). Just above a deep database a subtree is a handful of nodes, and
// its entry is rarely found again, but every probe costs a cache miss
// and every write evicts a costlier entry: boards of at most dbMax+2
// seeds skip the table (record design-table-gap, docs/benchmarks.md).
// Without a database every board uses it.
func tableMinSeeds(dbMax int) int {
	if dbMax < 0 {
		return 0
	}
	return dbMax + 1 + tableGap
}

// cacheMinSeeds is the fewest seeds a board needs for the search to ask
// the second level (the cache, or a campaign's shared table)
// after a table miss: the level's own threshold, but never below the
// table's. Just above a database every board skips the table and so
// misses it; asking the second level there finds almost nothing and costs
// a cache miss a node (record design-cache-skip, docs/benchmarks.md).
func cacheMinSeeds(level, table int) int { return max(level, table) }

// Close releases the table's memory. The solver must not be used after.
func (s *Solver) Close() { s.tab.Free() }

// Variant returns the solver's variant: its pit count and rule.
func (s *Solver) Variant() engine.Variant { return s.rules }

// Table returns the solver's transposition table.
func (s *Solver) Table() *tt.Table { return s.tab }

// Threads is the number of search threads.
func (s *Solver) Threads() int { return len(s.threads) }

// EGDBSeeds is the largest seed count the database answers, -1 for none.
func (s *Solver) EGDBSeeds() int { return s.threads[0].dbMax }

// ThreadNodes returns each thread's share of the nodes searched so far.
func (s *Solver) ThreadNodes() []int64 {
	out := make([]int64, len(s.threads))
	for i, w := range s.threads {
		out[i] = w.total
	}
	return out
}

// Stats returns the counters accumulated over every solve so far.
func (s *Solver) Stats() Stats { return s.statsNow() }

// ErrInterrupted is returned (wrapped) when the context ends a solve; the
// result then carries the bounds proven so far.
var ErrInterrupted = errors.New("solve interrupted")

// run starts the progress ticker and the cancellation watcher for one
// solve, and returns a function that stops them and waits until they have.
func (s *Solver) run(ctx context.Context, stage *atomic.Pointer[Progress], start time.Time) func() {
	s.cancel.Store(false)
	s.nodes0 = s.nodes.Load()
	done, exited := make(chan struct{}), make(chan struct{})
	nodes0 := s.nodes0
	go func() {
		defer close(exited)
		t := time.NewTicker(s.opts.ProgressEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				s.cancel.Store(true) // the threads poll it
				<-done
				return
			case <-t.C:
				if s.opts.Progress != nil {
					p := *stage.Load()
					p.Total = s.nodes.Load()
					p.Nodes = p.Total - nodes0
					p.Elapsed = time.Since(start)
					s.opts.Progress(p)
				}
			}
		}
	}()
	// Stopping waits for the goroutine, so that no report of this solve
	// runs (or reads the solver) once the next solve has begun.
	return func() { close(done); <-exited }
}

// BoardValue returns the exact value of b relative to its stores (the mover's
// final store difference minus the current one).
func (s *Solver) BoardValue(ctx context.Context, b engine.Board) (int, error) {
	lo, _, err := s.BoardBounds(ctx, b, "position", engine.ResExtra, 0)
	return lo, err
}

// BoardBounds is BoardValue that keeps what an interrupted solve proved:
// the value of b relative to its stores lies in [lo, hi], lo == hi unless
// err wraps ErrInterrupted. Progress reports name the solve stage and,
// after every full-depth test, carry the bounds as the root's mover sees
// them: b is reached from the root by a sowing with result res, after which
// the root's store difference is offset (engine.MoveBounds; ResExtra and 0
// report b's own bounds).
func (s *Solver) BoardBounds(ctx context.Context, b engine.Board, stage string, res engine.Result, offset int) (lo, hi int, err error) {
	if b.Over() {
		return 0, 0, nil
	}
	var st atomic.Pointer[Progress]
	start := time.Now()
	report := s.reporter(&st, start, stage, res, offset, b.Seeds())
	stopRun := s.run(ctx, &st, start)
	defer stopRun()
	guess := s.deepen(ctx, b, 0, s.opts.Deepen)
	lo, hi, ok := s.mtdf(ctx, b, guess, tt.DepthSolved, report)
	if !ok {
		return lo, hi, fmt.Errorf("%w: value in [%d, %d]", ErrInterrupted, lo, hi)
	}
	return lo, hi, nil
}
