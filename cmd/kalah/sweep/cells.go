package sweepcmd

import (
	"context"
	"fmt"
	"io"
	"log"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/results"
	"github.com/kalah-solver/kalah/solver"
	"github.com/schollz/progressbar/v3"
)

// solveFunc solves one start position, from prior, the cell's open
// record (nil for none); on interruption it returns the unfinished cell
// with an error wrapping solver.ErrInterrupted.
type solveFunc func(ctx context.Context, r engine.Variant, seeds int, prior *results.Open) (*results.Cell, error)

// cellSolver solves each cell in a library session of its own, so that a
// record's node count does not depend on which cells came before (each
// session sizes its cell's table for the game unless --table-size).
type cellSolver struct {
	opts      *Options
	tableSize int64
	bar       *bar
}

func (s *cellSolver) solve(ctx context.Context, r engine.Variant, seeds int, prior *results.Open) (*results.Cell, error) {
	cfg := kalah.Config{Pits: r.Pits, Seeds: seeds, Rule: r.Rule, Threads: s.opts.Threads, TableSize: s.tableSize,
		EGDBDir: s.opts.EGDB, NoEGDB: s.opts.NoEGDB, CacheDir: s.opts.Cache, NoCache: s.opts.Cache == "",
		ProgressEvery: time.Second}
	var lg *log.Logger
	if s.opts.Verbose {
		lg = log.New(s.bar.logWriter(s.opts.IO.ErrOut), "kalah sweep: ", 0)
		cfg.Log = lg
	}
	cfg.Progress = s.progress(r, seeds, lg)
	k, err := kalah.Open(cfg)
	if err != nil {
		return nil, err
	}
	switch {
	case prior == nil || lg == nil:
	case !prior.Proves():
		lg.Printf("%s: its open record (%s) proves no bound yet", cellName(r, seeds), cmdutil.Plural(prior.Runs, "run"))
	default:
		lg.Printf("%s: resuming from its open record (%s): value %s, %s",
			cellName(r, seeds), cmdutil.Plural(prior.Runs, "run"), prior.Bounds(), openExact(prior))
	}
	cell, err := k.SolveStartFrom(ctx, prior)
	if cell != nil { // SolveStart built the table: what the cell ran with
		cell.Threads, cell.TableSize, cell.EGDBSeeds = k.Threads(), k.TableSize(), k.EGDBSeeds()
	}
	if cerr := k.Close(); cerr != nil && err == nil {
		err = cerr
	}
	return cell, err
}

// countExact counts the items of xs that exact says are exact.
func countExact[T any](xs []T, exact func(T) bool) int {
	n := 0
	for _, x := range xs {
		if exact(x) {
			n++
		}
	}
	return n
}

// progress returns a cell's progress callback: it describes the report
// on the bar and, with a log (-v), logs a line whenever a stage begins or
// its proven bounds change (the deepening, the value, each first move and
// opening chain, each bound a test proves), with the time since the cell
// began, so that a long run's log tells what was proven when. Stages run
// side by side on several threads, so each stage's bounds are kept.
func (s *cellSolver) progress(r engine.Variant, seeds int, lg *log.Logger) func(solver.Progress) {
	var (
		mu    sync.Mutex
		seen  = map[string][2]int{}
		begin = time.Now()
	)
	return func(p solver.Progress) {
		s.bar.describe(describe(r, seeds, p))
		if lg == nil {
			return
		}
		mu.Lock()
		b, ok := seen[p.Stage]
		changed := !ok || b != [2]int{p.Lower, p.Upper}
		seen[p.Stage] = [2]int{p.Lower, p.Upper}
		mu.Unlock()
		if changed {
			lg.Printf("%s at %s", stageText(r, seeds, p), time.Since(begin).Round(time.Second))
		}
	}
}

// describe is the progress bar's text for a cell's progress report: the
// stage, the bounds proven and the cell's nodes so far (every stage's: a
// cell has a solver of its own).
func describe(r engine.Variant, seeds int, p solver.Progress) string {
	return fmt.Sprintf("%s, %s nodes", stageText(r, seeds, p), short(p.Total))
}

// stageText names a progress report's cell, stage and proven bounds, for
// the bar and the -v log.
func stageText(r engine.Variant, seeds int, p solver.Progress) string {
	return fmt.Sprintf("%s: %s in [%s, %s]", cellName(r, seeds), p.Stage, results.Signed(p.Lower), results.Signed(p.Upper))
}

// cellName is how the sweep names a cell: "Kalah(6,4) empty-capture".
func cellName(r engine.Variant, seeds int) string {
	return fmt.Sprintf("Kalah(%d,%d) %s", r.Pits, seeds, r.Rule)
}

// bar is the progress bar over cells, or nothing with --quiet or where
// standard error is not a terminal.
type bar struct {
	pb *progressbar.ProgressBar
	w  io.Writer
}

func newBar(opts *Options, n int) *bar {
	// In a file or a pipe the bar's redrawing would be one long line;
	// -v logs the cells' progress there line by line.
	if opts.Quiet || !opts.barAlways && !cmdutil.IsTerminal(opts.IO.ErrOut) {
		return &bar{}
	}
	return &bar{w: opts.IO.ErrOut, pb: progressbar.NewOptions(n,
		progressbar.OptionSetWriter(opts.IO.ErrOut),
		progressbar.OptionShowCount(),
		progressbar.OptionSetItsString("cells"),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(false),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionShowDescriptionAtLineEnd(),
		progressbar.OptionSetRenderBlankState(true),
	)}
}

// logWriter writes log lines to w, above the bar while it shows.
func (b *bar) logWriter(w io.Writer) io.Writer {
	if b.pb == nil {
		return w
	}
	return barLog{b.pb}
}

type barLog struct{ pb *progressbar.ProgressBar }

func (l barLog) Write(p []byte) (int, error) {
	return progressbar.Bprintf(l.pb, "%s", p)
}

func (b *bar) describe(s string) {
	if b.pb != nil {
		b.pb.Describe(s)
	}
}

func (b *bar) add() {
	if b.pb != nil {
		b.pb.Add(1)
	}
}

func (b *bar) finish() {
	if b.pb != nil {
		b.pb.Finish()
		io.WriteString(b.w, "\n")
	}
}

// parseRange reads "4", "1-6" or "2,4-5" into sorted distinct values in
// [lo, hi].
func parseRange(flag, s string, lo, hi int) ([]int, error) {
	seen := map[int]bool{}
	var out []int
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		a, b, isRange := strings.Cut(part, "-")
		x, err1 := strconv.Atoi(strings.TrimSpace(a))
		y, err2 := x, error(nil)
		if isRange {
			y, err2 = strconv.Atoi(strings.TrimSpace(b))
		}
		if err1 != nil || err2 != nil || x > y {
			return nil, cmdutil.BadInputf("%s %q: want a number, a range like 1-6, or a comma-separated list of them", flag, s)
		}
		if x < lo || y > hi {
			return nil, cmdutil.BadInputf("%s %q: values must be %d..%d", flag, s, lo, hi)
		}
		for v := x; v <= y; v++ {
			if !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out, nil
}

// short writes a count with a unit: 950, 12.3k, 4.56M, 7.89G.
func short(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.2fG", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.2fM", float64(n)/1e6)
	case n >= 1e4:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}
