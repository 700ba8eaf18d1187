package persist

import (
	"math/bits"
	"sync/atomic"

	"github.com/dgraph-io/badger/v4"
	"github.com/kalah-solver/kalah/engine"
)

// filter is a Bloom filter of the keys the cache holds for its rules,
// kept in memory so that Get asks BadgerDB only about keys that may be
// there. Most look-ups of a search miss the cache (above all in a first
// solve, when it is nearly empty), and a BadgerDB miss costs microseconds,
// a filter miss a few cache misses. Open fills it by a scan of the
// keys; Put adds each key it queues. Bits are set and read with
// sync/atomic, so any number of goroutines may use it at once.
type filter struct {
	words []uint64
	mask  uint64 // bit count - 1, a power of two minus one
}

// filterProbes is the number of bits per key.
const filterProbes = 4

// newFilter sizes a filter for about n keys: 32 bits a key, at least 2^27
// bits (16 MiB), at most 2^33 (1 GiB). With four probes a key that is not
// there passes with a chance below 1% up to about 8 bits a key.
func newFilter(n int64) *filter {
	nb := uint64(1) << 27
	for nb < uint64(n)*32 && nb < 1<<33 {
		nb <<= 1
	}
	return &filter{words: make([]uint64, nb/64), mask: nb - 1}
}

// hashes returns two independent-looking hashes of k (double hashing).
func filterHash(k engine.Key) (uint64, uint64) {
	h := k.Own*0x9e3779b97f4a7c15 ^ bits.RotateLeft64(k.Opp*0xc2b2ae3d27d4eb4f, 31)
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h, bits.RotateLeft64(h, 32) | 1
}

func (f *filter) add(k engine.Key) {
	h1, h2 := filterHash(k)
	for i := uint64(0); i < filterProbes; i++ {
		b := (h1 + i*h2) & f.mask
		w := &f.words[b>>6]
		if m := uint64(1) << (b & 63); atomic.LoadUint64(w)&m == 0 {
			atomic.OrUint64(w, m)
		}
	}
}

func (f *filter) mayHave(k engine.Key) bool {
	h1, h2 := filterHash(k)
	for i := uint64(0); i < filterProbes; i++ {
		b := (h1 + i*h2) & f.mask
		if atomic.LoadUint64(&f.words[b>>6])&(1<<(b&63)) == 0 {
			return false
		}
	}
	return true
}

// loadFilter builds a filter of the entries of r in db, sized from the
// key count of BadgerDB's tables (every rule's, so an upper bound) plus
// room for the entries a solve adds. It returns the entries found.
func loadFilter(db *badger.DB, r engine.Variant) (*filter, int64, error) {
	var keys int64 = 1 << 22
	for _, t := range db.Tables() {
		keys += int64(t.KeyCount)
	}
	f := newFilter(keys)
	var n int64
	err := db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{PrefetchValues: false, Prefix: rulePrefix(kindEntry, r)})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			if _, k, ok := parseEntryKey(it.Item().Key()); ok {
				f.add(k)
				n++
			}
		}
		return nil
	})
	return f, n, err
}
