package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/kalah-solver/kalah/engine"
)

// Cell is one start position of the growth series.
type Cell struct {
	Game    string  `json:"game"` // Kalah(m,n)
	Rule    string  `json:"rule"`
	Pits    int     `json:"pits"`
	Seeds   int     `json:"seeds"`
	Skipped bool    `json:"skipped"`          // not solved within the limit
	Result  *Result `json:"result,omitempty"` // nil when skipped
}

// Growth solves the start positions of Kalah(pits, 1..maxSeeds) under
// both rules, each with a fresh solver (a StartTableSize table unless cfg
// sets one), giving up on a cell after limit.
// Once a cell is skipped the larger seed counts of that rule are skipped
// too without being tried: they only take longer. each, if not nil, is
// called after every cell.
func Growth(ctx context.Context, pits, maxSeeds int, cfg Config, limit time.Duration, each func(Cell)) ([]Cell, error) {
	var out []Cell
	for _, c := range engine.AllRules {
		skip := false
		for n := 1; n <= maxSeeds; n++ {
			k := Case{
				Name:      fmt.Sprintf("%dx%d-%s-start", pits, n, ruleTag(c)),
				Variant:   engine.Variant{Pits: pits, Rule: c},
				Seeds:     n,
				TableSize: StartTableSize,
			}
			cell := Cell{Game: k.Game(), Rule: c.String(), Pits: pits, Seeds: n}
			if !skip {
				cctx, cancel := context.WithTimeout(ctx, limit)
				res, err := RunCase(cctx, k, cfg)
				cancel()
				switch {
				case err == nil:
					cell.Result = &res
				case ctx.Err() != nil:
					return out, ctx.Err()
				case cctx.Err() != nil:
					skip = true
				default:
					return out, err
				}
			}
			cell.Skipped = skip
			out = append(out, cell)
			if each != nil {
				each(cell)
			}
		}
	}
	return out, nil
}
