package egdb

// The packed encoding (EncodingPacked): four bits a position, relative to
// a base per 64-byte line, with the rare values that do not fit kept in an
// exception list. Measured on six-pit slices (docs/egdb.md), the values of
// a run of consecutive ranks span a narrow range (the ranks run over the
// opponent's side for one fixed side to move), so 15 values from a base
// hold all but about 0.1% of them.
//
//	lines       L = ceil(n/126) lines of 64 bytes, line i = ranks 126i..126i+125:
//	              byte 0      base: the line's smallest-window start, 0..255
//	              bytes 1..63 126 nibbles, rank 126i+j in byte 1+j/2, the low
//	                          nibble for even j: g - base, 0..14, or 15 for
//	                          "look in the exceptions"
//	exceptions  E entries of 3 bytes in increasing rank: the rank's low 16
//	              bits (little-endian), then g
//	directory   D = ceil(n/65536)+1 entries of 8 bytes: entry k is the index
//	              of the first exception of rank >= 65536k (entry D-1 = E);
//	              the exceptions of ranks 65536k.. are entries k..k+1-1
//
// A probe reads one line (one cache line: the payload starts at file
// offset 64 and the mapping is page-aligned) and, for an exception, a
// binary search among the exceptions of its 65,536-rank stretch.

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"runtime"

	"github.com/kalah-solver/kalah/internal/prefetch"
	"golang.org/x/sync/errgroup"
)

const (
	lineSize = 64                 // bytes per line
	perLine  = 2 * (lineSize - 1) // positions per line: 126
	escape   = 15                 // nibble marking an exception
	dirShift = 16                 // directory stretch: 65,536 ranks
	excSize  = 3                  // bytes per exception
)

// table is one slice's entries in either encoding. The zero value is an
// empty byte-encoded slice.
type table struct {
	packed bool
	raw    []byte // byte encoding: raw[r] = g; packed: the lines
	exc    []byte // packed: the exceptions, excSize bytes each
	dir    []byte // packed: the directory, 8 bytes each
	n      int64  // positions
}

// byteTable wraps one byte per position.
func byteTable(data []byte) table { return table{raw: data, n: int64(len(data))} }

// packedLayout returns the number of lines and directory entries of a
// packed slice of n positions.
func packedLayout(n int64) (lines, dir int64) {
	return (n + perLine - 1) / perLine, (n+1<<dirShift-1)>>dirShift + 1
}

// at returns the entry of rank r.
func (t *table) at(r int64) int {
	if !t.packed {
		return int(t.raw[r])
	}
	u := uint64(r)
	line := u / perLine
	j := u - line*perLine
	o := line * lineSize
	nib := t.raw[o+1+j>>1] >> (4 * (j & 1)) & 15
	if nib != escape {
		return int(t.raw[o]) + int(nib)
	}
	return t.exception(u)
}

// prefetch starts loading the line that at(r) reads (package prefetch).
func (t *table) prefetch(r int64) {
	o := uint64(r)
	if t.packed {
		o = o / perLine * lineSize
	}
	if o < uint64(len(t.raw)) {
		prefetch.Line(&t.raw[o])
	}
}

// exception finds the exception of rank r; -1 if there is none, which
// the encoder and loadSlice's checks rule out.
func (t *table) exception(r uint64) int {
	k := r >> dirShift
	lo := binary.LittleEndian.Uint64(t.dir[8*k:])
	hi := binary.LittleEndian.Uint64(t.dir[8*k+8:])
	low := uint16(r)
	for lo < hi {
		mid := (lo + hi) / 2
		e := binary.LittleEndian.Uint16(t.exc[excSize*mid:])
		switch {
		case e == low:
			return int(t.exc[excSize*mid+2])
		case e < low:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return -1
}

// decode writes the entries of ranks lo.. into dst.
func (t *table) decode(dst []byte, lo int64) {
	if !t.packed {
		copy(dst, t.raw[lo:])
		return
	}
	for i := range dst {
		dst[i] = byte(t.at(lo + int64(i)))
	}
}

// bytes returns the entries as one byte each: raw itself for the byte
// encoding, a decoded copy for the packed one.
func (t *table) bytes() []byte {
	if !t.packed {
		return t.raw
	}
	out := make([]byte, t.n)
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	const part = perLine << 14
	for lo := int64(0); lo < t.n; lo += part {
		g.Go(func() error {
			t.decode(out[lo:min(lo+part, t.n)], lo)
			return nil
		})
	}
	g.Wait()
	return out
}

// size is the payload's size in bytes.
func (t *table) size() int64 { return int64(len(t.raw) + len(t.exc) + len(t.dir)) }

// exceptions is the number of exceptions of a packed table.
func (t *table) exceptions() int64 { return int64(len(t.exc) / excSize) }

// packLine packs the entries src (at most perLine) into line and appends
// the exceptions, ranks from r0, to exc as rank<<8 | g. The base is the
// start of the 15-value window holding the most entries (the smallest
// such start).
func packLine(line, src []byte, r0 int64, exc []uint64) []uint64 {
	var h [256 + escape]int32
	lo, hi := 255, 0
	for _, v := range src {
		h[v]++
		lo, hi = min(lo, int(v)), max(hi, int(v))
	}
	base, in := lo, int32(0)
	for v := lo; v < lo+escape; v++ {
		in += h[v]
	}
	best := in
	for b := lo + 1; b+escape-1 <= hi; b++ {
		in += h[b+escape-1] - h[b-1]
		if in > best {
			base, best = b, in
		}
	}
	clear(line)
	line[0] = byte(base)
	for j, v := range src {
		d := int(v) - base
		if d < 0 || d >= escape {
			d = escape
			exc = append(exc, uint64(r0+int64(j))<<8|uint64(v))
		}
		line[1+j/2] |= byte(d) << (4 * (j & 1))
	}
	return exc
}

// pack encodes one byte per position into the packed encoding, in parallel
// over runs of lines.
func pack(data []byte) table {
	n := int64(len(data))
	nl, nd := packedLayout(n)
	t := table{packed: true, n: n, raw: make([]byte, nl*lineSize), dir: make([]byte, 8*nd)}
	e := excList{exc: []byte{}, dir: t.dir}
	e.add(packLines(t.raw, data, 0))
	e.finish()
	t.exc = e.exc
	return t
}

// packLines packs the entries src of ranks r0.. (r0 a multiple of
// perLine) into the ceil(len(src)/perLine) lines dst, in parallel over
// runs of lines, and returns each run's exceptions (packLine's), in rank
// order.
func packLines(dst, src []byte, r0 int64) [][]uint64 {
	n := int64(len(src))
	nl := (n + perLine - 1) / perLine
	const part = 1 << 14 // lines per task
	parts := make([][]uint64, (nl+part-1)/part)
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for p := range parts {
		g.Go(func() error {
			var exc []uint64
			for l := int64(p) * part; l < min(int64(p+1)*part, nl); l++ {
				r := l * perLine
				exc = packLine(dst[l*lineSize:(l+1)*lineSize], src[r:min(r+perLine, n)], r0+r, exc)
			}
			parts[p] = exc
			return nil
		})
	}
	g.Wait()
	return parts
}

// excList assembles a packed slice's exception list and its directory
// from the exceptions (rank<<8 | g) in rank order: directory entry k is
// the index of the first exception of rank >= k<<dirShift.
type excList struct {
	exc []byte // excSize bytes an exception
	dir []byte // the directory, 8 bytes an entry, all of them
	k   int64  // directory entries set
}

// add appends exceptions of ranks above those added before.
func (e *excList) add(parts [][]uint64) {
	for _, part := range parts {
		for _, x := range part {
			for ; e.k <= int64(x>>8>>dirShift); e.k++ {
				binary.LittleEndian.PutUint64(e.dir[8*e.k:], uint64(len(e.exc)/excSize))
			}
			e.exc = append(e.exc, byte(x>>8), byte(x>>16), byte(x))
		}
	}
}

// finish sets the directory entries past the last exception.
func (e *excList) finish() {
	for ; e.k < int64(len(e.dir)/8); e.k++ {
		binary.LittleEndian.PutUint64(e.dir[8*e.k:], uint64(len(e.exc)/excSize))
	}
}

// checkPacked checks the structure of a packed table read from a file of
// slice s: exceptions in strictly increasing rank below n with values
// 0..s, and a directory that indexes them. It does not look at the lines
// (the payload checksum covers them; Verify checks their values).
func (t *table) checkPacked(s int) error {
	e := t.exceptions()
	nd := int64(len(t.dir) / 8)
	prev := uint64(0)
	for k := range nd {
		d := binary.LittleEndian.Uint64(t.dir[8*k:])
		if d < prev || d > uint64(e) || k == 0 && d != 0 || k == nd-1 && d != uint64(e) {
			return fmt.Errorf("exception directory entry %d is %d (previous %d, %d exceptions)", k, d, prev, e)
		}
		prev = d
	}
	for k := range nd - 1 {
		lo := binary.LittleEndian.Uint64(t.dir[8*k:])
		hi := binary.LittleEndian.Uint64(t.dir[8*k+8:])
		last := -1
		for i := lo; i < hi; i++ {
			low := int(binary.LittleEndian.Uint16(t.exc[excSize*i:]))
			r := k<<dirShift + int64(low)
			if low <= last || r >= t.n {
				return fmt.Errorf("exception %d: rank %d out of order or beyond the %d positions", i, r, t.n)
			}
			if g := int(t.exc[excSize*i+2]); g > s {
				return fmt.Errorf("exception %d: value %d beyond the %d seeds", i, g, s)
			}
			if t.nibble(uint64(r)) != escape {
				return fmt.Errorf("exception %d: rank %d is not marked in its line", i, r)
			}
			last = low
		}
	}
	// Every listed exception is a distinct marked rank; there must be no
	// other mark.
	if m := t.marks(); m != e {
		return fmt.Errorf("%d ranks marked as exceptions, %d listed", m, e)
	}
	return nil
}

// nibble is the nibble of rank r of a packed table.
func (t *table) nibble(r uint64) byte {
	line, j := r/perLine, r%perLine
	return t.raw[line*lineSize+1+j>>1] >> (4 * (j & 1)) & 15
}

// marks counts the escape nibbles of a packed table's lines, eight bytes
// at a time: a nibble is 15 when its four bits are all set.
func (t *table) marks() int64 {
	const low = 0x1111111111111111
	var n int
	for o := 0; o < len(t.raw); o += 8 {
		w := binary.LittleEndian.Uint64(t.raw[o:])
		if o%lineSize == 0 {
			w &^= 0xff // the line's base
		}
		n += bits.OnesCount64(w & (w >> 1) & (w >> 2) & (w >> 3) & low)
	}
	return int64(n)
}

// PackedBytes estimates a packed slice file of n positions: its header and
// lines, without the exception list and its directory (under 0.5 % of the
// positions up to 24 seeds, 3 bytes each).
func PackedBytes(n int64) int64 {
	return HeaderSize + (n+perLine-1)/perLine*lineSize
}
