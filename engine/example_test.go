package engine_test

import (
	"fmt"
	"log"

	"github.com/kalah-solver/kalah/engine"
)

// Play a line from the start of Kalah(6,4): South sows c (its last seed
// lands in its store: an extra turn) then f, and North answers with B,
// whose last seed lands in North's store (North moves again). The line is
// in the letter notation ("cf-B": a dash where the turn passes); the
// paper's digits, each a 0-based pit of the mover ("25-1"), read the same
// line. The position is South's pits, South's store, North's pits,
// North's store.
func ExampleVariant_PlayLine() {
	rules, err := engine.NewVariant(6, engine.NoEmptyCapture)
	if err != nil {
		log.Fatal(err)
	}
	start, err := rules.StartPosition(4)
	if err != nil {
		log.Fatal(err)
	}
	line, err := rules.ParseLetters(start, "cf-B")
	if err != nil {
		log.Fatal(err)
	}
	p, err := rules.PlayLine(start, line)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(engine.FormatPaper(line), "=", engine.FormatLetters(line))
	fmt.Println(p, p.ToMove, "to move")
	fmt.Print(p.Diagram())
	// Output:
	// 25-1 = cf-B
	// 4,4,0,5,5,0,2,5,0,6,6,5,5,1 north to move
	//         F   E   D   C   B   A
	//         5   5   6   6   0   5
	//    1                             2
	//         4   4   0   5   5   0
	//         a   b   c   d   e   f
	// (north to move; North's store left, South's right)
}

// Count the move sequences of Kalah(3,3) to depth 6, every sowing a ply
// (an extra turn is a further ply of the same side).
func ExampleVariant_Perft() {
	rules := engine.Variant{Pits: 3, Rule: engine.NoEmptyCapture}
	b, err := rules.Start(3)
	if err != nil {
		log.Fatal(err)
	}
	for d, n := range rules.Perft(b, 6) {
		fmt.Println(d+1, n)
	}
	// Output:
	// 1 3
	// 2 8
	// 3 19
	// 4 48
	// 5 120
	// 6 280
}
