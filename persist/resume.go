package persist

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	"github.com/dgraph-io/badger/v4"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/tt"
)

// Resume records: checkpoints of the table during one long solve, so that
// a solve killed outright (SIGKILL, a crash, a power cut) resumes with most
// of what the table knew, not only the few entries the search hands the
// store (Put, at least 2^MinWork nodes and MinSeeds seeds). Measured on
// Kalah(6,4) (docs/benchmarks.md, "Persistent store"): a root move's
// search leans on the table the earlier moves filled, mostly at boards of
// fewer seeds than MinSeeds, and without it the rest of a solve killed at
// half-way cost 1.7 times what it cost in the uninterrupted solve.
//
// A checkpoint is every proven table entry worth keeping, written under the
// root position of the solve, packed many to a record (BadgerDB writes a
// few large values far faster than many small ones: a checkpoint of
// Kalah(6,4) holds millions of entries):
//
//	resume head   [0x03][rule][pits][root, 19 bytes as in a root key]
//	              value: a JSON ResumeInfo
//	resume chunk  [0x03][rule][pits][root][generation, 4 bytes][chunk, 4 bytes]
//	              value: up to checkpointChunk records of resumeRecLen bytes,
//	              [Own, 8 bytes][Opp, 8 bytes][an entry record, entryLen bytes]
//
// so that one solve's records are one prefix. Every checkpoint has a new
// generation: its chunks are written first, then the head naming it, and
// only then are the chunks of other generations deleted, so that a process
// killed at any moment leaves a head whose chunks are all there. Resume
// reads the head's generation back before the solve is resumed, and
// DropResume deletes the prefix when the solve finishes. The entries are
// proven bounds, true whatever the root; Resume still checks each one (a
// board of the store's pit count with no more seeds than the root, a record
// that decodes) before handing it on.
const (
	kindResume        = 0x03
	resumeChunkKeyLen = rootKeyLen + 8
	resumeRecLen      = 16 + entryLen
	checkpointChunk   = 4096
)

// ResumeInfo is the head of a solve's resume records: what the last
// checkpoint saved.
type ResumeInfo struct {
	Generation  uint32  `json:"generation"`  // of its chunks
	Entries     int64   `json:"entries"`     // entries it holds
	Checkpoints int     `json:"checkpoints"` // checkpoints so far, over every run of the solve
	Nodes       int64   `json:"nodes"`       // nodes searched up to it, over every run of the solve
	Seconds     float64 `json:"seconds"`     // and their time
	Time        string  `json:"time"`        // when it was written (UTC, RFC 3339)
}

func resumeHead(r engine.Rules, p engine.Position) [rootKeyLen]byte {
	k := rootKey(r, p)
	k[0] = kindResume
	return k
}

func resumeChunkKey(head [rootKeyLen]byte, gen, chunk uint32) []byte {
	b := make([]byte, resumeChunkKeyLen)
	copy(b, head[:])
	binary.BigEndian.PutUint32(b[rootKeyLen:], gen)
	binary.BigEndian.PutUint32(b[rootKeyLen+4:], chunk)
	return b
}

// ckptJob is one piece of work for the writer: a chunk of a checkpoint
// (key, val), the head that ends a checkpoint (info; the chunks of other
// generations are then deleted), or the deletion of every record under head
// (drop). reply, if not nil, gets the result once all is committed.
type ckptJob struct {
	head  [rootKeyLen]byte
	key   []byte
	val   []byte
	gen   uint32
	info  []byte
	drop  bool
	reply chan error
}

// Checkpoint is one checkpoint being written: Add the entries, then
// Close. It hands the entries to the store's writer goroutine a chunk at a
// time and waits for it, so it must never be used by the search itself,
// only by a goroutine beside it.
type Checkpoint struct {
	s     *Cache
	head  [rootKeyLen]byte
	gen   uint32
	chunk uint32
	buf   []byte
	n     int64
	dead  bool // the store closed under it
}

// NewCheckpoint starts a checkpoint of the solve of root with generation
// gen, which must differ from that of the checkpoint it replaces (the
// last one's, as Resume reads it, plus one).
func (s *Cache) NewCheckpoint(root engine.Position, gen uint32) *Checkpoint {
	return &Checkpoint{s: s, head: resumeHead(s.rules, root), gen: gen}
}

// Add adds one entry; entries that are not proven are skipped. It blocks
// while the writer is busy with the previous chunk.
func (c *Checkpoint) Add(k engine.Key, e tt.Entry) {
	if !e.Solved() || e.Bound() == tt.BoundNone || c.dead {
		return
	}
	if c.buf == nil {
		c.buf = make([]byte, 0, checkpointChunk*resumeRecLen)
	}
	c.buf = binary.BigEndian.AppendUint64(c.buf, k.Own)
	c.buf = binary.BigEndian.AppendUint64(c.buf, k.Opp)
	v := encodeEntry(e)
	c.buf = append(c.buf, v[:]...)
	c.n++
	if len(c.buf) == cap(c.buf) {
		c.flushChunk()
	}
}

func (c *Checkpoint) flushChunk() {
	if len(c.buf) == 0 {
		return
	}
	c.dead = !c.s.sendJob(ckptJob{key: resumeChunkKey(c.head, c.gen, c.chunk), val: c.buf})
	c.chunk++
	c.buf = nil
}

func (s *Cache) sendJob(j ckptJob) bool {
	if s.closed.Load() {
		return false
	}
	select {
	case s.ckpt <- j:
		return true
	case <-s.done:
		return false
	}
}

// Close writes the rest and the head, with info (Generation, Entries and
// Time are filled in), waits until the checkpoint is committed and the
// older generations deleted, and returns the number of entries written.
func (c *Checkpoint) Close(info ResumeInfo) (int64, error) {
	c.flushChunk()
	info.Generation, info.Entries = c.gen, c.n
	info.Time = time.Now().UTC().Format(time.RFC3339)
	b, err := json.Marshal(info)
	if err != nil {
		return 0, err
	}
	reply := make(chan error, 1)
	if c.dead || !c.s.sendJob(ckptJob{head: c.head, gen: c.gen, info: b, reply: reply}) {
		return 0, fmt.Errorf("store %s: closed during a checkpoint", c.s.dir)
	}
	return c.n, <-reply
}

// Resume reads the resume records of root: the head of the last checkpoint
// and, through f, every entry of its generation that holds up (an entry
// record that decodes, for a board of the store's pits with at most the
// root's seeds and seeds on both sides). ok is false when there is no
// checkpoint of root.
func (s *Cache) Resume(root engine.Position, f func(k engine.Key, e tt.Entry)) (info ResumeInfo, ok bool, err error) {
	if s.rules.Pits == 0 || root.Pits != s.rules.Pits {
		return info, false, nil
	}
	head := resumeHead(s.rules, root)
	maxSeeds := root.Board.Seeds()
	var high uint64 // lanes at or above the pit count
	if s.rules.Pits < 8 {
		high = ^uint64(0) << (8 * uint(s.rules.Pits))
	}
	err = s.db.View(func(txn *badger.Txn) error {
		item, err := txn.Get(head[:])
		if err != nil {
			return nil // no head: no checkpoint finished
		}
		if err := item.Value(func(v []byte) error { return json.Unmarshal(v, &info) }); err != nil {
			return fmt.Errorf("resume head of %v: %w", root, err)
		}
		ok = true
		prefix := resumeChunkKey(head, info.Generation, 0)[:rootKeyLen+4]
		it := txn.NewIterator(badger.IteratorOptions{PrefetchValues: true, PrefetchSize: 16, Prefix: prefix})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			item := it.Item()
			if len(item.Key()) != resumeChunkKeyLen {
				continue
			}
			err := item.Value(func(v []byte) error {
				for ; len(v) >= resumeRecLen; v = v[resumeRecLen:] {
					k := engine.Key{Own: binary.BigEndian.Uint64(v), Opp: binary.BigEndian.Uint64(v[8:])}
					b := engine.Board{Own: k.Own, Opp: k.Opp}
					if k.Own&high != 0 || k.Opp&high != 0 || b.Seeds() > maxSeeds || b.Over() {
						continue
					}
					if e, good := decodeEntry(v[16:resumeRecLen], s.rules.Pits); good {
						f(k, e)
					}
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return info, false, fmt.Errorf("store %s: %w", s.dir, err)
	}
	return info, ok, nil
}

// DropResume deletes the resume records of root, through the writer, and
// waits until they are gone: the solve finished, and its root record says
// more than any checkpoint.
func (s *Cache) DropResume(root engine.Position) error {
	if s.rules.Pits == 0 || root.Pits != s.rules.Pits {
		return nil
	}
	reply := make(chan error, 1)
	if !s.sendJob(ckptJob{head: resumeHead(s.rules, root), drop: true, reply: reply}) {
		return s.writeErr()
	}
	return <-reply
}

// resumeKeys lists the keys under head that keep should delete, in key
// order: the head, when it is one of them, comes first (it is the others'
// prefix), so a process killed half-way through their deletion leaves no
// head, and Resume reads nothing of what is left.
func (s *Cache) resumeKeys(head [rootKeyLen]byte, del func(key []byte) bool) ([][]byte, error) {
	var keys [][]byte
	err := s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{PrefetchValues: false, Prefix: head[:]})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			if k := it.Item().Key(); del(k) {
				keys = append(keys, it.Item().KeyCopy(nil))
			}
		}
		return nil
	})
	return keys, err
}

// chunkGen is the generation of a resume chunk's key, ok false for a head.
func chunkGen(key []byte) (uint32, bool) {
	if len(key) != resumeChunkKeyLen {
		return 0, false
	}
	return binary.BigEndian.Uint32(key[rootKeyLen:]), true
}
