package cmdutil

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/kalah-solver/kalah/results"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Bar shows the progress of a long job over a count of positions (a
// database build or check): on a terminal a progress bar with its rate
// and time left; elsewhere (a file, a pipe), where a bar's redrawing
// would be one long line, a line at every tenth and one at the end. Its
// methods are safe for concurrent use.
type Bar struct {
	pb *progressbar.ProgressBar // on a terminal
	w  io.Writer

	mu     sync.Mutex // the rest, for the lines elsewhere
	what   string
	total  int64
	done   int64
	t0     time.Time
	tenths func(done, total int64) (int, bool)
}

// NewBar returns the progress of a job of total positions, shown on w.
func NewBar(w io.Writer, total int64, what string) *Bar {
	if IsTerminal(w) {
		return &Bar{w: w, pb: progressbar.NewOptions64(total, progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription(what), progressbar.OptionShowCount(),
			progressbar.OptionShowIts(), progressbar.OptionSetItsString("pos"), progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(250*time.Millisecond), progressbar.OptionSetWidth(30),
			progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }))}
	}
	return &Bar{w: w, what: what, total: total, t0: time.Now(), tenths: Tenths()}
}

// Add64 counts n more positions done.
func (b *Bar) Add64(n int64) {
	if b.pb != nil {
		_ = b.pb.Add64(n)
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.set(b.done + n)
}

// Set64 sets the positions done.
func (b *Bar) Set64(n int64) {
	if b.pb != nil {
		_ = b.pb.Set64(n)
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.set(n)
}

func (b *Bar) set(n int64) {
	b.done = n
	if pct, ok := b.tenths(n, b.total); ok {
		fmt.Fprintf(b.w, "%s: %d%% (%s of %s positions, %v)\n", b.what, pct, results.Group(n), results.Group(b.total), b.elapsed())
	}
}

// End ends the job's progress: after an error (which says what went
// wrong) the bar's line is ended; otherwise the bar completes, or a last
// line says the job is done. A nil Bar (no progress shown) does nothing.
func (b *Bar) End(err error) {
	switch {
	case b == nil:
	case err != nil:
		if b.pb != nil {
			fmt.Fprintln(b.w)
		}
	case b.pb != nil:
		_ = b.pb.Finish()
	default:
		b.mu.Lock()
		defer b.mu.Unlock()
		fmt.Fprintf(b.w, "%s: done, %s positions in %v\n", b.what, results.Group(b.total), b.elapsed())
	}
}

func (b *Bar) elapsed() time.Duration { return time.Since(b.t0).Round(100 * time.Millisecond) }

// IsTerminal reports whether w is a terminal, where a progress bar can
// redraw itself; in a file or a pipe it would be one long line.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// Tenths returns the reporter of a log of long work, a line at every
// tenth where a progress bar cannot redraw: for a count done of total
// it returns the tenth newly reached (10, 20, ... 90 percent) and true,
// once each; false otherwise.
func Tenths() func(done, total int64) (percent int, ok bool) {
	var last int64
	return func(done, total int64) (int, bool) {
		if total <= 0 {
			return 0, false
		}
		t := done * 10 / total
		if t <= last || t >= 10 {
			return 0, false
		}
		last = t
		return int(t) * 10, true
	}
}
