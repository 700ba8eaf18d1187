package persist

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/dgraph-io/badger/v4"
)

// Pruning checkpoints. A solve deletes its checkpoint when it finishes,
// but a process killed between saving the root record and deleting the
// checkpoint, a checkpoint written by an older kalah, or a write cut
// short leaves files no solve will ever load, each as large as its
// table. PruneCheckpoints ('kalah cache gc') deletes exactly those; the
// checkpoints of unfinished solves stay, however old, since they are the
// point. It reads each checkpoint's header, not its table: a checkpoint
// damaged inside its table is found, refused and replaced by the next
// solve of its position.

// Pruned counts what PruneCheckpoints did.
type Pruned struct {
	Solved     int // checkpoints of positions the cache holds a root record of
	Unreadable int // files no solve loads: another format, a header that does not match the name, the wrong size
	Partial    int // temporary files of checkpoints whose writing was cut short
	Kept       int // checkpoints of unfinished solves, left in place
}

// Removed is the number of files deleted.
func (p Pruned) Removed() int { return p.Solved + p.Unreadable + p.Partial }

// PruneCheckpoints deletes the checkpoints that no solve will load: those
// of a position solved to the end (the cache holds its root record),
// those this kalah cannot read, and the temporary files of checkpoint
// writes cut short. The cache must be the caller's alone, as it is once
// opened: no solve is writing a checkpoint meanwhile.
func (s *Cache) PruneCheckpoints() (Pruned, error) {
	var pr Pruned
	dir := filepath.Join(s.dir, resumeDir)
	files, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return pr, nil
	}
	if err != nil {
		return pr, fmt.Errorf("cache %s: %w", s.dir, err)
	}
	for _, f := range files {
		name := f.Name()
		var count *int
		switch {
		case !f.Type().IsRegular():
			continue
		case strings.HasSuffix(name, checkpointExt+".tmp"):
			count = &pr.Partial
		case !strings.HasSuffix(name, checkpointExt):
			continue // not ours
		default:
			solved, readable, err := s.checkpointState(filepath.Join(dir, name))
			switch {
			case err != nil:
				return pr, err
			case solved:
				count = &pr.Solved
			case !readable:
				count = &pr.Unreadable
			default:
				pr.Kept++
				continue
			}
		}
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return pr, fmt.Errorf("cache %s: %w", s.dir, err)
		}
		*count++
	}
	return pr, nil
}

// checkpointState reports whether the checkpoint file at path is of a
// position the cache holds a root record of, and whether this kalah can
// load it: a name that is a checkpoint's, a header that matches it, and
// the size the header implies.
func (s *Cache) checkpointState(path string) (solved, readable bool, err error) {
	k, _, ok := checkpointKey(filepath.Base(path))
	if !ok {
		return false, false, nil
	}
	err = s.db.View(func(txn *badger.Txn) error {
		_, err := txn.Get(k[:])
		if errors.Is(err, badger.ErrKeyNotFound) {
			return nil
		}
		solved = err == nil
		return err
	})
	switch {
	case err != nil:
		return false, false, fmt.Errorf("cache %s: %w", s.dir, err)
	case solved:
		return true, false, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return false, false, fmt.Errorf("cache %s: %w", s.dir, err)
	}
	defer f.Close()
	h := make([]byte, checkpointHeader)
	if _, err := io.ReadFull(f, h); err != nil || checkIdentity(h, k) != nil {
		return false, false, nil
	}
	fi, err := f.Stat()
	if err != nil {
		return false, false, fmt.Errorf("cache %s: %w", s.dir, err)
	}
	return false, fi.Size() == checkpointHeader+int64(binary.LittleEndian.Uint64(h[48:]))+4, nil
}
