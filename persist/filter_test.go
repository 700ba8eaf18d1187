package persist

import (
	"testing"

	"github.com/kalah-solver/kalah/engine"
)

func TestFilter(t *testing.T) {
	f := newFilter(1 << 20)
	for i := uint64(0); i < 1<<20; i++ {
		f.add(engine.Key{Own: i * 0x0101, Opp: i >> 3})
	}
	for i := uint64(0); i < 1<<20; i++ {
		if !f.mayHave(engine.Key{Own: i * 0x0101, Opp: i >> 3}) {
			t.Fatalf("key %d added but not found", i)
		}
	}
	fp := 0
	for i := uint64(0); i < 1<<20; i++ {
		if f.mayHave(engine.Key{Own: i*0x0101 + 1<<40, Opp: i}) {
			fp++
		}
	}
	if fp > 1<<20/100 {
		t.Errorf("%d false positives in %d, want under 1%%", fp, 1<<20)
	}
}
