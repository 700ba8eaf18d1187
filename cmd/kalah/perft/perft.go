// Package perftcmd implements "kalah perft": count the move sequences of
// each length from a position, the engine's correctness and speed check.
package perftcmd

import (
	"fmt"
	"time"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/players"
	"github.com/kalah-solver/kalah/results"
	"github.com/spf13/cobra"
)

// MaxDepth bounds --depth: far beyond anything that finishes, small enough
// that a typo cannot ask for a huge count table.
const MaxDepth = 200

// Options are the inputs of one "kalah perft".
type Options struct {
	IO   *cmdutil.IOStreams
	Game cmdutil.GameFlags
	// Players chooses the 3- or 4-player game.
	Players cmdutil.PlayersFlags
	Depth   int
	JSON    bool
}

// NewCmdPerft returns the perft command.
func NewCmdPerft(io *cmdutil.IOStreams) *cobra.Command {
	opts := &Options{IO: io}
	cmd := &cobra.Command{
		Use:   "perft",
		Short: "Count the move sequences of each length from a position",
		Long: `Count the move sequences of each length 1..--depth from a position (by
default the start of Kalah(--pits, --seeds)). Every sowing is one ply, so an
extra turn is a further ply of the same player; a finished game adds nothing
to deeper counts. Prints the count at each depth, their total (the nodes
visited), the time taken and nodes per second.

With --players 3 or 4 it counts the k-player game (--capture-target
next|opposite|all).`,
		Example: `  kalah perft --depth 10
  kalah perft --pits 4 --seeds 3 --rule empty-capture --depth 12 --json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return cmdutil.RunGame(cmd, &opts.Game, &opts.Players, func(r engine.Variant, p engine.Position, h cmdutil.GameHead) error {
				return run(opts, h, func() []uint64 { return r.Perft(p.Board, opts.Depth) })
			}, func(r players.Variant, p players.Position, h cmdutil.GameHead) error {
				return run(opts, h, func() []uint64 { return r.Perft(p.Board, opts.Depth) })
			})
		},
	}
	cmdutil.AddGameFlags(cmd, &opts.Game, true)
	cmdutil.AddPlayersFlags(cmd, &opts.Players)
	cmd.Flags().IntVar(&opts.Depth, "depth", 8, fmt.Sprintf("plies to count, 1..%d", MaxDepth))
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print one JSON object instead of text")
	return cmd
}

// record is the JSON output; with --players 3 or 4 its head names the
// players and the capture target too.
type record struct {
	cmdutil.GameHead
	Depth          int      `json:"depth"`
	Counts         []uint64 `json:"counts"` // counts[d-1]: move sequences of d plies
	Nodes          uint64   `json:"nodes"`  // sum of counts
	Seconds        float64  `json:"seconds"`
	NodesPerSecond float64  `json:"nodes_per_second"`
	results.Provenance
}

// run counts with perft, in either game, and prints the counts.
func run(opts *Options, head cmdutil.GameHead, perft func() []uint64) error {
	if opts.Depth < 1 || opts.Depth > MaxDepth {
		return cmdutil.BadInputf("--depth must be 1..%d, got %d", MaxDepth, opts.Depth)
	}
	t0 := time.Now()
	counts := perft()
	secs := time.Since(t0).Seconds()
	rec := record{GameHead: head, Depth: opts.Depth, Counts: counts, Seconds: secs, Provenance: results.Current()}
	for _, c := range counts {
		rec.Nodes += c
	}
	if secs >= 0.001 { // a rate from less than a millisecond means nothing
		rec.NodesPerSecond = float64(rec.Nodes) / secs
	}
	if opts.JSON {
		return cmdutil.PrintJSON(opts.IO.Out, rec)
	}
	w := opts.IO.Out
	fmt.Fprintf(w, "perft %s\n", rec.Title())
	fmt.Fprintf(w, "position %s, %s to move\n", rec.Position, rec.ToMove)
	fmt.Fprintf(w, "%5s %20s\n", "depth", "nodes")
	for d, c := range counts {
		fmt.Fprintf(w, "%5d %20d\n", d+1, c)
	}
	fmt.Fprintf(w, "total %d nodes in %s, %s\n", rec.Nodes, cmdutil.FormatSeconds(secs), cmdutil.FormatRate(int64(rec.Nodes), secs))
	fmt.Fprintf(w, "build %s %s, %s, %s\n", rec.Version, cmdutil.Revision(rec.VCSRevision), rec.Go, rec.CPU)
	return nil
}
