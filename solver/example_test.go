package solver_test

import (
	"context"
	"fmt"
	"log"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/solver"
)

// Solve the start of Kalah(4,4) with a solver of one thread over a 16 MiB
// table (no endgame database, no persistent cache): the value, every
// move's value and the best move. Programs that solve whole games open a
// kalah.Session instead, which sizes the table and finds the database and
// the cache.
func ExampleSolver_SolveEveryMove() {
	rules := engine.Variant{Pits: 4, Rule: engine.NoEmptyCapture}
	s, err := solver.New(rules, solver.Options{TableSize: 16 << 20, Threads: 1})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	start, err := rules.StartPosition(4)
	if err != nil {
		log.Fatal(err)
	}
	res, err := s.SolveEveryMove(context.Background(), start)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("value %+d, best %s\n", res.Value, engine.MoveLetter(start.ToMove, res.Best[0]))
	for _, m := range res.Moves {
		fmt.Printf("%s %+d extra turn %v\n", m.Move, m.Value, m.Extra)
	}
	// Output:
	// value +2, best a
	// a +2 extra turn true
	// b +0 extra turn false
	// c +0 extra turn false
	// d -2 extra turn false
}

// The value of a board alone, relative to its stores: what the mover
// gains on its opponent from here under perfect play. Here South has
// played a (its last seed in its store) and moves again.
func ExampleSolver_BoardValue() {
	rules := engine.Variant{Pits: 4, Rule: engine.NoEmptyCapture}
	s, err := solver.New(rules, solver.Options{TableSize: 16 << 20, Threads: 1})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	p, err := engine.ParsePosition("0,5,5,5,1,4,4,4,4,0", engine.South)
	if err != nil {
		log.Fatal(err)
	}
	v, err := s.BoardValue(context.Background(), p.Board)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("stores %+d, from here %+d: final %+d\n", p.Board.StoreDiff(), v, p.Board.StoreDiff()+v)
	// Output:
	// stores +1, from here +1: final +2
}
