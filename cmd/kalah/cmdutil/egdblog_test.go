package cmdutil

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/engine"
)

// TestEGDBLogger: a first build and a deepening under way together each
// get their own start, tenths and end, in their own words.
func TestEGDBLogger(t *testing.T) {
	var b bytes.Buffer
	log := EGDBLogger(&b, EGDBLogWords{Prefix: "kalah x", NoEGDB: "--no-egdb goes without", NoDeepen: "--egdb-target 0 turns this off"})
	r := engine.Variant{Pits: 6, Rule: engine.NoEmptyCapture}
	first := kalah.EGDBBuild{Dir: "/d", Variant: r, MaxSeeds: 20, Positions: 100}
	deep := kalah.EGDBBuild{Dir: "/d", Variant: r, MaxSeeds: 28, Positions: 1000, Background: true}
	log(first)
	log(deep)
	for i := int64(1); i <= 10; i++ {
		first.Done, deep.Done = 10*i, 50*i
		log(first)
		log(deep)
	}
	first.Finished = true
	log(first)
	deep.Finished, deep.Err = true, errors.New("disk full")
	log(deep)
	want := []string{
		"kalah x: building the endgame database of Kalah(6) no-empty-capture up to 20 seeds in /d (100 positions",
		"--no-egdb goes without)",
		"kalah x: deepening the endgame database of Kalah(6) no-empty-capture to 28 seeds in the background in /d (1,000 positions",
		"--egdb-target 0 turns this off); searches go on meanwhile",
		"kalah x: building the endgame database 10% (10 of 100 positions",
		"kalah x: building the endgame database 90% (90 of 100 positions",
		"kalah x: deepening the endgame database 40% (400 of 1,000 positions",
		"kalah x: the endgame database of Kalah(6) no-empty-capture up to 20 seeds is built",
		"kalah x: deepening the endgame database in /d failed: disk full (searches go on with the one there)",
	}
	out := b.String()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("no %q in\n%s", w, out)
		}
	}
	if n := strings.Count(out, "\n"); n != 2+9+5+2 {
		t.Errorf("%d lines, want 18 (two starts, nine tenths of the first build, five of the deepening, two ends):\n%s", n, out)
	}
	if strings.Contains(out, "waits for it") {
		t.Errorf("no waiting named, yet:\n%s", out)
	}
}
