package persist_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/persist"
)

// Open a cache in a directory, keep a root record in it (the answer for a
// position, as a session saves it after a solve: any bytes to the cache,
// a results.Record in JSON to the session), close it, and find the record
// again from a second process's Open.
func ExampleOpen() {
	dir, err := os.MkdirTemp("", "persist-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	rules := engine.Variant{Pits: 4, Rule: engine.NoEmptyCapture}
	start, err := rules.StartPosition(4)
	if err != nil {
		log.Fatal(err)
	}
	c, err := persist.Open(dir, rules, persist.Options{})
	if err != nil {
		log.Fatal(err)
	}
	if err := c.PutRoot(start, []byte(`{"value":2}`)); err != nil {
		log.Fatal(err)
	}
	if err := c.Close(); err != nil {
		log.Fatal(err)
	}

	c, err = persist.Open(dir, rules, persist.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	b, ok := c.GetRoot(start)
	fmt.Println(ok, string(b))
	// The key is the position with its side to move: the same pits with
	// North to move are another position.
	_, ok = c.GetRoot(engine.Position{Pits: 4, Board: start.Board, ToMove: engine.North})
	fmt.Println("North to move:", ok)
	// Output:
	// true {"value":2}
	// North to move: false
}

// How a session uses its cache: the first session solves the start of
// Kalah(4,4) and saves the answer as a root record; a second session on
// the same cache directory (a later run of 'kalah solve') answers from it
// at once, without a search.
func Example_session() {
	dir, err := os.MkdirTemp("", "persist-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	cfg := kalah.Config{Pits: 4, Seeds: 4, Threads: 1, NoEGDB: true, CacheDir: dir}
	for run := 1; run <= 2; run++ {
		k, err := kalah.Open(cfg)
		if err != nil {
			log.Fatal(err)
		}
		res, err := k.Solve(context.Background(), k.Start())
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("run %d: value %+d, best %v, from the cache %v, searched %v\n",
			run, res.Value, res.Record.Best, res.FromCache, res.Stats.Nodes > 0)
		if err := k.Close(); err != nil {
			log.Fatal(err)
		}
	}
	// Output:
	// run 1: value +2, best [a], from the cache false, searched true
	// run 2: value +2, best [a], from the cache true, searched false
}
