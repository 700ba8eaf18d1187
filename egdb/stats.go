package egdb

import (
	"fmt"
	"runtime"
	"sync"

	"golang.org/x/sync/errgroup"
)

// SliceStats summarizes one slice: how its positions end for the side to
// move if the stores are level (won: 2g > s, drawn: 2g = s, lost: 2g < s)
// and the distribution of g.
type SliceStats struct {
	Seeds     int     `json:"seeds"`
	Positions int64   `json:"positions"`
	Won       int64   `json:"won"`
	Drawn     int64   `json:"drawn"`
	Lost      int64   `json:"lost"`
	Gains     []int64 `json:"gains"` // Gains[g]: positions whose mover banks g of the s seeds
	// Storage: the encoding of the slice and its payload's size, and the
	// size and exceptions of the packed encoding (as stored, or what
	// Convert would write).
	Format      string `json:"format"`
	Bytes       int64  `json:"bytes"`
	PackedBytes int64  `json:"packed_bytes"`
	Exceptions  int64  `json:"exceptions"`
}

// Share returns won, drawn and lost as fractions of the positions.
func (st SliceStats) Share() (won, drawn, lost float64) {
	if st.Positions == 0 {
		return 0, 0, 0
	}
	n := float64(st.Positions)
	return float64(st.Won) / n, float64(st.Drawn) / n, float64(st.Lost) / n
}

// MeanDiff is the mean of 2g - s, the mover's average final margin from
// level stores.
func (st SliceStats) MeanDiff() float64 {
	if st.Positions == 0 {
		return 0
	}
	var sum int64
	for g, c := range st.Gains {
		sum += int64(2*g-st.Seeds) * c
	}
	return float64(sum) / float64(st.Positions)
}

// Stats counts the entries of slice s. An entry outside 0..s, which only a
// damaged database holds, is an error.
func (db *DB) Stats(s int) (SliceStats, error) {
	if s < 0 || s > db.MaxSeeds() {
		return SliceStats{}, fmt.Errorf("slice %d is not in the database (0..%d)", s, db.MaxSeeds())
	}
	t := &db.slices[s]
	var (
		mu    sync.Mutex
		total [256]int64
		exc   int64
	)
	const part = perLine << 15 // whole lines
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for lo := int64(0); lo < t.n; lo += part {
		g.Go(func() error {
			var h [256]int64
			buf := make([]byte, min(part, t.n-lo))
			t.decode(buf, lo)
			for _, v := range buf {
				h[v]++
			}
			var e int64
			if !t.packed {
				var line [lineSize]byte
				var list []uint64
				for l := 0; l < len(buf); l += perLine {
					list = packLine(line[:], buf[l:min(l+perLine, len(buf))], lo+int64(l), list[:0])
					e += int64(len(list))
				}
			}
			mu.Lock()
			exc += e
			for i, c := range h {
				total[i] += c
			}
			mu.Unlock()
			return nil
		})
	}
	g.Wait()
	st := SliceStats{Seeds: s, Positions: t.n, Gains: make([]int64, s+1), Format: EncodingName(db.Encoding(s)),
		Bytes: t.size(), PackedBytes: t.size(), Exceptions: t.exceptions()}
	if !t.packed {
		nl, nd := packedLayout(t.n)
		st.Exceptions = exc
		st.PackedBytes = lineSize*nl + excSize*exc + 8*nd
	}
	for v, c := range total {
		if c == 0 {
			continue
		}
		if v > s {
			return st, fmt.Errorf("slice %d holds %d entries of value %d, beyond the %d seeds", s, c, v, s)
		}
		st.Gains[v] = c
		switch {
		case 2*v > s:
			st.Won += c
		case 2*v == s:
			st.Drawn += c
		default:
			st.Lost += c
		}
	}
	return st, nil
}
