package egdb_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/kalah-solver/kalah/egdb"
	"github.com/kalah-solver/kalah/engine"
)

// Build a database into a directory (here a temporary one; 'kalah egdb
// build' uses DefaultDir), open it again as a later process would, and
// probe a position: the final store difference is its stores' plus what
// the database says the mover gains from the pits.
func ExampleBuildDir() {
	dir, err := os.MkdirTemp("", "egdb-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	rules := engine.Variant{Pits: 4, Rule: engine.EmptyCapture}
	built, err := egdb.BuildDir(context.Background(), dir, rules, 8, egdb.Options{})
	if err != nil {
		log.Fatal(err)
	}
	built.Close()
	slices, err := egdb.Slices(dir, rules)
	if err != nil {
		log.Fatal(err)
	}
	db, err := egdb.Open(dir, rules)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	// North to move: a,b,c,d = 2,0,1,0, South's store 7; North's A,B,C,D
	// = 0,2,1,2, North's store 9.
	p, err := engine.ParsePosition("2,0,1,0,7,0,2,1,2,9", engine.North)
	if err != nil {
		log.Fatal(err)
	}
	diff, _ := db.ProbeDiff(p.Board)
	fmt.Println("slices", slices)
	fmt.Printf("North: stores %+d, from the pits %+d, final %+d\n", p.Board.StoreDiff(), diff, p.Board.StoreDiff()+diff)
	// Output:
	// slices [0 1 2 3 4 5 6 7 8]
	// North: stores +2, from the pits +2, final +4
}
