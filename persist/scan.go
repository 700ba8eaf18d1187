package persist

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/dgraph-io/badger/v4"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/tt"
)

// CacheCount is what the cache holds for one rule and pit count.
type CacheCount struct {
	Variant engine.Variant
	Entries int64 // proven entries
	Roots   int64 // root records (solved positions)
	Resume  int64 // checkpoints of unfinished solves (resume.go)
}

// Stats describes a whole cache.
type Stats struct {
	Counts    []CacheCount // by pits, then rule
	LSMBytes  int64        // BadgerDB's own estimate of its tables
	VlogBytes int64        // and of its value log
	DiskBytes int64        // space the directory's files take on disk
}

// Stats counts the cache's records by rule and pit count (a scan of the
// keys) and measures the directory.
func (s *Cache) Stats() (Stats, error) {
	var st Stats
	counts := map[[2]byte]*CacheCount{}
	err := s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{PrefetchValues: false})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			k := it.Item().Key()
			if len(k) < 3 || (k[0] != kindEntry && k[0] != kindRoot) {
				continue
			}
			c := counts[[2]byte{k[1], k[2]}]
			if c == nil {
				c = &CacheCount{Variant: engine.Variant{Pits: int(k[2]), Rule: engine.Rule(k[1])}}
				counts[[2]byte{k[1], k[2]}] = c
			}
			if k[0] == kindEntry {
				c.Entries++
			} else {
				c.Roots++
			}
		}
		return nil
	})
	if err != nil {
		return st, fmt.Errorf("cache %s: %w", s.dir, err)
	}
	ckpts, _ := os.ReadDir(filepath.Join(s.dir, resumeDir))
	for _, f := range ckpts {
		_, r, ok := checkpointKey(f.Name())
		if !ok {
			continue
		}
		c := counts[[2]byte{byte(r.Rule), byte(r.Pits)}]
		if c == nil {
			c = &CacheCount{Variant: r}
			counts[[2]byte{byte(r.Rule), byte(r.Pits)}] = c
		}
		c.Resume++
	}
	for _, c := range counts {
		st.Counts = append(st.Counts, *c)
	}
	slices.SortFunc(st.Counts, func(a, b CacheCount) int {
		if a.Variant.Pits != b.Variant.Pits {
			return a.Variant.Pits - b.Variant.Pits
		}
		return int(a.Variant.Rule) - int(b.Variant.Rule)
	})
	st.LSMBytes, st.VlogBytes = s.db.Size()
	err = filepath.WalkDir(s.dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if info, err := d.Info(); err == nil && !d.IsDir() {
			st.DiskBytes += diskBytes(info)
		}
		return nil
	})
	return st, err
}

// Range calls f for every proven entry of rules (every rule and pit count
// when rules is nil), in key order, until f returns an error.
func (s *Cache) Range(rules *engine.Variant, f func(r engine.Variant, k engine.Key, e tt.Entry) error) error {
	prefix := []byte{kindEntry}
	if rules != nil {
		prefix = rulePrefix(kindEntry, *rules)
	}
	return s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{PrefetchValues: true, PrefetchSize: 256, Prefix: prefix})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			item := it.Item()
			r, k, ok := parseEntryKey(item.Key())
			if !ok {
				continue
			}
			var e tt.Entry
			err := item.Value(func(v []byte) error {
				e, ok = decodeEntry(v, r.Pits)
				return nil
			})
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			if err := f(r, k, e); err != nil {
				return err
			}
		}
		return nil
	})
}

// GC commits the queue, merges the cache's tables into one level
// (BadgerDB's Flatten) and rewrites value-log files that are mostly
// garbage. It returns the number of value-log files rewritten.
func (s *Cache) GC() (int, error) {
	if err := s.Flush(); err != nil {
		return 0, err
	}
	if err := s.db.Flatten(2); err != nil {
		return 0, fmt.Errorf("cache %s: flatten: %w", s.dir, err)
	}
	n := 0
	for {
		err := s.db.RunValueLogGC(0.5)
		if err == nil {
			n++
			continue
		}
		if errors.Is(err, badger.ErrNoRewrite) || errors.Is(err, badger.ErrRejected) {
			return n, nil
		}
		return n, fmt.Errorf("cache %s: value-log GC: %w", s.dir, err)
	}
}
