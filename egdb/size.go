package egdb

import "math/big"

// Sizes in exact arithmetic, for any m and seed count (the Index covers
// only what can be built).

func bigBinom(n, k int) *big.Int {
	if k < 0 || n < 0 || k > n {
		return new(big.Int)
	}
	return new(big.Int).Binomial(int64(n), int64(k))
}

// SliceSize is the number of positions with s seeds in m pits a side and
// neither side empty: C(s+2m-1, 2m-1) - 2 C(s+m-1, m-1) for s >= 1, and
// none for s = 0.
func SliceSize(m, s int) *big.Int {
	if s < 2 {
		return new(big.Int)
	}
	n := bigBinom(s+2*m-1, 2*m-1)
	return n.Sub(n, new(big.Int).Lsh(bigBinom(s+m-1, m-1), 1))
}

// CumulativeSize is the number of positions with at most s seeds and
// neither side empty, C(s+2m, 2m) - 2 C(s+m, m) + 1: the paper's Table 8
// (225,332,381 for s = 20, m = 6).
func CumulativeSize(m, s int) *big.Int {
	if s < 0 {
		return new(big.Int)
	}
	n := bigBinom(s+2*m, 2*m)
	n.Sub(n, new(big.Int).Lsh(bigBinom(s+m, m), 1))
	return n.Add(n, big.NewInt(1))
}

// FilesSize is the size on disk of the files of the slices 0..s of m pits
// a side: one byte per position and a HeaderSize header per file.
func FilesSize(m, s int) *big.Int {
	n := CumulativeSize(m, s)
	return n.Add(n, big.NewInt(int64(HeaderSize*(s+1))))
}

// PackedFilesSize estimates the size on disk of the files of the slices
// 0..s of m pits a side in the packed format (the default): each slice's
// header and its 64-byte lines of 126 positions (PackedBytes), without the
// exception lists, which add a few per cent (record egdb-size-per-slice).
func PackedFilesSize(m, s int) *big.Int {
	total := new(big.Int)
	line, per := big.NewInt(lineSize), big.NewInt(perLine)
	for k := 0; k <= s; k++ {
		n := SliceSize(m, k)
		n.Add(n, big.NewInt(perLine-1))
		n.Quo(n, per)
		n.Mul(n, line)
		total.Add(total, n.Add(n, big.NewInt(HeaderSize)))
	}
	return total
}

// StateSpace is the paper's Table 2 state-space size of Kalah(m,n): the
// ways to place the 2mn seeds in the 2m pits and 2 stores, times 2 for the
// side to move, 2 C(2mn+2m+1, 2m+1) (about 1.31e13 for Kalah(6,4)).
func StateSpace(m, n int) *big.Int {
	v := bigBinom(2*m*n+2*m+1, 2*m+1)
	return v.Lsh(v, 1)
}
