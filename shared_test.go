package kalah

import (
	"context"
	"sync"
	"testing"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/internal/reference"
	"github.com/kalah-solver/kalah/tt"
)

// mapCache is a second level in memory that counts what it is asked.
type mapCache struct {
	mu         sync.Mutex
	m          map[engine.Key]tt.Entry
	gets, puts int
}

func (c *mapCache) Get(k engine.Key) (tt.Entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gets++
	e, ok := c.m[k]
	return e, ok
}

func (c *mapCache) Put(k engine.Key, e tt.Entry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.puts++
	c.m[k] = e
}

func (c *mapCache) MinSeeds() int { return 0 }
func (c *mapCache) MinWork() int  { return 0 }

// TestSharedSecondLevel: Config.Shared takes the cache's place
// under the table (it needs NoCache), and the values stay the reference's.
func TestSharedSecondLevel(t *testing.T) {
	c := &mapCache{m: map[engine.Key]tt.Entry{}}
	if _, err := Open(Config{Pits: 3, Seeds: 3, Shared: c, NoEGDB: true, CacheDir: t.TempDir()}); err == nil {
		t.Fatal("a shared table beside a cache was accepted")
	}
	for round := range 2 {
		k, err := Open(Config{Pits: 3, Seeds: 3, Rule: EmptyCapture, Shared: c, NoCache: true, NoEGDB: true, Threads: 1, TableSize: 1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		r := engine.Variant{Pits: 3, Rule: engine.EmptyCapture}
		start, _ := r.StartPosition(3)
		res, err := k.Solve(context.Background(), start)
		k.Close()
		if err != nil {
			t.Fatal(err)
		}
		ref := reference.NewSolver(reference.Rules{Pits: 3, EmptyCapture: true}, 0)
		if want := ref.Value(ref.Game([]int{3, 3, 3, 0, 3, 3, 3, 0}, false)); res.Value != want {
			t.Errorf("round %d: value %d, want %d", round, res.Value, want)
		}
		if round == 0 && (c.puts == 0 || c.gets == 0) {
			t.Errorf("the shared table was asked %d times and given %d entries", c.gets, c.puts)
		}
	}
}
