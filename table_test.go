package kalah

import (
	"testing"

	"github.com/kalah-solver/kalah/solver"
)

// TestTablePolicy: a session without Config.TableBytes sizes its table by
// the policy for Config.TableSeeds (the game's start when 0), a quarter of
// it for value-only solves, and says so before and after the table is
// built; Config.TableBytes overrides it.
func TestTablePolicy(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want int64
	}{
		{Config{Pits: 6, Seeds: 3}, solver.DefaultTTBytesFor(6, 36, 0)},
		{Config{Pits: 6, Seeds: 5, TableSeeds: 44}, solver.DefaultTTBytesFor(6, 44, 0)},
		{Config{Pits: 6, Seeds: 5, TableSeeds: 44, TableValueOnly: true}, solver.DefaultTTBytesForValue(6, 44, 0)},
		{Config{Pits: 6, Seeds: 5, TableBytes: 32 << 20}, 32 << 20},
	} {
		cfg := c.cfg
		cfg.Threads, cfg.NoEGDB, cfg.NoCache = 1, true, true
		k, err := Open(cfg)
		if err != nil {
			t.Fatal(err)
		}
		before := k.TableBytes()
		sv, err := k.Solver()
		if err != nil {
			t.Fatal(err)
		}
		if got := sv.Table().Bytes(); got != c.want || before != c.want || k.TableBytes() != c.want {
			t.Errorf("%+v: table of %d bytes (%d said before, %d after), want %d", c.cfg, got, before, k.TableBytes(), c.want)
		}
		k.Close()
	}
	if solver.DefaultTTBytesFor(6, 44, 0) == solver.DefaultTTBytesForValue(6, 44, 0) {
		t.Fatal("the cases do not tell the value-only policy apart")
	}
}
