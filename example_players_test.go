package kalah_test

import (
	"context"
	"fmt"
	"log"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/players"
)

// Solve the start of four-player Kalah(2,2) (two pits a player, two seeds
// a pit; captures take from the next player's pits) under the paranoid
// concept: what the first player can guarantee against a coalition of
// the others, and what each seat can guarantee. The session sizes the
// table by the k-player policy ('kalah solve --players 4' opens it so).
func ExampleOpenPlayers() {
	r, err := players.NewVariant(4, 2, players.TargetNext)
	if err != nil {
		log.Fatal(err)
	}
	start, err := r.StartPosition(2)
	if err != nil {
		log.Fatal(err)
	}
	k, err := kalah.OpenPlayers(kalah.PlayersConfig{Rules: r, Concept: players.Paranoid, TableSeeds: start.Board.Seeds()})
	if err != nil {
		log.Fatal(err)
	}
	defer k.Close()
	ctx := context.Background()
	sol, err := k.Solve(ctx, start)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(r.Name(2), k.Concept())
	for _, mv := range sol.Moves {
		fmt.Printf("%s %d\n", players.MoveName(sol.Mover, mv.Pit), mv.Value)
	}
	fmt.Print("guarantees:")
	for seat := range r.Players {
		g, err := k.Guarantee(ctx, start, seat)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf(" %s %d", players.SeatName(seat), g)
	}
	fmt.Println()
	fmt.Println("table", k.TableSize()>>20, "MiB")
	// Output:
	// 4-player Kalah(2,2) paranoid
	// 1a 2
	// 1b 3
	// guarantees: P1 3 P2 3 P3 3 P4 3
	// table 256 MiB
}
