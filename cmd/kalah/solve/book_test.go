package solvecmd

import (
	"context"
	"strings"
	"testing"
	"time"
)

// On a fresh install (no cache, no database) the start of Kalah(6,4) is
// answered at once from the built-in opening book: from_book and
// from_cache, the record of the solve that made it.
func TestSolveFromBook(t *testing.T) {
	for _, rule := range []string{"no-empty-capture", "empty-capture"} {
		t0 := time.Now()
		out, _, err := execute(t, context.Background(), "", "--rule", rule, "--json")
		if err != nil {
			t.Fatal(err)
		}
		rec := decode(t, out)[0]
		if rec["from_book"] != true || rec["from_cache"] != true || rec["seeds"] != 4.0 || rec["nodes"].(float64) <= 0 || len(rec["moves"].([]any)) != 6 {
			t.Errorf("%s: %v", rule, rec)
		}
		if d := time.Since(t0); d > 5*time.Second {
			t.Errorf("%s: %v", rule, d)
		}
		out, _, err = execute(t, context.Background(), "", "--rule", rule)
		if err != nil || !strings.Contains(out, "from the opening book") {
			t.Errorf("%s: %q, %v", rule, out, err)
		}
	}
}
