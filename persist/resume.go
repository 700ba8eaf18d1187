package persist

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/tt"
)

// Checkpoints: the table of a long solve, saved while it runs, so that a
// solve killed outright (SIGKILL, a crash, a power cut) resumes with what
// its table knew, not only with the entries the search hands the cache.
//
// Why the whole table: on Kalah(6,4) a root move's search leans on the
// entries the earlier moves left in the table, most of them cheap (a few
// nodes each) but tens of millions together. Restarted at half-way with a
// cold table, the rest of the solve cost 1.7 times what it cost in the
// uninterrupted run; with the entries that cost 2^4 nodes or more (a
// quarter of the table) 1.4 times; with all of them 1.0
// (docs/benchmarks.md, on the cache). The table's memory image is
// also the most compact form of all of them: a position is implied by its
// slot and tag, so an entry takes its 8 bytes and nothing more.
//
// A checkpoint is one file per position being solved, in the cache's
// resume/ directory, named by the root position's key (the root record's
// key with kind 0x03, in hex), written whole to a temporary file and
// renamed over the previous one, so that a process killed at any moment
// leaves the previous checkpoint or the new one, complete. Little-endian:
//
//	offset size
//	     0   16  magic "kalah-checkpoint"
//	    16    4  checkpoint file format (checkpointFormat)
//	    20    4  table image format (tt.ImageFormat)
//	    24    1  rule
//	    25    1  pits
//	    26   19  root: the two pit words, the stores, the side to move
//	    45    3  zero
//	    48    8  table bytes
//	    56    8  checkpoints so far, over every run of the solve
//	    64    8  nodes searched up to it, over every run
//	    72    8  their seconds, a float64
//	    80    8  when it was written, Unix seconds
//	    88   40  zero
//	   128    -  the table image (tt.Table.WriteImage), table bytes long
//	     -    4  CRC-32C of everything before
//
// A checkpoint is loaded only into a table of the same pits and size, by a
// build with the same formats, for the same rule and root, after its
// checksum has been verified; anything else is refused with the reason,
// and the solve starts cold.
const (
	checkpointMagic  = "kalah-checkpoint"
	checkpointFormat = 1
	checkpointHeader = 128
	resumeDir        = "resume"
	checkpointExt    = ".ckpt"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ResumeInfo describes a checkpoint.
type ResumeInfo struct {
	TableSize   int64     // size of the table it holds
	Checkpoints int64     // checkpoints so far, over every run of the solve
	Nodes       int64     // nodes searched up to it, over every run
	Seconds     float64   // and their time
	Time        time.Time // when it was written
}

// checkpointPath is the file of root's checkpoint.
func (s *Cache) checkpointPath(root engine.Position) string {
	k := rootKey(s.rules, root)
	k[0] = kindResume
	return filepath.Join(s.dir, resumeDir, hex.EncodeToString(k[:])+checkpointExt)
}

// kindResume names checkpoint files (it is never a key's kind).
const kindResume = 0x03

func (s *Cache) header(root engine.Position, bytes int64, info ResumeInfo) []byte {
	h := make([]byte, checkpointHeader)
	copy(h, checkpointMagic)
	binary.LittleEndian.PutUint32(h[16:], checkpointFormat)
	binary.LittleEndian.PutUint32(h[20:], tt.ImageFormat)
	k := rootKey(s.rules, root)
	h[24], h[25] = k[1], k[2]
	copy(h[26:45], k[3:])
	binary.LittleEndian.PutUint64(h[48:], uint64(bytes))
	binary.LittleEndian.PutUint64(h[56:], uint64(info.Checkpoints))
	binary.LittleEndian.PutUint64(h[64:], uint64(info.Nodes))
	binary.LittleEndian.PutUint64(h[72:], math.Float64bits(info.Seconds))
	binary.LittleEndian.PutUint64(h[80:], uint64(info.Time.Unix()))
	return h
}

// SaveCheckpoint writes tab as the checkpoint of the solve of root,
// replacing the previous one, and returns the file's size. It reads the
// table with atomic loads while the search goes on, and writes the file
// itself: call it from a goroutine beside the search, never from
// the search.
func (s *Cache) SaveCheckpoint(root engine.Position, tab *tt.Table, info ResumeInfo) (int64, error) {
	if s.rules.Pits == 0 || root.Pits != s.rules.Pits || tab.Pits() != s.rules.Pits {
		return 0, fmt.Errorf("cache: checkpoint for %d pits in a cache opened for %s", root.Pits, rulesName(s.rules))
	}
	if s.closed.Load() {
		return 0, fmt.Errorf("cache %s: closed", s.dir)
	}
	path := s.checkpointPath(root)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return 0, fmt.Errorf("cache %s: %w", s.dir, err)
	}
	// The new checkpoint is written beside the old one, which it
	// replaces only when complete; a disk it would fill is left to the
	// cache's entries and the results.
	size := checkpointHeader + tab.Bytes() + 4
	if free, ok := diskFree(filepath.Dir(path)); ok && free < size+CheckpointMargin {
		return 0, fmt.Errorf("cache %s: checkpoint not written: %.1f GiB free on its disk; a checkpoint takes %.1f GiB and leaves %.1f GiB",
			s.dir, gib(free), gib(size), gib(CheckpointMargin))
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return 0, fmt.Errorf("cache %s: %w", s.dir, err)
	}
	// Not synced: a process killed outright loses nothing the kernel has
	// (the cache's own writes are not synced either), and after a power
	// cut the checksum refuses whatever did not reach the disk.
	n, err := writeCheckpoint(f, s.header(root, tab.Bytes(), info), tab)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return 0, fmt.Errorf("cache %s: checkpoint: %w", s.dir, err)
	}
	return n, nil
}

// CheckpointMargin is the space a checkpoint leaves free on its disk: a
// checkpoint that would leave less is not written.
const CheckpointMargin = 1 << 30

// diskFree is freeBytes; tests replace it.
var diskFree = freeBytes

func gib(n int64) float64 { return float64(n) / (1 << 30) }

func writeCheckpoint(f io.Writer, header []byte, tab *tt.Table) (int64, error) {
	w := &crcWriter{w: f}
	if _, err := w.Write(header); err != nil {
		return 0, err
	}
	n, err := tab.WriteImage(w)
	if err != nil {
		return 0, err
	}
	if _, err := f.Write(binary.LittleEndian.AppendUint32(nil, w.crc)); err != nil {
		return 0, err
	}
	return checkpointHeader + n + 4, nil
}

// crcWriter and crcReader pass large chunks through and keep their
// CRC-32C.
type crcWriter struct {
	w   io.Writer
	crc uint32
}

func (c *crcWriter) Write(b []byte) (int, error) {
	c.crc = crc32.Update(c.crc, castagnoli, b)
	return c.w.Write(b)
}

type crcReader struct {
	r   io.Reader
	crc uint32
}

func (c *crcReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.crc = crc32.Update(c.crc, castagnoli, b[:n])
	return n, err
}

// ErrNoCheckpoint is returned (wrapped) by LoadCheckpoint when there is no
// checkpoint of the position.
var ErrNoCheckpoint = errors.New("no checkpoint")

// LoadCheckpoint loads the checkpoint of the solve of root into tab,
// after checking that it is one: for this rule, pit count and root, made
// by this build's formats with a table of tab's size, checksum intact.
// The error names what did not hold (ErrNoCheckpoint when there is none);
// tab is then as it was, or cleared when the checksum failed after the
// image was read into it.
func (s *Cache) LoadCheckpoint(root engine.Position, tab *tt.Table) (ResumeInfo, error) {
	var info ResumeInfo
	if s.rules.Pits == 0 || root.Pits != s.rules.Pits {
		return info, ErrNoCheckpoint
	}
	f, err := os.Open(s.checkpointPath(root))
	if errors.Is(err, os.ErrNotExist) {
		return info, ErrNoCheckpoint
	}
	if err != nil {
		return info, err
	}
	defer f.Close()
	r := &crcReader{r: f}
	h := make([]byte, checkpointHeader)
	if _, err := io.ReadFull(r, h); err != nil {
		return info, fmt.Errorf("checkpoint %s: %w", f.Name(), err)
	}
	if err := s.checkHeader(h, root, tab); err != nil {
		return info, fmt.Errorf("checkpoint %s: %w", f.Name(), err)
	}
	info = ResumeInfo{
		TableSize:   int64(binary.LittleEndian.Uint64(h[48:])),
		Checkpoints: int64(binary.LittleEndian.Uint64(h[56:])),
		Nodes:       int64(binary.LittleEndian.Uint64(h[64:])),
		Seconds:     math.Float64frombits(binary.LittleEndian.Uint64(h[72:])),
		Time:        time.Unix(int64(binary.LittleEndian.Uint64(h[80:])), 0).UTC(),
	}
	if fi, err := f.Stat(); err != nil || fi.Size() != checkpointHeader+info.TableSize+4 {
		return info, fmt.Errorf("checkpoint %s: truncated", f.Name())
	}
	if err := tab.ReadImage(r); err != nil {
		return info, fmt.Errorf("checkpoint %s: %w", f.Name(), err)
	}
	sum := r.crc
	var tail [4]byte
	if _, err := io.ReadFull(f, tail[:]); err != nil || binary.LittleEndian.Uint32(tail[:]) != sum {
		tab.Clear()
		return info, fmt.Errorf("checkpoint %s: checksum mismatch, damaged", f.Name())
	}
	return info, nil
}

// checkHeader says what, if anything, makes a checkpoint's header unfit
// for resuming root in tab.
func (s *Cache) checkHeader(h []byte, root engine.Position, tab *tt.Table) error {
	if err := checkIdentity(h, rootKey(s.rules, root)); err != nil {
		return err
	}
	if int64(binary.LittleEndian.Uint64(h[48:])) != tab.Bytes() || tab.Pits() != s.rules.Pits {
		return fmt.Errorf("made with a table of %d MiB, this solve's has %d MiB (give the same --table-size to resume)", binary.LittleEndian.Uint64(h[48:])>>20, tab.Bytes()>>20)
	}
	return nil
}

// checkIdentity says what, if anything, makes h other than the header of
// a checkpoint this kalah reads of the root whose root key is k.
func checkIdentity(h []byte, k [rootKeyLen]byte) error {
	switch {
	case string(h[:16]) != checkpointMagic:
		return errors.New("not a checkpoint")
	case binary.LittleEndian.Uint32(h[16:]) != checkpointFormat || binary.LittleEndian.Uint32(h[20:]) != tt.ImageFormat:
		return fmt.Errorf("formats %d/%d; this kalah writes %d/%d", binary.LittleEndian.Uint32(h[16:]), binary.LittleEndian.Uint32(h[20:]), checkpointFormat, tt.ImageFormat)
	case h[24] != k[1] || h[25] != k[2] || string(h[26:45]) != string(k[3:]):
		return errors.New("of another rule or position")
	}
	return nil
}

// DropCheckpoint deletes the checkpoint of root, if any: the solve
// finished, and its root record says more.
func (s *Cache) DropCheckpoint(root engine.Position) error {
	if s.rules.Pits == 0 || root.Pits != s.rules.Pits {
		return nil
	}
	path := s.checkpointPath(root)
	os.Remove(path + ".tmp")
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("cache %s: %w", s.dir, err)
	}
	return nil
}

// checkpointKey reads a checkpoint file's name: the root key of its
// position (kind kindRoot) and its rule and pit count.
func checkpointKey(name string) (k [rootKeyLen]byte, r engine.Variant, ok bool) {
	b, err := hex.DecodeString(strings.TrimSuffix(name, checkpointExt))
	if !strings.HasSuffix(name, checkpointExt) || err != nil || len(b) != rootKeyLen || b[0] != kindResume {
		return k, r, false
	}
	copy(k[:], b)
	k[0] = kindRoot
	r = engine.Variant{Pits: int(b[2]), Rule: engine.Rule(b[1])}
	return k, r, r.Validate() == nil
}
