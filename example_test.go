package kalah_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"testing"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/engine"
)

// TestMain points the data directory (endgame databases, the cache) at a
// fresh temporary one, so that the examples run with every
// default and touch nothing of the user's.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "kalah-example-")
	if err != nil {
		log.Fatal(err)
	}
	os.Setenv("XDG_DATA_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// Solve the start of a game: its value, every move's value, the best moves
// and a perfect game. The session finds the installed endgame database and
// the cache by itself; a second Solve of the same position is answered
// from the cache.
func Example() {
	k, err := kalah.Open(kalah.Config{Pits: 4, Seeds: 3, Rule: kalah.EmptyCapture})
	if err != nil {
		log.Fatal(err)
	}
	defer k.Close()
	res, err := k.Solve(context.Background(), k.Start())
	if err != nil {
		log.Fatal(err)
	}
	// The values agree with results/data's Kalah(4,3) record (Irving et
	// al. 2000: +8).
	fmt.Println("value", res.Value, "best", res.Record.Best)
	for _, m := range res.Moves {
		fmt.Printf("%s %+d\n", m.Move, m.Value)
	}
	again, _ := k.Solve(context.Background(), k.Start())
	fmt.Println("from the cache:", again.FromCache, again.Value)
	// Output:
	// value 8 best [b]
	// a -8
	// b +8
	// c +0
	// d -4
	// from the cache: true 8
}

// Solve a position given in the toolkit's notation (South's pits, South's
// store, North's pits, North's store), with North to move, for its value
// only.
func ExampleSession_Value() {
	p, err := engine.ParsePosition("0,3,0,2,5,1,1,0,4,0", engine.North)
	if err != nil {
		log.Fatal(err)
	}
	k, err := kalah.Open(kalah.Config{Pits: 4, Seeds: 3})
	if err != nil {
		log.Fatal(err)
	}
	defer k.Close()
	v, err := k.Value(context.Background(), p)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("North's final store minus South's:", v)
	// Output:
	// North's final store minus South's: 4
}
