package egdb

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/cespare/xxhash/v2"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/internal/outfile"
)

// A slice file is a 64-byte header and the payload. Every integer is
// little-endian.
//
//	offset size field
//	     0    8 magic "KALAHEDB"
//	     8    2 format version: 1 (byte encoding) or 2 (packed encoding)
//	    10    1 rule: 0 no-empty-capture, 1 empty-capture (engine.Rule)
//	    11    1 pits m
//	    12    2 seed count s of the slice
//	    14    2 encoding: EncodingGainByte (version 1), EncodingPacked (version 2)
//	    16    8 entry count (positions in the slice)
//	    24    8 payload checksum: XXH64 (seed 0) of the payload
//	    32    8 header checksum: XXH64 of bytes 0..31 (version 1), of
//	            bytes 0..31 followed by 40..63 (version 2)
//	    40    8 version 2: exception count E; version 1: zero
//	    48   16 reserved, zero
//	    64    n payload: n = entry count bytes (version 1), or the lines,
//	            exceptions and directory of pack.go (version 2)
//
// Byte-encoded files are still written as version 1, so that older builds
// read them.

const (
	// Magic opens every slice file.
	Magic = "KALAHEDB"
	// FormatVersion is the newest file layout this package writes and
	// reads; it reads every older one too.
	FormatVersion = 2
	// EncodingGainByte: one byte per position holding g, the seeds of the
	// slice the mover banks under perfect play (format version 1).
	EncodingGainByte = 1
	// EncodingPacked: four bits a position relative to a base per 126
	// positions, with an exception list (pack.go; format version 2).
	EncodingPacked = 2
	// HeaderSize is the size of a slice file's header; the payload follows.
	HeaderSize = 64
)

// EncodingName is the name of an encoding in the command line and in
// reports: "byte" or "packed".
func EncodingName(enc int) string {
	switch enc {
	case EncodingGainByte:
		return "byte"
	case EncodingPacked:
		return "packed"
	}
	return fmt.Sprintf("encoding %d", enc)
}

// ParseEncoding parses "byte" or "packed".
func ParseEncoding(name string) (int, error) {
	switch name {
	case "byte":
		return EncodingGainByte, nil
	case "packed":
		return EncodingPacked, nil
	}
	return 0, fmt.Errorf("unknown database format %q (want byte or packed)", name)
}

// versionOf is the format version of the files of an encoding.
func versionOf(enc int) int {
	if enc == EncodingPacked {
		return 2
	}
	return 1
}

// ErrCorrupt is wrapped by errors for files that are truncated or fail a
// checksum; ErrMismatch by files that are intact but hold another slice,
// rule, pit count or format.
var (
	ErrCorrupt  = errors.New("corrupt endgame database file")
	ErrMismatch = errors.New("endgame database file does not match")
)

// Header is the decoded header of a slice file.
type Header struct {
	Version    int
	Variant    engine.Variant
	Seeds      int
	Encoding   int
	Entries    int64
	Checksum   uint64
	Exceptions int64 // version 2: entries kept in the exception list
}

// headerSum is the header checksum of b for its version.
func headerSum(b []byte, version int) uint64 {
	if version == 1 {
		return xxhash.Sum64(b[:32])
	}
	d := xxhash.New()
	d.Write(b[:32])
	d.Write(b[40:HeaderSize])
	return d.Sum64()
}

func (h Header) encode() []byte {
	b := make([]byte, HeaderSize)
	copy(b, Magic)
	binary.LittleEndian.PutUint16(b[8:], uint16(h.Version))
	b[10] = byte(h.Variant.Rule)
	b[11] = byte(h.Variant.Pits)
	binary.LittleEndian.PutUint16(b[12:], uint16(h.Seeds))
	binary.LittleEndian.PutUint16(b[14:], uint16(h.Encoding))
	binary.LittleEndian.PutUint64(b[16:], uint64(h.Entries))
	binary.LittleEndian.PutUint64(b[24:], h.Checksum)
	if h.Version >= 2 {
		binary.LittleEndian.PutUint64(b[40:], uint64(h.Exceptions))
	}
	binary.LittleEndian.PutUint64(b[32:], headerSum(b, h.Version))
	return b
}

// decodeHeader checks the magic, the version and the header checksum and
// decodes.
func decodeHeader(b []byte) (Header, error) {
	if string(b[:8]) != Magic {
		return Header{}, fmt.Errorf("%w: bad magic %q (not a kalah endgame database file)", ErrCorrupt, b[:8])
	}
	v := int(binary.LittleEndian.Uint16(b[8:]))
	if v < 1 || v > FormatVersion {
		return Header{}, fmt.Errorf("%w: format version %d, this build reads versions 1..%d", ErrMismatch, v, FormatVersion)
	}
	if got, want := headerSum(b, v), binary.LittleEndian.Uint64(b[32:]); got != want {
		return Header{}, fmt.Errorf("%w: header checksum mismatch (%016x, header says %016x)", ErrCorrupt, got, want)
	}
	h := Header{
		Version:  v,
		Variant:  engine.Variant{Pits: int(b[11]), Rule: engine.Rule(b[10])},
		Seeds:    int(binary.LittleEndian.Uint16(b[12:])),
		Encoding: int(binary.LittleEndian.Uint16(b[14:])),
		Entries:  int64(binary.LittleEndian.Uint64(b[16:])),
		Checksum: binary.LittleEndian.Uint64(b[24:]),
	}
	if v >= 2 {
		h.Exceptions = int64(binary.LittleEndian.Uint64(b[40:]))
	}
	return h, nil
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
// what is wanted, the file's size and the payload's checksum, and maps the
// payload. The returned function unmaps it. A missing file is an
// fs.ErrNotExist error.
func loadSlice(path string, rules engine.Variant, s int, entries int64) (table, func() error, error) {
	t, unmap, _, err := openSlice(path, rules, s, entries, nil)
	return t, unmap, err
}

// openSlice is loadSlice for Open: known, when not nil, is what an
// earlier Open recorded of the file when it checked it in full
// (checked.go); a file that still matches it keeps its header and size
// checks but skips the payload's. It returns the file's record to keep:
// nil when the file is too new to be remembered (racyWindow) or cannot
// be (no inode numbers), or has nothing to check.
func openSlice(path string, rules engine.Variant, s int, entries int64, known *checked) (table, func() error, *checked, error) {
	fail := func(format string, a ...any) (table, func() error, *checked, error) {
		return table{}, nil, nil, fmt.Errorf("%s: "+format, append([]any{path}, a...)...)
	}
	f, err := os.Open(path)
	if err != nil {
		return table{}, nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return table{}, nil, nil, err
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
	if h.Variant != rules || h.Seeds != s {
		return fail("%w: holds slice %d of %v, want slice %d of %v", ErrMismatch, h.Seeds, h.Variant, s, rules)
	}
	if h.Encoding != EncodingGainByte && h.Encoding != EncodingPacked || versionOf(h.Encoding) != h.Version {
		return fail("%w: unknown encoding %d in a version %d file", ErrMismatch, h.Encoding, h.Version)
	}
	if h.Entries != entries {
		return fail("%w: header says %d entries, slice %d of %d pits has %d", ErrMismatch, h.Entries, s, rules.Pits, entries)
	}
	t := table{packed: h.Encoding == EncodingPacked, n: entries}
	nl, nd := packedLayout(entries)
	want := HeaderSize + entries
	if t.packed {
		if h.Exceptions < 0 || h.Exceptions > entries {
			return fail("%w: header says %d exceptions for %d entries", ErrCorrupt, h.Exceptions, entries)
		}
		want = HeaderSize + lineSize*nl + excSize*h.Exceptions + 8*nd
	}
	if st.Size() < want {
		return fail("%w: truncated: %d bytes, want %d", ErrCorrupt, st.Size(), want)
	} else if st.Size() > want {
		return fail("%w: %d bytes past the %d the header accounts for", ErrCorrupt, st.Size()-want, want)
	}
	if want == HeaderSize {
		return byteTable([]byte{}), func() error { return nil }, nil, nil
	}
	data, unmap, err := mapFile(f, st.Size())
	if err != nil {
		return fail("mapping: %w", err)
	}
	stamp, stamped := stampOf(st, h.Checksum)
	trusted := stamped && known != nil && *known == stamp
	var rec *checked
	if stamped && (trusted || time.Since(st.ModTime()) >= racyWindow) {
		rec = &stamp
	}
	payload := data[HeaderSize:]
	if trusted {
		// What the checks' reading did for the search, in the background.
		stop := populateAsync(data)
		unmapOnly := unmap
		unmap = func() error {
			stop()
			return unmapOnly()
		}
	} else {
		if got := xxhash.Sum64(payload); got != h.Checksum {
			unmap()
			return fail("%w: payload checksum mismatch (%016x, header says %016x)", ErrCorrupt, got, h.Checksum)
		}
	}
	if !t.packed {
		return byteTable(payload), unmap, rec, nil
	}
	t.raw = payload[:lineSize*nl]
	t.exc = payload[lineSize*nl : lineSize*nl+excSize*h.Exceptions]
	t.dir = payload[lineSize*nl+excSize*h.Exceptions:]
	if !trusted {
		if err := t.checkPacked(s); err != nil {
			unmap()
			return fail("%w: %v", ErrCorrupt, err)
		}
	}
	return t, unmap, rec, nil
}

// writeSlice writes a slice file atomically (package outfile): to a
// temporary file in the same directory, synced, then renamed over path. An
// interrupted write leaves no file under the final name. The written file
// then leaves the page cache (dropCache), so that its first reader maps it
// in huge pages.
func writeSlice(path string, rules engine.Variant, s int, t table) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	enc := EncodingGainByte
	if t.packed {
		enc = EncodingPacked
	}
	parts := [][]byte{t.raw, t.exc, t.dir}
	d := xxhash.New()
	for _, p := range parts {
		d.Write(p)
	}
	h := Header{Version: versionOf(enc), Variant: rules, Seeds: s, Encoding: enc,
		Entries: t.n, Checksum: d.Sum64(), Exceptions: t.exceptions()}
	err := outfile.Write(path, func(w io.Writer) error {
		if _, err := w.Write(h.encode()); err != nil {
			return err
		}
		for _, p := range parts {
			if _, err := w.Write(p); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		dropCache(path)
	}
	return err
}

// writeBatch is the most lines writeSliceFrom packs at a time (16 MiB of
// lines, 33 M positions).
const writeBatch = 1 << 18

// writeSliceFrom writes the file of slice s, whose n entries of one byte
// each read fills in (read(p, r): the entries of ranks r.. into p), in
// the encoding enc, atomically as writeSlice does, and with the same
// bytes as writeSlice's of the same entries. It packs and writes batch
// lines at a time (at most writeBatch) and fills the header in last, so
// that it holds a batch of entries, their lines and the exception list,
// not the slice.
func writeSliceFrom(path string, rules engine.Variant, s int, n int64, enc int, batch int64, read func(p []byte, r int64) error) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := outfile.Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	d := xxhash.New()
	write := func(p []byte) error {
		d.Write(p)
		_, err := f.Write(p)
		return err
	}
	if err := write(make([]byte, HeaderSize)); err != nil {
		return err
	}
	d.Reset()
	h := Header{Version: versionOf(enc), Variant: rules, Seeds: s, Encoding: enc, Entries: n}
	src := make([]byte, min(n, min(max(batch, 1), writeBatch)*perLine))
	if enc == EncodingGainByte {
		for r := int64(0); r < n; r += int64(len(src)) {
			p := src[:min(int64(len(src)), n-r)]
			if err := read(p, r); err != nil {
				return err
			}
			if err := write(p); err != nil {
				return err
			}
		}
	} else {
		_, nd := packedLayout(n)
		e := excList{exc: []byte{}, dir: make([]byte, 8*nd)}
		lines := make([]byte, (int64(len(src))+perLine-1)/perLine*lineSize)
		for r := int64(0); r < n; r += int64(len(src)) {
			p := src[:min(int64(len(src)), n-r)]
			if err := read(p, r); err != nil {
				return err
			}
			l := lines[:(int64(len(p))+perLine-1)/perLine*lineSize]
			e.add(packLines(l, p, r))
			if err := write(l); err != nil {
				return err
			}
		}
		e.finish()
		if err := write(e.exc); err != nil {
			return err
		}
		if err := write(e.dir); err != nil {
			return err
		}
		h.Exceptions = int64(len(e.exc) / excSize)
	}
	h.Checksum = d.Sum64()
	if _, err := f.WriteAt(h.encode(), 0); err != nil {
		return err
	}
	if err := f.Commit(); err != nil {
		return err
	}
	dropCache(path)
	return nil
}
