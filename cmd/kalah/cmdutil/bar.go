package cmdutil

import (
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
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
