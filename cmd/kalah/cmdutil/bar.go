package cmdutil

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// NewBar returns the progress bar of a long job over total positions
// (a database build or check), drawn on w with its rate and time left.
func NewBar(w io.Writer, total int64, what string) *progressbar.ProgressBar {
	return progressbar.NewOptions64(total, progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(what), progressbar.OptionShowCount(),
		progressbar.OptionShowIts(), progressbar.OptionSetItsString("pos"), progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(250*time.Millisecond), progressbar.OptionSetWidth(30),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }))
}

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
