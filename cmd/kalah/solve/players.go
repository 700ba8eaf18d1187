package solvecmd

// The k-player path of "kalah solve" (--players 3 or 4, package players):
// both solution concepts, every opening move's final stores, a principal
// variation and, under paranoid, what each seat can guarantee.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/players"
	"github.com/kalah-solver/kalah/results"
	"github.com/spf13/cobra"
)

// PlayersOptions are the inputs of the k-player path.
type PlayersOptions struct {
	cmdutil.PlayersFlags
	Concept      string
	MaxPositions int
	Save         string // results directory to merge the record into, "" none
}

// addPlayersFlags registers the k-player flags on the solve command.
func addPlayersFlags(cmd *cobra.Command, opts *Options) {
	cmdutil.AddPlayersFlags(cmd, &opts.Players.PlayersFlags)
	f := cmd.Flags()
	f.StringVar(&opts.Players.Concept, "concept", players.Paranoid.String(), "with --players 3 or 4, the solution concept: paranoid (the mover against a coalition of the others; --table-size sizes its table, default 256MiB) or maxn (each player for itself, lowest pit among equal moves; it keeps every position, 4 to 9 bytes each, in a table that doubles up to --table-size counting the old table while it grows, default 2GiB)")
	f.IntVar(&opts.Players.MaxPositions, "max-positions", 0, "with --concept maxn, stop when the table holds more positions (0: only --table-size bounds it)")
	f.StringVar(&opts.Players.Save, "save", "", "with --players 3 or 4, merge the start position's record into DIR/players.jsonl (e.g. results/data)")
}

// checkTwoPlayers rejects the k-player flags in a two-player solve.
func checkTwoPlayers(changed func(string) bool) error {
	for _, f := range []string{"capture-target", "concept", "max-positions", "save"} {
		if changed(f) {
			return cmdutil.BadInputf("--%s is a flag of the 3- and 4-player game (--players 3 or 4)", f)
		}
	}
	return nil
}

// playersOutput is the JSON output of the k-player path.
type playersOutput struct {
	Players       int                      `json:"players"`
	CaptureTarget string                   `json:"capture_target"`
	Rule          string                   `json:"rule"`
	Concept       string                   `json:"concept"`
	Pits          int                      `json:"pits"`
	Seeds         int                      `json:"seeds,omitempty"` // start positions only
	Position      string                   `json:"position"`
	ToMove        string                   `json:"to_move"`
	Value         int                      `json:"value"`  // the mover's final store under the concept
	Stores        []int                    `json:"stores"` // final stores: max^n outcome, paranoid principal variation
	Guarantees    []int                    `json:"guarantees,omitempty"`
	Moves         []results.PlayersOpening `json:"moves"`
	Best          []string                 `json:"best"`
	PV            string                   `json:"pv"`
	Nodes         uint64                   `json:"nodes"`
	Positions     int                      `json:"positions"`
	Seconds       float64                  `json:"seconds"`
	TableSize     int64                    `json:"table_size"`
	results.Provenance
}

func runPlayers(ctx context.Context, opts *Options, changed func(string) bool) error {
	po := &opts.Players
	if err := po.Check(changed); err != nil {
		return err
	}
	concept, err := players.ParseConcept(po.Concept)
	if err != nil {
		return cmdutil.BadInput(err)
	}
	if opts.Game.Position == "-" {
		return cmdutil.BadInputf("--position - reads two-player positions; give a %d-player --position", po.Players)
	}
	r, p, start, err := po.ResolveMulti(&opts.Game, changed)
	if err != nil {
		return err
	}
	head := opts.Game.MultiHead(r, p, start)
	if po.Save != "" && !start {
		return cmdutil.BadInputf("--save records start positions only")
	}
	if p.Board.Over() {
		return cmdutil.BadInputf("position %s: the game is over", p)
	}
	// The session sizes the table by the k-player policy unless --table-size.
	cfg := kalah.PlayersConfig{Rules: r, Concept: concept, TableSeeds: p.Board.Seeds(), MaxPositions: po.MaxPositions}
	if opts.TableSize != "" {
		if cfg.TableSize, err = cmdutil.ParseBytes(opts.TableSize); err != nil {
			return cmdutil.BadInputf("--table-size: %v", err)
		}
	}
	if !opts.Quiet && (opts.Progress == nil || *opts.Progress) {
		// A long search reports every 30 s on standard error.
		t0 := time.Now()
		cfg.Progress = func(nodes uint64, entries int, tableSize int64) {
			sec := time.Since(t0).Seconds()
			if concept == players.MaxN {
				fmt.Fprintf(opts.IO.ErrOut, "max^n: %d positions in %s (%.1f bytes a position), %d nodes, %.0f s, %.0f positions/s\n",
					entries, cmdutil.FormatBytes(tableSize), float64(tableSize)/float64(max(entries, 1)), nodes, sec, float64(entries)/sec)
				return
			}
			fmt.Fprintf(opts.IO.ErrOut, "paranoid: %d nodes, %d entries in a %s table, %.0f s, %.0f nodes/s\n",
				nodes, entries, cmdutil.FormatBytes(tableSize), sec, float64(nodes)/sec)
		}
		cfg.ProgressEvery = 30 * time.Second
	}
	s, err := kalah.OpenPlayers(cfg)
	switch {
	case errors.Is(err, players.ErrTooBig):
		return fmt.Errorf("%s: %w", head.Name, err)
	case err != nil:
		return cmdutil.BadInput(err)
	}
	defer s.Close()
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	t0 := time.Now()
	sol, err := s.Solve(ctx, p)
	var guar []int
	for seat := 0; err == nil && concept == players.Paranoid && seat < r.Players; seat++ {
		var g int
		g, err = s.Guarantee(ctx, p, seat)
		guar = append(guar, g)
	}
	switch {
	case errors.Is(err, players.ErrTooBig):
		return fmt.Errorf("%s: %w (raise --table-size or --max-positions, or try a smaller game)", head.Name, err)
	case ctx.Err() != nil:
		return cmdutil.ErrInterrupted
	case err != nil:
		return err
	}
	out := playersOutput{
		Players:       head.Players,
		CaptureTarget: head.CaptureTarget,
		Rule:          head.Rule,
		Concept:       concept.String(),
		Pits:          head.Pits,
		Seeds:         head.Seeds,
		Position:      head.Position,
		ToMove:        head.ToMove,
		Value:         sol.Value,
		Stores:        sol.Stores,
		Guarantees:    guar,
		PV:            lineText(sol.PV),
		Positions:     sol.Entries,
		Seconds:       time.Since(t0).Seconds(),
		TableSize:     s.TableSize(), // max^n's as it ended
		Provenance:    results.Current(),
	}
	out.Nodes, _ = s.Work()
	for _, mv := range sol.Moves {
		out.Moves = append(out.Moves, results.PlayersOpening{Move: players.MoveName(sol.Mover, mv.Pit), Value: mv.Value, Stores: mv.Stores})
	}
	for _, i := range sol.Best {
		out.Best = append(out.Best, players.MoveName(sol.Mover, i))
	}
	if po.Save != "" {
		rec := results.PlayersRecord{
			Players: out.Players, Pits: out.Pits, Seeds: out.Seeds, CaptureTarget: r.Canonical().Target.String(),
			Rule: out.Rule, Concept: out.Concept, Value: out.Value, Stores: out.Stores, Guarantees: out.Guarantees,
			Openings: out.Moves, Best: out.Best, PV: out.PV, Nodes: out.Nodes, Positions: out.Positions,
			Seconds: float64(int64(out.Seconds*1000)) / 1000, TableSize: out.TableSize,
			Date: time.Now().UTC().Format("2006-01-02"), Provenance: out.Provenance,
		}
		if err := (results.Archive{Dir: po.Save}).PutPlayers(rec); err != nil {
			return err
		}
	}
	if opts.JSON {
		return cmdutil.PrintJSON(opts.IO.Out, out)
	}
	writePlayers(opts, out, head)
	return nil
}

func lineText(pv []players.Ply) string {
	parts := make([]string, len(pv))
	for i, pl := range pv {
		parts[i] = pl.String()
	}
	return strings.Join(parts, " ")
}

func storesText(stores []int) string {
	parts := make([]string, len(stores))
	for s, v := range stores {
		parts[s] = fmt.Sprintf("%s %d", players.SeatName(s), v)
	}
	return strings.Join(parts, ", ")
}

func writePlayers(opts *Options, out playersOutput, head cmdutil.GameHead) {
	w := opts.IO.Out
	fmt.Fprintf(w, "%s, concept %s\n", head.Title(), out.Concept)
	fmt.Fprintf(w, "position %s, %s to move\n", out.Position, out.ToMove)
	if out.Concept == players.Paranoid.String() {
		fmt.Fprintf(w, "value: %s's final store %d, guaranteed whatever the others do (paranoid)\n", out.ToMove, out.Value)
	} else {
		fmt.Fprintf(w, "value: %s's final store %d when every player maximises its own store (max^n, lowest pit among equal moves)\n", out.ToMove, out.Value)
	}
	fmt.Fprintf(w, "moves (the mover's value; final stores %s):\n", map[bool]string{true: "along the principal variation after the move", false: "of max^n play"}[out.Concept == players.Paranoid.String()])
	for _, mv := range out.Moves {
		fmt.Fprintf(w, "  %-4s %4d   %s\n", mv.Move, mv.Value, storesText(mv.Stores))
	}
	fmt.Fprintf(w, "best: %s\n", strings.Join(out.Best, " "))
	fmt.Fprintf(w, "principal variation: %s\n", out.PV)
	fmt.Fprintf(w, "final stores: %s\n", storesText(out.Stores))
	if out.Guarantees != nil {
		fmt.Fprintf(w, "guarantees (each seat against all the others): %s\n", storesText(out.Guarantees))
	}
	fmt.Fprintf(w, "%d nodes, %d positions in the table, %.3f s\n", out.Nodes, out.Positions, out.Seconds)
}
