package campaign_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/kalah-solver/kalah/campaign"
	"github.com/kalah-solver/kalah/engine"
)

// Run a whole campaign on one machine: an embedded NATS server with
// JetStream on a free loopback port (its streams in a temporary
// directory), one worker in the process, and a coordinator that splits
// the null-window tests of the root's moves into units for the worker. It
// solves the start of Kalah(4,3); 'kalah campaign start' runs the same
// on machines that share a server.
func Example() {
	dir, err := os.MkdirTemp("", "campaign-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	local, err := campaign.StartLocal(dir, 0, 1, campaign.WorkerConfig{Threads: 1, TableSize: 16 << 20, NoEGDB: true, Quiet: true}, 0)
	if err != nil {
		log.Fatal(err)
	}
	defer local.Stop()

	ctx := context.Background()
	c, err := campaign.Connect(ctx, local.Server.URL(), 0)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	rules := engine.Variant{Pits: 4, Rule: engine.NoEmptyCapture}
	start, err := rules.StartPosition(3)
	if err != nil {
		log.Fatal(err)
	}
	p := campaign.NewParams("example", rules, 3, start)
	p.LocalSeeds = 6 // ship every test of a board with more seeds as a unit
	if err := campaign.Create(ctx, c, p); err != nil {
		log.Fatal(err)
	}
	co, err := campaign.NewCoordinator(c, p, campaign.CoordinatorConfig{NoEGDB: true, StatusEvery: 50 * time.Millisecond})
	if err != nil {
		log.Fatal(err)
	}
	defer co.Close()
	rec, err := co.Run(ctx)
	if err != nil {
		log.Fatal(err)
	}
	st, err := campaign.Info(ctx, c, p.Name)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rec.Name(), "value", rec.Value, rec.Result, "best", rec.Best)
	for _, m := range rec.Moves {
		fmt.Printf("%s %+d\n", m.Move, m.Value)
	}
	fmt.Println("state", st.State, "units answered by the worker:", st.Done > 0)
	// Output:
	// Kalah(4,3) no-empty-capture value 6 W best [b]
	// a -6
	// b +6
	// c +2
	// d -2
	// state done units answered by the worker: true
}
