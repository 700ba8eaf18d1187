package engine

// Perft counts the positions reached after each number of plies 1..depth
// from b, where every sowing is one ply (an extra turn is a further ply of
// the same player) and a finished game contributes nothing to deeper
// counts. counts[d-1] is the number of move sequences of length d.
func (r Variant) Perft(b Board, depth int) []uint64 {
	counts := make([]uint64, depth)
	if depth > 0 && !b.Over() {
		r.perft(b, counts)
	}
	return counts
}

func (r Variant) perft(b Board, counts []uint64) {
	counts[0] += uint64(b.NumMoves())
	if len(counts) == 1 {
		return
	}
	for mv := b.Moves(); mv != 0; mv &= mv - 1 {
		c, res := r.Play(b, bitIndex(mv))
		if !res.Over() {
			r.perft(c, counts[1:])
		}
	}
}
