package kalah

import (
	"context"
	"testing"

	"github.com/kalah-solver/kalah/solver"
)

// TestTablePolicy: a session without Config.TableSize sizes its table by
// the policy for Config.TableSeeds (the game's start when 0), a quarter of
// it for value-only solves, and says so before and after the table is
// built; Config.TableSize overrides it.
func TestTablePolicy(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want int64
	}{
		{Config{Pits: 6, Seeds: 3}, solver.DefaultTableSizeFor(6, 36, 0)},
		{Config{Pits: 6, Seeds: 5, TableSeeds: 44}, solver.DefaultTableSizeFor(6, 44, 0)},
		{Config{Pits: 6, Seeds: 5, TableSeeds: 44, TableValueOnly: true}, solver.DefaultTableSizeForValue(6, 44, 0)},
		{Config{Pits: 6, Seeds: 5, TableSize: 32 << 20}, 32 << 20},
	} {
		cfg := c.cfg
		cfg.Threads, cfg.NoEGDB, cfg.NoCache = 1, true, true
		k, err := Open(cfg)
		if err != nil {
			t.Fatal(err)
		}
		before := k.TableSize()
		sv, err := k.build()
		if err != nil {
			t.Fatal(err)
		}
		if got := sv.Table().Bytes(); got != c.want || before != c.want || k.TableSize() != c.want {
			t.Errorf("%+v: table of %d bytes (%d said before, %d after), want %d", c.cfg, got, before, k.TableSize(), c.want)
		}
		k.Close()
	}
	if solver.DefaultTableSizeFor(6, 44, 0) == solver.DefaultTableSizeForValue(6, 44, 0) {
		t.Fatal("the cases do not tell the value-only policy apart")
	}
}

// TestTableSizeBuilt: a size that is not a power of two of buckets is
// asked for, and once Ready has built the table the session says the
// table's real size, the one a record carries; Ready also fixes the
// threads and the database depth a record names.
func TestTableSizeBuilt(t *testing.T) {
	k, err := Open(Config{Pits: 4, Seeds: 3, Threads: 1, NoEGDB: true, NoCache: true, TableSize: 48 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	if got := k.TableSize(); got != 48<<20 {
		t.Errorf("before the table is built: %d bytes, want the %d asked for", got, 48<<20)
	}
	if err := k.Ready(); err != nil {
		t.Fatal(err)
	}
	if got := k.TableSize(); got != 32<<20 || got != k.sv.Table().Bytes() {
		t.Errorf("built: %d bytes, want the table's %d", got, k.sv.Table().Bytes())
	}
	if k.Threads() != 1 || k.EGDBSeeds() != -1 || k.TableUsed() != 0 || k.Stats().Nodes != 0 {
		t.Errorf("threads %d, database %d, table used %d, nodes %d: want 1, -1, 0, 0", k.Threads(), k.EGDBSeeds(), k.TableUsed(), k.Stats().Nodes)
	}
	res, err := k.Solve(context.Background(), k.Start())
	if err != nil {
		t.Fatal(err)
	}
	if res.Record.TableSize != k.TableSize() || res.Record.Threads != k.Threads() || res.Record.EGDBSeeds != k.EGDBSeeds() {
		t.Errorf("record %d bytes, %d threads, database %d; session %d, %d, %d", res.Record.TableSize, res.Record.Threads, res.Record.EGDBSeeds, k.TableSize(), k.Threads(), k.EGDBSeeds())
	}
	if k.TableUsed() == 0 || k.Stats().Nodes != res.Stats.Nodes {
		t.Errorf("after a solve: table used %d, nodes %d, want > 0 and the solve's %d", k.TableUsed(), k.Stats().Nodes, res.Stats.Nodes)
	}
	if err := k.ClearTable(); err != nil || k.TableUsed() != 0 {
		t.Errorf("cleared: %v, %d entries used", err, k.TableUsed())
	}
}
