package results_test

import (
	"fmt"
	"log"

	"github.com/kalah-solver/kalah/results"
)

// Read a committed result record: Kalah(6,4) under the paper's rule, with
// how it was computed.
func ExampleArchive_Get() {
	rec, err := results.Archive{Dir: "data"}.Get("empty-capture", 6, 4)
	if err != nil {
		log.Fatal(err)
	}
	if err := rec.Check(); err != nil { // replays the line, checks every opening
		log.Fatal(err)
	}
	fmt.Println(rec.Name(), results.Signed(rec.Value), rec.Result, "openings:", len(rec.Openings))
	// Output:
	// Kalah(6,4) empty-capture +10 W openings: 10
}
