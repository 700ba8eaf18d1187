package tt

import (
	"encoding/binary"
	"fmt"
	"io"
	"sync/atomic"
)

// ImageFormat is the version of a table image (WriteImage): it changes
// whenever the entry layout or the mapping of positions to slots does, so
// that an image is read back only by a build that places and reads every
// entry the same way.
const ImageFormat = 1

// imageChunk is the number of slots copied at a time.
const imageChunk = 1 << 17

// WriteImage writes every slot of the table, in order, as little-endian
// words: the table's memory image, which ReadImage loads into a table of
// the same pit count and size. Each slot is read with an atomic load, so
// threads may go on searching (their writes during the copy land in the
// image or not, and every entry in it is one that the table held).
func (t *Table) WriteImage(w io.Writer) (int64, error) {
	buf := make([]byte, 8*imageChunk)
	var n int64
	for i := 0; i < len(t.slots); i += imageChunk {
		part := t.slots[i:min(i+imageChunk, len(t.slots))]
		b := buf[:8*len(part)]
		for j := range part {
			binary.LittleEndian.PutUint64(b[8*j:], atomic.LoadUint64(&part[j]))
		}
		m, err := w.Write(b)
		n += int64(m)
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// ReadImage loads an image written by WriteImage from a table of the same
// pit count and size (the caller checks both, and the image's format)
// over every slot. No search may run meanwhile. When it fails part-way the
// table is cleared.
func (t *Table) ReadImage(r io.Reader) error {
	buf := make([]byte, 8*imageChunk)
	for i := 0; i < len(t.slots); i += imageChunk {
		part := t.slots[i:min(i+imageChunk, len(t.slots))]
		b := buf[:8*len(part)]
		if _, err := io.ReadFull(r, b); err != nil {
			t.Clear()
			return fmt.Errorf("table image: %w", err)
		}
		for j := range part {
			part[j] = binary.LittleEndian.Uint64(b[8*j:]) // no search runs: plain stores
		}
	}
	return nil
}

// Pits is the pit count the table was made for.
func (t *Table) Pits() int { return t.pits }
