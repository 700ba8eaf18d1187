package results

import (
	"fmt"
	"strings"

	"github.com/kalah-solver/kalah/multi"
)

// PlayersTargets are the k-player cells the records should cover: k = 3
// and 4, m = 2..4, n = 1..3, every capture target that plays differently,
// both concepts. Cells without a record are listed as open.
func PlayersTargets() []PlayersRecord {
	var out []PlayersRecord
	for k := 3; k <= 4; k++ {
		for m := 2; m <= 4; m++ {
			for n := 1; n <= 3; n++ {
				for _, t := range multi.Targets {
					r := multi.Rules{Players: k, Pits: m, Target: t}
					if r.Canonical() != r {
						continue
					}
					for _, c := range multi.Concepts {
						out = append(out, PlayersRecord{Players: k, Pits: m, Seeds: n, CaptureTarget: t.String(), Concept: c.String()})
					}
				}
			}
		}
	}
	return out
}

func (rp *report) findPlayers(want PlayersRecord) *PlayersRecord {
	for i := range rp.players {
		if playersCell(rp.players[i]) == playersCell(want) {
			return &rp.players[i]
		}
	}
	return nil
}

func seatList(v []int) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, " / ")
}

// playersSection writes the k-player results.
func (rp *report) playersSection() {
	rp.p("## Three and four players\n\n")
	rp.p("The k-player game of the rule sites (docs/rules.md, \"Three and four\n")
	rp.p("players\"): k players round the board, m pits each, no-empty-capture, a\n")
	rp.p("capture taking the mirror pit of the next player (`next`, the default), of\n")
	rp.p("the player opposite (`opposite`, the same as `next` for three players) or of\n")
	rp.p("every other player (`all`); the game ends when any player's pits are\n")
	rp.p("empty. A k-player game has no single value, so every record names its\n")
	rp.p("solution concept (records: `results/data/players.jsonl`, written by\n")
	rp.p("`kalah solve --players k --concept C --save results/data`):\n\n")
	rp.p("- **paranoid**: P1 maximises its final store and every other player\n")
	rp.p("  minimises it. The value is what P1 can **guarantee** whatever the others\n")
	rp.p("  do; the same search with another seat as the maximiser gives that seat's\n")
	rp.p("  guarantee from the start (P1 still moving first).\n")
	rp.p("- **maxn**: every player maximises its own final store; among moves of\n")
	rp.p("  equal value to the mover, the lowest pit is played. The value is the final\n")
	rp.p("  store vector of that play.\n\n")
	rp.p("Stores are listed by seat, P1 / P2 / ..., P1 moving first; each game\n")
	rp.p("holds kmn seeds, so a fair share is mn.\n\n")

	var guarAbove, guarN, p1Best, maxnN int
	rp.p("### Paranoid: what each seat can guarantee\n\n")
	rp.p("| players | m | n | capture | seeds | P1 guarantees | every seat's guarantee | P1's best first moves | nodes | seconds |\n")
	rp.p("|---|---|---|---|---|---|---|---|---|---|\n")
	for _, c := range PlayersTargets() {
		if c.Concept != "paranoid" {
			continue
		}
		r := rp.findPlayers(c)
		if r == nil {
			continue
		}
		total := r.Players * r.Pits * r.Seeds
		guarN++
		if r.Value*r.Players >= total {
			guarAbove++
		}
		rp.p("| %d | %d | %d | %s | %d | %d | %s | %s | %d | %.3f |\n", r.Players, r.Pits, r.Seeds, r.CaptureTarget, total, r.Value, seatList(r.Guarantees), strings.Join(r.Best, " "), r.Nodes, r.Seconds)
	}
	rp.p("\n")
	rp.p("### Max^n: the final stores when every player plays for itself\n\n")
	rp.p("| players | m | n | capture | P1's final store | final stores | ranks | P1's best first moves | positions | seconds |\n")
	rp.p("|---|---|---|---|---|---|---|---|---|---|\n")
	for _, c := range PlayersTargets() {
		if c.Concept != "maxn" {
			continue
		}
		r := rp.findPlayers(c)
		if r == nil {
			continue
		}
		maxnN++
		ranks := multi.Ranks(r.Stores)
		if ranks[0] == 1 {
			p1Best++
		}
		rp.p("| %d | %d | %d | %s | %d | %s | %s | %s | %d | %.3f |\n", r.Players, r.Pits, r.Seeds, r.CaptureTarget, r.Value, seatList(r.Stores), seatList(ranks), strings.Join(r.Best, " "), r.Positions, r.Seconds)
	}
	rp.p("\n")
	rp.p("### What the tables say\n\n")
	rp.p("- Paranoid: in %d of %d solved cells P1 can guarantee at least a fair share\n", guarAbove, guarN)
	rp.p("  (mn seeds) against a coalition of all the others.\n")
	rp.p("- Max^n: P1 ranks first (alone or tied) in %d of %d solved cells.\n", p1Best, maxnN)
	rp.p("- Seat order: %s\n", rp.seatOrder())
	rp.p("- In every cell solved under both concepts, each seat's max^n store is at\n")
	rp.p("  least its paranoid guarantee (a test holds the records to that).\n\n")

	var open []string
	for _, c := range PlayersTargets() {
		if rp.findPlayers(c) == nil {
			open = append(open, fmt.Sprintf("%d-player Kalah(%d,%d) %s %s", c.Players, c.Pits, c.Seeds, c.CaptureTarget, c.Concept))
		}
	}
	if len(open) > 0 {
		rp.p("Open (no record: the run did not finish within its limits, 600 s with a\n")
		rp.p("1 GiB table for paranoid, 300 s and 40 million positions for max^n, on two\n")
		rp.p("cores shared with other work; max^n keeps every position of the game graph\n")
		rp.p("and has no cut-offs): %s.\n\n", strings.Join(open, "; "))
	}
}

// seatOrder says, over the solved paranoid cells, how often the first
// seat's guarantee is the largest and how often the last seat's is.
func (rp *report) seatOrder() string {
	var first, last, n int
	for _, r := range rp.players {
		if r.Concept != "paranoid" {
			continue
		}
		n++
		hi, lo := 0, 1<<30
		for _, g := range r.Guarantees {
			hi, lo = max(hi, g), min(lo, g)
		}
		if r.Guarantees[0] == hi {
			first++
		}
		if r.Guarantees[len(r.Guarantees)-1] == lo {
			last++
		}
	}
	return fmt.Sprintf("P1's guarantee is the largest of all seats' (or tied)\n  in %d of %d paranoid cells, and the last seat's the smallest (or tied) in %d.", first, n, last)
}
