package perftcmd

import (
	"fmt"
	"time"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/multi"
	"github.com/kalah-solver/kalah/results"
)

// playersRecord is the JSON output for --players 3 or 4.
type playersRecord struct {
	Players        int      `json:"players"`
	CaptureTarget  string   `json:"capture_target"`
	Rule           string   `json:"rule"` // always no-empty-capture
	Pits           int      `json:"pits"`
	Seeds          int      `json:"seeds,omitempty"` // start positions only
	Position       string   `json:"position"`
	ToMove         string   `json:"to_move"` // P1..Pk
	Depth          int      `json:"depth"`
	Counts         []uint64 `json:"counts"`
	Nodes          uint64   `json:"nodes"`
	Seconds        float64  `json:"seconds"`
	NodesPerSecond float64  `json:"nodes_per_second"`
	results.Provenance
}

func runPlayers(opts *Options, changed func(string) bool) error {
	if opts.Depth < 1 || opts.Depth > MaxDepth {
		return cmdutil.BadInputf("--depth must be 1..%d, got %d", MaxDepth, opts.Depth)
	}
	r, p, start, err := opts.Players.ResolveMulti(&opts.Game, changed)
	if err != nil {
		return err
	}
	t0 := time.Now()
	counts := r.Perft(p.Board, opts.Depth)
	secs := time.Since(t0).Seconds()
	rec := playersRecord{
		Players:       r.Players,
		CaptureTarget: r.Target.String(),
		Rule:          "no-empty-capture",
		Pits:          r.Pits,
		Position:      p.String(),
		ToMove:        multi.SeatName(p.ToMove()),
		Depth:         opts.Depth,
		Counts:        counts,
		Seconds:       secs,
		Provenance:    results.Current(),
	}
	if start {
		rec.Seeds = opts.Game.Seeds
	}
	for _, c := range counts {
		rec.Nodes += c
	}
	if secs > 0 {
		rec.NodesPerSecond = float64(rec.Nodes) / secs
	}
	if opts.JSON {
		return cmdutil.PrintJSON(opts.IO.Out, rec)
	}
	w := opts.IO.Out
	fmt.Fprintf(w, "perft %s, capture from %s, rule no-empty-capture\n", cmdutil.MultiGameName(r, opts.Game.Seeds, start), rec.CaptureTarget)
	fmt.Fprintf(w, "position %s, %s to move\n", rec.Position, rec.ToMove)
	fmt.Fprintf(w, "%5s %20s\n", "depth", "nodes")
	for d, c := range counts {
		fmt.Fprintf(w, "%5d %20d\n", d+1, c)
	}
	fmt.Fprintf(w, "total %d nodes in %.3f s, %.1f M nodes/s\n", rec.Nodes, secs, rec.NodesPerSecond/1e6)
	fmt.Fprintf(w, "build %s %s, %s, %s\n", rec.Version, revision(rec.VCSRevision), rec.Go, rec.CPU)
	return nil
}
