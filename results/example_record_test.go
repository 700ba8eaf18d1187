package results_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/results"
)

// A start's record, as 'kalah sweep' makes it for results/data: the value
// and every opening chain's value (a chain spells out South's extra
// turns in 1-based pits: "2-1" is b, which earns an extra turn, then a). Check verifies it without a solver: the chains are exactly the
// first turns, the best one has the value, the principal variation
// replays to it.
func ExampleRecord_Check() {
	k, err := kalah.Open(kalah.Config{Pits: 4, Seeds: 3, Threads: 1, NoEGDB: true, NoCache: true})
	if err != nil {
		log.Fatal(err)
	}
	defer k.Close()
	cell, err := k.SolveStart(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	rec := cell.Record
	fmt.Println(rec.Name(), results.Signed(rec.Value), rec.Result)
	for _, o := range rec.Openings {
		fmt.Printf("%s %s\n", o.Chain, results.Signed(o.Value))
	}
	fmt.Println("check:", rec.Check())
	// Output:
	// Kalah(4,3) no-empty-capture +6 W
	// 1 -6
	// 2-1 0
	// 2-3 +6
	// 2-4 +6
	// 3 +2
	// 4 -2
	// check: <nil>
}

// A position's record, as 'kalah solve --json' prints it and the cache
// keeps it, in JSON; CheckPosition verifies it before the cache's copy is
// trusted: every legal move is there, the best has the value, the
// principal variation replays to it. A record whose value was changed
// fails.
func ExampleRecord_CheckPosition() {
	k, err := kalah.Open(kalah.Config{Pits: 4, Seeds: 3, Threads: 1, NoEGDB: true, NoCache: true})
	if err != nil {
		log.Fatal(err)
	}
	defer k.Close()
	p, err := engine.ParsePosition("0,3,0,2,5,1,1,0,4,0", engine.North)
	if err != nil {
		log.Fatal(err)
	}
	res, err := k.Solve(context.Background(), p)
	if err != nil {
		log.Fatal(err)
	}
	rec := res.Record
	b, err := json.Marshal(rec)
	if err != nil {
		log.Fatal(err)
	}
	var fields struct { // a few of the record's JSON fields
		Position  string              `json:"position"`
		ToMove    string              `json:"to_move"`
		Value     int                 `json:"value"`
		Result    string              `json:"result"`
		Moves     []results.MoveValue `json:"moves"`
		Best      []string            `json:"best"`
		PVLetters string              `json:"pv_letters"`
	}
	if err := json.Unmarshal(b, &fields); err != nil {
		log.Fatal(err)
	}
	fmt.Println(fields.Position, fields.ToMove, "to move:", fields.Value, fields.Result, "best", fields.Best, "pv", fields.PVLetters)
	for _, m := range fields.Moves {
		fmt.Printf("%s %+d\n", m.Move, m.Value)
	}
	fmt.Println("check:", rec.CheckPosition(k.Variant(), p))

	bad := *rec
	bad.Value, bad.Result = rec.Value+2, results.Outcome(rec.Value+2)
	fmt.Println("changed value:", bad.CheckPosition(k.Variant(), p))
	// Output:
	// 0,3,0,2,5,1,1,0,4,0 north to move: 4 W best [B] pv B-d
	// A -2
	// B +4
	// D -6
	// check: <nil>
	// changed value: best move value 4, value 6
}
