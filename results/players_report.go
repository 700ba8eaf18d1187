package results

import (
	"fmt"
	"strings"

	"github.com/kalah-solver/kalah/players"
)

// PlayersTargets are the k-player cells the records should cover: k = 3
// and 4, m = 2..4, n = 1..3, every capture target that plays differently,
// both concepts. Cells without a record are listed as open.
func PlayersTargets() []PlayersRecord {
	var out []PlayersRecord
	for k := 3; k <= 4; k++ {
		for m := 2; m <= 4; m++ {
			for n := 1; n <= 3; n++ {
				for _, t := range players.Targets {
					r := players.Variant{Players: k, Pits: m, Target: t}
					if r.Canonical() != r {
						continue
					}
					for _, c := range players.Concepts {
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
		ranks := players.Ranks(r.Stores)
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
		rp.p("Open (no record): %s.\n\n", strings.Join(open, "; "))
		rp.p("Max^n has no cut-offs: it keeps every position of the game graph with\n")
		rp.p("its gains, 4 to 9 bytes a position in a table that doubles up to\n")
		rp.p("`--table-size` (players/maxntable.go); within 11.5 GiB the largest table holds\n")
		rp.p("1.3 to 2.3 billion positions (4-player Kalah(4,3), 3-player Kalah(4,3)).\n")
		rp.p("4-player Kalah(3,3) next, the largest solved,\n")
		rp.p("took 312 million positions, a 2.2 GB table and 12 minutes on two shared\n")
		rp.p("cores. Paranoid searches with cut-offs but gives every root move's exact\n")
		rp.p("value and every seat's guarantee, several searches a cell. Why each cell is\n")
		rp.p("open (sizes estimated from the growth of the solved cells: positions grew\n")
		rp.p("13x and 25x from n = 2 to 3 for three players with 2 and 3 pits, 34x and\n")
		rp.p("89x for four; 2,056x from n = 1 to 2 for four players with 3 pits):\n\n")
		for _, c := range open {
			if why, ok := openWhy[c]; ok {
				rp.p("- %s: %s\n", c, why)
			}
		}
		rp.p("\n")
	}
}

// openWhy says why an open k-player cell is open: what its runs reached and
// the size its growth suggests.
var openWhy = map[string]string{
	"3-player Kalah(4,3) next maxn":         "not run to the end: 3-player Kalah(4,2) next took 57 million positions, and the factor from n = 2 to 3 (13x with 2 pits, 25x with 3) suggests 48x to 66x, an estimated 2.7 to 3.7 billion positions, 12 to 30 GB at 4.3 to 8 bytes each: more than 12 GiB.",
	"3-player Kalah(4,3) all maxn":          "as next: 3-player Kalah(4,2) all took 43 million positions, an estimated 2 to 2.8 billion, 9 to 23 GB.",
	"4-player Kalah(4,2) next maxn":         "not run to the end: 4-player Kalah(4,1) next took 0.9 million positions, and the factor from n = 1 to 2 is 2,056x for four players with 3 pits and grows with the pits (three players: 214x with 3 pits, 1,367x with 4), an estimated 1.8 to 12 billion positions, 8 to 90 GB.",
	"4-player Kalah(4,2) opposite maxn":     "as next: 4-player Kalah(4,1) opposite took 1.05 million positions, an estimated 2.2 to 14 billion.",
	"4-player Kalah(4,2) all maxn":          "as next: 4-player Kalah(4,1) all took 0.15 million positions and n = 1 to 2 grew 2,630x for four players with 3 pits, 2,650x for three with 4 pits: an estimated 0.4 to 3.5 billion positions, which may fit 12 GiB at the low end.",
	"4-player Kalah(4,3) next maxn":         "beyond 4-player Kalah(4,2) by the factor from n = 2 to 3 (89x with 3 pits): hundreds of billions of positions.",
	"4-player Kalah(4,3) opposite maxn":     "as next.",
	"4-player Kalah(4,3) all maxn":          "as next.",
	"4-player Kalah(4,3) next paranoid":     "did not finish in 600 s with a 1 GiB table; from 4-player Kalah(4,2) (5.4 million nodes) and the node factor from n = 2 to 3 of the solved cells (40x to 127x for four players with 3 pits, 913x and 1,934x for three with 4), an estimated 0.2 to 10 billion nodes, minutes to hours at 1 to 2 million nodes a second.",
	"4-player Kalah(4,3) opposite paranoid": "as next, from 38.5 million nodes for n = 2: an estimated 1.5 to 75 billion nodes.",
	"4-player Kalah(4,3) all paranoid":      "as next, from 0.7 million nodes for n = 2: an estimated 28 million to 1.3 billion nodes.",
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
