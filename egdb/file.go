package egdb

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/cespare/xxhash/v2"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/internal/outfile"
)

// A slice file is a 64-byte header and the payload, one byte per position
// in rank order. Every integer is little-endian.
//
//	offset size field
//	     0    8 magic "KALAHEDB"
//	     8    2 format version (FormatVersion)
//	    10    1 rule: 0 no-empty-capture, 1 empty-capture (engine.Capture)
//	    11    1 pits m
//	    12    2 seed count s of the slice
//	    14    2 encoding (EncodingGainByte: entry = g, 0..s)
//	    16    8 entry count (positions in the slice)
//	    24    8 payload checksum: XXH64 (seed 0) of the payload
//	    32    8 header checksum: XXH64 of bytes 0..31
//	    40   24 reserved, zero
//	    64    n payload

const (
	// Magic opens every slice file.
	Magic = "KALAHEDB"
	// FormatVersion is the version of the file layout this package writes
	// and reads.
	FormatVersion = 1
	// EncodingGainByte: one byte per position holding g, the seeds of the
	// slice the mover banks under perfect play.
	EncodingGainByte = 1
	// HeaderSize is the size of a slice file's header; the payload follows.
	HeaderSize = 64
)

// ErrCorrupt is wrapped by errors for files that are truncated or fail a
// checksum; ErrMismatch by files that are intact but hold another slice,
// rule, pit count or format.
var (
	ErrCorrupt  = errors.New("corrupt endgame database file")
	ErrMismatch = errors.New("endgame database file does not match")
)

// Header is the decoded header of a slice file.
type Header struct {
	Version  int
	Rules    engine.Rules
	Seeds    int
	Encoding int
	Entries  int64
	Checksum uint64
}

func (h Header) encode() []byte {
	b := make([]byte, HeaderSize)
	copy(b, Magic)
	binary.LittleEndian.PutUint16(b[8:], uint16(h.Version))
	b[10] = byte(h.Rules.Capture)
	b[11] = byte(h.Rules.Pits)
	binary.LittleEndian.PutUint16(b[12:], uint16(h.Seeds))
	binary.LittleEndian.PutUint16(b[14:], uint16(h.Encoding))
	binary.LittleEndian.PutUint64(b[16:], uint64(h.Entries))
	binary.LittleEndian.PutUint64(b[24:], h.Checksum)
	binary.LittleEndian.PutUint64(b[32:], xxhash.Sum64(b[:32]))
	return b
}

// decodeHeader checks the magic and the header checksum and decodes.
func decodeHeader(b []byte) (Header, error) {
	if string(b[:8]) != Magic {
		return Header{}, fmt.Errorf("%w: bad magic %q (not a kalah endgame database file)", ErrCorrupt, b[:8])
	}
	if got, want := xxhash.Sum64(b[:32]), binary.LittleEndian.Uint64(b[32:]); got != want {
		return Header{}, fmt.Errorf("%w: header checksum mismatch (%016x, header says %016x)", ErrCorrupt, got, want)
	}
	return Header{
		Version:  int(binary.LittleEndian.Uint16(b[8:])),
		Rules:    engine.Rules{Pits: int(b[11]), Capture: engine.Capture(b[10])},
		Seeds:    int(binary.LittleEndian.Uint16(b[12:])),
		Encoding: int(binary.LittleEndian.Uint16(b[14:])),
		Entries:  int64(binary.LittleEndian.Uint64(b[16:])),
		Checksum: binary.LittleEndian.Uint64(b[24:]),
	}, nil
}

// ReadHeader reads and checks the header of the slice file at path
// (magic and header checksum only).
func ReadHeader(path string) (Header, error) {
	f, err := os.Open(path)
	if err != nil {
		return Header{}, err
	}
	defer f.Close()
	b := make([]byte, HeaderSize)
	if _, err := io.ReadFull(f, b); err != nil {
		return Header{}, fmt.Errorf("%s: %w: truncated header (%v)", path, ErrCorrupt, err)
	}
	h, err := decodeHeader(b)
	if err != nil {
		return h, fmt.Errorf("%s: %w", path, err)
	}
	return h, nil
}

// loadSlice opens the slice file at path, checks every header field against
// what is wanted and the payload's checksum, and maps the payload. The
// returned function unmaps it. A missing file is an fs.ErrNotExist error.
func loadSlice(path string, rules engine.Rules, s int, entries int64) ([]byte, func() error, error) {
	fail := func(format string, a ...any) ([]byte, func() error, error) {
		return nil, nil, fmt.Errorf("%s: "+format, append([]any{path}, a...)...)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if st.Size() < HeaderSize {
		return fail("%w: truncated: %d bytes, shorter than the %d-byte header", ErrCorrupt, st.Size(), HeaderSize)
	}
	hb := make([]byte, HeaderSize)
	if _, err := io.ReadFull(f, hb); err != nil {
		return fail("reading header: %w", err)
	}
	h, err := decodeHeader(hb)
	if err != nil {
		return fail("%w", err)
	}
	if h.Version != FormatVersion {
		return fail("%w: format version %d, this build reads version %d", ErrMismatch, h.Version, FormatVersion)
	}
	if h.Rules != rules || h.Seeds != s {
		return fail("%w: holds slice %d of %v, want slice %d of %v", ErrMismatch, h.Seeds, h.Rules, s, rules)
	}
	if h.Encoding != EncodingGainByte {
		return fail("%w: unknown encoding %d", ErrMismatch, h.Encoding)
	}
	if h.Entries != entries {
		return fail("%w: header says %d entries, slice %d of %d pits has %d", ErrMismatch, h.Entries, s, rules.Pits, entries)
	}
	if want := HeaderSize + entries; st.Size() < want {
		return fail("%w: truncated: %d bytes, want %d", ErrCorrupt, st.Size(), want)
	} else if st.Size() > want {
		return fail("%w: %d bytes past the %d the header accounts for", ErrCorrupt, st.Size()-want, want)
	}
	if entries == 0 {
		return []byte{}, func() error { return nil }, nil
	}
	data, unmap, err := mapFile(f, st.Size())
	if err != nil {
		return fail("mapping: %w", err)
	}
	payload := data[HeaderSize:]
	if got := xxhash.Sum64(payload); got != h.Checksum {
		unmap()
		return fail("%w: payload checksum mismatch (%016x, header says %016x)", ErrCorrupt, got, h.Checksum)
	}
	return payload, unmap, nil
}

// writeSlice writes a slice file atomically (package outfile): to a
// temporary file in the same directory, synced, then renamed over path. An
// interrupted write leaves no file under the final name.
func writeSlice(path string, rules engine.Rules, s int, payload []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	h := Header{Version: FormatVersion, Rules: rules, Seeds: s, Encoding: EncodingGainByte,
		Entries: int64(len(payload)), Checksum: xxhash.Sum64(payload)}
	return outfile.Write(path, func(w io.Writer) error {
		if _, err := w.Write(h.encode()); err != nil {
			return err
		}
		_, err := w.Write(payload)
		return err
	})
}
