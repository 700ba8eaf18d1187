package cmdutil

import (
	"bytes"
	"strings"
	"sync"
	"testing"
)

// A Bar on a writer that is not a terminal logs a line at every tenth,
// once each and in order, however the counts come in (here from eight
// goroutines at once), and one when finished.
func TestBarLines(t *testing.T) {
	var buf bytes.Buffer
	b := NewBar(&buf, 1000, "verify Kalah(6) empty-capture")
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 125 {
				b.Add64(1)
			}
		})
	}
	wg.Wait()
	b.End(nil)
	var got []string
	for l := range strings.Lines(buf.String()) {
		p, ok := strings.CutPrefix(l, "verify Kalah(6) empty-capture: ")
		if !ok {
			t.Fatalf("line %q", l)
		}
		got = append(got, strings.Fields(p)[0])
	}
	if want := "10% 20% 30% 40% 50% 60% 70% 80% 90% done,"; strings.Join(got, " ") != want {
		t.Errorf("lines %q, want %q:\n%s", got, want, buf.String())
	}
	if strings.Contains(buf.String(), "\r") {
		t.Errorf("a bar was drawn: %q", buf.String())
	}
}
