package play_test

import (
	"context"
	"fmt"
	"log"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/play"
)

// The computer's levels choose among the legal moves by their exact
// values: here after South's b in Kalah(4,3), whose last seed lands in
// South's store, so South moves again. Each level may play the moves
// within its slack of the best; its choice among them is reproducible
// from the game's seed.
func ExampleLevel_Candidates() {
	k, err := kalah.Open(kalah.Config{Pits: 4, Seeds: 3, Threads: 1, NoEGDB: true, NoCache: true})
	if err != nil {
		log.Fatal(err)
	}
	defer k.Close()
	line, err := play.Replay(k.Variant(), k.Start(), []string{"b"})
	if err != nil {
		log.Fatal(err)
	}
	p := line.Current()
	res, err := k.Solve(context.Background(), p)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("after", line.Letters()+":", p, p.ToMove, "to move")
	for _, m := range res.Record.Moves {
		fmt.Printf("  %s %+d\n", m.Move, m.Value)
	}
	for _, l := range play.Levels {
		var moves []string
		for _, m := range l.Candidates(res.Record) {
			moves = append(moves, m.Move)
		}
		mv, _ := l.Choose(res.Record, 42)
		fmt.Printf("%s (slack %d) may play %v; with seed 42 it plays %s\n", l.Name, l.Slack, moves, mv.Move)
	}
	// Output:
	// after b: 3,0,4,4,1,3,3,3,3,0 south to move
	//   a +0
	//   c +6
	//   d +6
	// easy (slack 8) may play [a c d]; with seed 42 it plays d
	// medium (slack 3) may play [c d]; with seed 42 it plays d
	// perfect (slack 0) may play [c d]; with seed 42 it plays d
}
