package persist

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/dgraph-io/badger/v4"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/tt"
)

// The cache's key space (docs/formats.md, on the cache). Every key
// starts with a kind byte that is also the record format's version, then
// the rule and the pit count, so that one rule's records are one prefix to
// scan or delete:
//
//	header  [0x00] "kalah-cache"                          value [cacheFormat]
//	entry   [0x01][rule][pits][Own, 8 bytes BE][Opp, 8 bytes BE]
//	        value: [lower int16 BE][upper int16 BE][move][work] (entryLen bytes)
//	root    [0x02][rule][pits][Own][Opp][OwnStore][OppStore][side to move]
//	        value: a JSON document, the whole answer of a solved position
//
// Own and Opp are the board's pit words (engine.Board), the side to move
// first; an entry's value is relative to the stores, which are not in its
// key. A cache whose header key is the older "kalah-store" opens as well:
// its header is rewritten under "kalah-cache" when it is first opened.
const (
	kindHeader = 0x00
	kindEntry  = 0x01
	kindRoot   = 0x02

	cacheFormat = 2

	entryKeyLen = 19
	rootKeyLen  = 22
	entryLen    = 6
)

var (
	headerKey    = append([]byte{kindHeader}, "kalah-cache"...)
	oldHeaderKey = append([]byte{kindHeader}, "kalah-store"...)
)

func rulePrefix(kind byte, r engine.Variant) []byte {
	return []byte{kind, byte(r.Rule), byte(r.Pits)}
}

func entryKey(r engine.Variant, k engine.Key) [entryKeyLen]byte {
	var b [entryKeyLen]byte
	b[0], b[1], b[2] = kindEntry, byte(r.Rule), byte(r.Pits)
	binary.BigEndian.PutUint64(b[3:], k.Own)
	binary.BigEndian.PutUint64(b[11:], k.Opp)
	return b
}

// parseEntryKey reads an entry key back; ok is false for another kind.
func parseEntryKey(b []byte) (r engine.Variant, k engine.Key, ok bool) {
	if len(b) != entryKeyLen || b[0] != kindEntry {
		return r, k, false
	}
	r = engine.Variant{Pits: int(b[2]), Rule: engine.Rule(b[1])}
	k = engine.Key{Own: binary.BigEndian.Uint64(b[3:]), Opp: binary.BigEndian.Uint64(b[11:])}
	return r, k, r.Validate() == nil
}

func encodeEntry(e tt.Entry) [entryLen]byte {
	var b [entryLen]byte
	binary.BigEndian.PutUint16(b[0:], uint16(int16(e.Lower())))
	binary.BigEndian.PutUint16(b[2:], uint16(int16(e.Upper())))
	b[4], b[5] = byte(e.Move()), byte(e.Work())
	return b
}

// decodeEntry reads an entry record, refusing one that no cache writes.
func decodeEntry(v []byte, pits int) (tt.Entry, bool) {
	if len(v) != entryLen {
		return 0, false
	}
	lo := int(int16(binary.BigEndian.Uint16(v)))
	hi := int(int16(binary.BigEndian.Uint16(v[2:])))
	move, work := int(v[4]), int(v[5])
	okLo := lo == tt.NoLower || (lo >= -engine.MaxSeeds && lo <= engine.MaxSeeds)
	okHi := hi == tt.NoUpper || (hi >= -engine.MaxSeeds && hi <= engine.MaxSeeds)
	if !okLo || !okHi || (lo == tt.NoLower && hi == tt.NoUpper) || lo > hi || move >= pits || work > 31 {
		return 0, false
	}
	return tt.MakeEntry(lo, hi, move, tt.DepthSolved, work), true
}

func rootKey(r engine.Variant, p engine.Position) [rootKeyLen]byte {
	var b [rootKeyLen]byte
	b[0], b[1], b[2] = kindRoot, byte(r.Rule), byte(r.Pits)
	binary.BigEndian.PutUint64(b[3:], p.Board.Own)
	binary.BigEndian.PutUint64(b[11:], p.Board.Opp)
	b[19], b[20], b[21] = p.Board.OwnStore, p.Board.OppStore, byte(p.ToMove)
	return b
}

// checkHeader accepts a cache written by this format, writes the header
// into an empty database (and under its current key into a cache that has
// it under the older one), and refuses anything else.
func checkHeader(db *badger.DB, dir string) error {
	var version []byte
	empty, old := true, false
	err := db.View(func(txn *badger.Txn) error {
		for _, k := range [][]byte{headerKey, oldHeaderKey} {
			item, err := txn.Get(k)
			if err == nil {
				old = bytes.Equal(k, oldHeaderKey)
				version, err = item.ValueCopy(nil)
				return err
			}
			if !errors.Is(err, badger.ErrKeyNotFound) {
				return err
			}
		}
		it := txn.NewIterator(badger.IteratorOptions{PrefetchValues: false})
		defer it.Close()
		it.Rewind()
		empty = !it.Valid()
		return nil
	})
	switch {
	case err != nil:
		return fmt.Errorf("cache %s cannot be read, %w or damaged: %v", dir, ErrNotCache, err)
	case version != nil:
		if len(version) != 1 || version[0] != cacheFormat {
			return fmt.Errorf("cache %s has format %v; this kalah reads format %d: %w", dir, version, cacheFormat, ErrNotCache)
		}
		if old {
			// A cache that cannot be written (read-only) keeps the older
			// key, which reads as well, until it is next opened writable.
			_ = db.Update(func(txn *badger.Txn) error {
				if err := txn.Set(headerKey, []byte{cacheFormat}); err != nil {
					return err
				}
				return txn.Delete(oldHeaderKey)
			})
		}
		return nil
	case !empty:
		return fmt.Errorf("cache %s is a BadgerDB database without a kalah header: %w", dir, ErrNotCache)
	}
	return db.Update(func(txn *badger.Txn) error { return txn.Set(headerKey, []byte{cacheFormat}) })
}

// GetRoot returns the root record saved for p under the cache's rules:
// the whole answer of an earlier solve, as PutRoot saved it.
func (s *Cache) GetRoot(p engine.Position) ([]byte, bool) {
	if s.rules.Pits == 0 {
		return nil, false
	}
	return s.GetRootOf(s.rules, p)
}

// GetRootOf returns the root record saved for p under rules r, which need
// not be the cache's: the root records of every rule and pit count share
// the directory. It is safe for concurrent use, with Get and Put too.
func (s *Cache) GetRootOf(r engine.Variant, p engine.Position) ([]byte, bool) {
	if r.Pits < 1 || p.Pits != r.Pits || s.closed.Load() {
		return nil, false
	}
	key := rootKey(r, p)
	var v []byte
	_ = s.db.View(func(txn *badger.Txn) error {
		item, err := txn.Get(key[:])
		if err != nil {
			return nil
		}
		v, err = item.ValueCopy(nil)
		return err
	})
	return v, v != nil
}

// PutRoot saves the answer of a solved position, synchronously (it is
// written once per solve).
func (s *Cache) PutRoot(p engine.Position, answer []byte) error {
	if s.rules.Pits == 0 || p.Pits != s.rules.Pits {
		return fmt.Errorf("cache: root record for %d pits in a cache opened for %s", p.Pits, rulesName(s.rules))
	}
	key := rootKey(s.rules, p)
	if err := s.db.Update(func(txn *badger.Txn) error { return txn.Set(key[:], answer) }); err != nil {
		return fmt.Errorf("cache %s: %w", s.dir, err)
	}
	return nil
}
