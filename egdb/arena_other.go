//go:build !linux

package egdb

import "unsafe"

// arena holds the entries of the part of a slice under construction,
// indexed by rank like the whole slice. Outside Linux it is an array of
// the whole slice's size (the parts are built and kept as on Linux, but
// the memory is not bounded by a part; arena_linux.go).
type arena struct {
	words []uint32
}

func newArena(n int64) (*arena, error) { return &arena{words: make([]uint32, (n+3)/4+1)}, nil }

func (a *arena) open([]span) error    { return nil }
func (a *arena) release([]span) error { return nil }
func (a *arena) close() error         { a.words = nil; return nil }

func (a *arena) bytes() []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(a.words))), 4*len(a.words))
}
