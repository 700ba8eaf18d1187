package kalah_test

import (
	"context"
	"fmt"
	"log"

	"github.com/kalah-solver/kalah"
)

// A null-window test asks whether a board's value reaches a window, gamma,
// and answers with a proven bound: the unit of work a campaign ships to
// its workers. Two tests of the start of Kalah(4,4) pin its value down
// (values relative to the stores, here both empty), as MTD(f) does; the
// guess is the cheap depth-limited estimate the first window comes from.
func ExampleSession_NullWindow() {
	k, err := kalah.Open(kalah.Config{Pits: 4, Seeds: 4, Threads: 1, NoEGDB: true, NoCache: true})
	if err != nil {
		log.Fatal(err)
	}
	defer k.Close()
	ctx := context.Background()
	b := k.Start().Board
	guess, err := k.Guess(ctx, b, 6)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("guess at depth 6:", guess)
	for _, gamma := range []int{3, 2} {
		v, _, err := k.NullWindow(ctx, b, gamma)
		if err != nil {
			log.Fatal(err)
		}
		if v >= gamma {
			fmt.Printf("value >= %d? yes: value >= %d\n", gamma, v)
		} else {
			fmt.Printf("value >= %d? no: value <= %d\n", gamma, v)
		}
	}
	fmt.Println("threads", k.Threads(), "database", k.EGDBSeeds(), "nodes > 0:", k.Stats().Nodes > 0)
	// Output:
	// guess at depth 6: 2
	// value >= 3? no: value <= 2
	// value >= 2? yes: value >= 2
	// threads 1 database -1 nodes > 0: true
}
