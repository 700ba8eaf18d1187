package egdb_test

import (
	"context"
	"fmt"
	"log"

	"github.com/kalah-solver/kalah/egdb"
	"github.com/kalah-solver/kalah/engine"
)

// Build a small database in memory (every position of Kalah with 4 pits a
// side and at most 8 seeds in the pits) and probe it. BuildDir builds the
// same into a directory, resumably, and Open opens it.
func ExampleBuild() {
	rules := engine.Variant{Pits: 4, Rule: engine.NoEmptyCapture}
	db, err := egdb.Build(context.Background(), rules, 8, egdb.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	// South to move: a,b,c,d = 1,0,0,2; North's A,B,C,D = 0,3,0,2.
	p, err := engine.ParsePosition("1,0,0,2,0,0,3,0,2,0", engine.South)
	if err != nil {
		log.Fatal(err)
	}
	gain, _ := db.Probe(p.Board)
	diff, _ := db.ProbeDiff(p.Board)
	fmt.Printf("slices 0..%d; the mover banks %d of %d seeds: %+d\n", db.MaxSeeds(), gain, p.Board.Seeds(), diff)
	// Output:
	// slices 0..8; the mover banks 5 of 8 seeds: +2
}
