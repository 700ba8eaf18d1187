package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/solver"
)

// Config says how to run a suite.
type Config struct {
	// Threads is the number of search threads; 0 means 1.
	Threads int
	// TableSize, if positive, is the table size of every solver; 0 means
	// each case's own (Case.TableSize, else DefaultTableSize).
	TableSize int64
	// DB, if not nil, returns the endgame database to use for a rule set
	// (nil for none). It is called once per case.
	DB func(engine.Variant) (solver.Database, error)
	// Progress, if not nil, is called every ProgressEvery while a case is
	// being solved, with the case's name.
	Progress      func(name string, p solver.Progress)
	ProgressEvery time.Duration
}

func (c Config) threads() int { return max(c.Threads, 1) }

// tableSize is the table size for case k.
func (c Config) tableSize(k Case) int64 {
	switch {
	case c.TableSize > 0:
		return c.TableSize
	case k.TableSize > 0:
		return k.TableSize
	}
	return DefaultTableSize
}

// Result is what one case cost.
type Result struct {
	Case           string   `json:"case"`
	Game           string   `json:"game"` // Kalah(m,n) the moves start from
	Rule           string   `json:"rule"`
	Pits           int      `json:"pits"`
	Seeds          int      `json:"seeds"`
	Moves          string   `json:"moves,omitempty"` // from the start; empty for a start position
	Position       string   `json:"position"`
	ToMove         string   `json:"to_move"`
	Value          int      `json:"value"` // final store difference for the side to move
	Best           []string `json:"best"`  // letters of the best moves
	Threads        int      `json:"threads"`
	Nodes          int64    `json:"nodes"`
	TTProbes       int64    `json:"tt_probes"`
	TTHits         int64    `json:"tt_hits"`
	DBHits         int64    `json:"egdb_hits"`
	TableSize      int64    `json:"table_size"`
	EGDBSeeds      int      `json:"egdb_seeds"`  // the database's largest seed count, -1 for none
	Seconds        float64  `json:"seconds"`     // wall-clock time of the solve only, not the table's allocation and first touch
	CPUSeconds     float64  `json:"cpu_seconds"` // CPU time of the process during the solve (0 where unknown)
	NodesPerSecond float64  `json:"nodes_per_second"`
	HitRate        float64  `json:"tt_hit_rate"` // TTHits / TTProbes
}

// Report is one run of a suite.
type Report struct {
	Threads   int   `json:"threads"`
	TableSize int64 `json:"table_size"` // of the mid-game cases; see each case's
	EGDB      bool  `json:"egdb"`
	EGDBSeeds int   `json:"egdb_seeds"` // the largest seed count any case's database answers, -1 for none
	// Deterministic is true when the node counts are a signature of the
	// search: one thread and no endgame database.
	Deterministic  bool     `json:"deterministic"`
	Cases          []Result `json:"cases"`
	Nodes          int64    `json:"nodes"`
	TTProbes       int64    `json:"tt_probes"`
	TTHits         int64    `json:"tt_hits"`
	Seconds        float64  `json:"seconds"` // sum of the cases' solve times
	CPUSeconds     float64  `json:"cpu_seconds"`
	NodesPerSecond float64  `json:"nodes_per_second"`
	HitRate        float64  `json:"tt_hit_rate"`
}

// Busy reports whether the machine was busy with other work during the
// run: the process got less than 0.8 of a core per thread, or of the
// cores there are. Speeds measured then are low and vary.
func (r *Report) Busy(cores int) bool {
	if r.CPUSeconds == 0 || r.Seconds == 0 {
		return false
	}
	return r.CPUSeconds < 0.8*r.Seconds*float64(min(r.Threads, cores))
}

// Signature is the report's last line, after Stockfish's bench:
// "Bench: <total nodes> nodes <nodes per second> nps".
func (r *Report) Signature() string {
	return fmt.Sprintf("Bench: %d nodes %.0f nps", r.Nodes, r.NodesPerSecond)
}

// Run solves every case with a fresh solver (a fresh table, so that the
// order of the cases does not matter) and totals the counters. each, if
// not nil, is called after every case, for progress output. A cancelled
// ctx stops the run with the cases finished so far and an error.
func Run(ctx context.Context, cases []Case, cfg Config, each func(Result)) (*Report, error) {
	var f func(int, Result)
	if each != nil {
		f = func(_ int, r Result) { each(r) }
	}
	reps, err := RunThreads(ctx, cases, cfg, []int{cfg.threads()}, f)
	return reps[0], err
}

// RunThreads is Run once per thread count in threads (cfg.Threads is not
// used), interleaved: each case is solved at every count before the next
// case, in the order of threads for the even cases and in reverse for the
// odd ones (1 2, 2 1, 1 2, ...). A machine whose speed drifts over minutes
// (a shared or virtual one) then slows each count alike, where whole runs
// one after the other would put the drift into the speed-up. It returns a
// report per count, in the order of threads; each is called with the
// count's index after every solve. A cancelled ctx stops the run: the
// reports cover the solves finished, so the last case may be in some and
// not in others.
func RunThreads(ctx context.Context, cases []Case, cfg Config, threads []int, each func(int, Result)) ([]*Report, error) {
	reps := make([]*Report, len(threads))
	cfgs := make([]Config, len(threads))
	for i, th := range threads {
		cfgs[i] = cfg
		cfgs[i].Threads = th
		reps[i] = &Report{Threads: cfgs[i].threads(), TableSize: cfgs[i].tableSize(Case{}), EGDB: cfg.DB != nil}
		reps[i].Deterministic = reps[i].Threads == 1 && !reps[i].EGDB
	}
	total := func() {
		for _, r := range reps {
			r.total()
		}
	}
	for k, c := range cases {
		for j := range threads {
			i := j
			if k%2 == 1 {
				i = len(threads) - 1 - j
			}
			res, err := RunCase(ctx, c, cfgs[i])
			if err != nil {
				total()
				return reps, err
			}
			reps[i].Cases = append(reps[i].Cases, res)
			if each != nil {
				each(i, res)
			}
		}
	}
	total()
	return reps, nil
}

func (r *Report) total() {
	r.Nodes, r.TTProbes, r.TTHits, r.Seconds, r.CPUSeconds, r.EGDBSeeds = 0, 0, 0, 0, 0, -1
	for _, c := range r.Cases {
		r.EGDBSeeds = max(r.EGDBSeeds, c.EGDBSeeds)
		r.Nodes += c.Nodes
		r.TTProbes += c.TTProbes
		r.TTHits += c.TTHits
		r.Seconds += c.Seconds
		r.CPUSeconds += c.CPUSeconds
	}
	r.NodesPerSecond, r.HitRate = rate(r.Nodes, r.Seconds), ratio(r.TTHits, r.TTProbes)
}

// RunCase solves one case with a fresh solver.
func RunCase(ctx context.Context, c Case, cfg Config) (Result, error) {
	p, err := c.Position()
	if err != nil {
		return Result{}, err
	}
	opts := solver.Options{TableSize: cfg.tableSize(c), Threads: cfg.threads(), ProgressEvery: cfg.ProgressEvery}
	if cfg.Progress != nil {
		opts.Progress = func(p solver.Progress) { cfg.Progress(c.Name, p) }
	}
	if cfg.DB != nil {
		if opts.DB, err = cfg.DB(c.Variant); err != nil {
			return Result{}, err
		}
	}
	s, err := solver.New(c.Variant, opts)
	if err != nil {
		return Result{}, err
	}
	defer s.Close()
	// Touch the whole table before the clock starts, as Stockfish's bench
	// clears its hash first: a fresh table's page faults (and the kernel's
	// huge-page work) would otherwise land on the first nodes, whatever
	// the position.
	s.Table().Clear()
	cpu0 := processCPU()
	sol, err := s.SolveEveryMove(ctx, p)
	cpu := processCPU() - cpu0
	if err != nil {
		return Result{}, fmt.Errorf("%s: %w", c.Name, err)
	}
	st := sol.Stats
	res := Result{
		Case: c.Name, Game: c.Game(), Rule: c.Variant.Rule.String(), Pits: c.Variant.Pits, Seeds: c.Seeds,
		Moves: c.Moves, Position: p.String(), ToMove: p.ToMove.String(), Value: sol.Value,
		Best: []string{}, Threads: cfg.threads(),
		Nodes: st.Nodes, TTProbes: st.TTProbes, TTHits: st.TTHits, DBHits: st.DBHits,
		Seconds: sol.Elapsed.Seconds(), CPUSeconds: cpu.Seconds(), EGDBSeeds: s.EGDBSeeds(), TableSize: opts.TableSize,
	}
	for _, i := range sol.Best {
		res.Best = append(res.Best, engine.MoveLetter(p.ToMove, i))
	}
	res.NodesPerSecond, res.HitRate = rate(res.Nodes, res.Seconds), ratio(res.TTHits, res.TTProbes)
	return res, nil
}

// Speedups returns, for each report, the first report's time divided by
// its time: how many times faster each run is than the first.
func Speedups(reps []*Report) []float64 {
	out := make([]float64, len(reps))
	for i, r := range reps {
		if r.Seconds > 0 && len(reps) > 0 {
			out[i] = reps[0].Seconds / r.Seconds
		}
	}
	return out
}

func rate(n int64, secs float64) float64 {
	if secs <= 0 {
		return 0
	}
	return float64(n) / secs
}

func ratio(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
