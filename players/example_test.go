package players_test

import (
	"context"
	"fmt"
	"log"

	"github.com/kalah-solver/kalah/players"
)

// Play a move of three-player Kalah with 3 pits a player and 2 seeds a
// pit: the seeds run along each player's row, into the mover's store only,
// on to the next player's row. Perft counts the move sequences.
func ExampleVariant_PlayPosition() {
	r, err := players.NewVariant(3, 3, players.TargetNext)
	if err != nil {
		log.Fatal(err)
	}
	start, err := r.StartPosition(2)
	if err != nil {
		log.Fatal(err)
	}
	p, res := r.PlayPosition(start, 2) // P1 sows its pit c
	fmt.Println(r.Name(2))
	fmt.Println(start, "->", p, "extra turn", res.Extra(), "next", players.SeatName(p.ToMove()))
	fmt.Println("perft", r.Perft(start.Board, 4))
	// Output:
	// 3-player Kalah(3,2)
	// 2,2,2,0/2,2,2,0/2,2,2,0 -> 2,2,0,1/3,2,2,0/2,2,2,0 extra turn false next P2
	// perft [3 8 21 53]
}

// Solve the start of three-player Kalah(3,2) under both solution
// concepts: paranoid (the mover against a coalition of the others: what
// it can guarantee) and max^n (each player for itself).
func ExampleSolver_Solve() {
	r, err := players.NewVariant(3, 3, players.TargetNext)
	if err != nil {
		log.Fatal(err)
	}
	start, err := r.StartPosition(2)
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range players.Concepts {
		s, err := players.NewSolver(r, c, start.Board.Seeds(), players.Options{TableSize: 16 << 20, MaxNBytes: 16 << 20})
		if err != nil {
			log.Fatal(err)
		}
		sol, err := s.Solve(context.Background(), start)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: P1's final store %d; moves", c, sol.Value)
		for _, mv := range sol.Moves {
			fmt.Printf(" %s %d", players.MoveName(sol.Mover, mv.Pit), mv.Value)
		}
		fmt.Println("; final stores", sol.Stores)
	}
	// Output:
	// paranoid: P1's final store 5; moves 1a 2 1b 5 1c 5; final stores [5 3 10]
	// maxn: P1's final store 9; moves 1a 3 1b 5 1c 9; final stores [9 5 4]
}
