//go:build !race

package tt

// storeSlot writes one table word. Entries are single words that carry
// their own tag, so a reader sees either the old or the new entry, never a
// mix (the Go memory model guarantees that much for racy word-sized
// accesses), and no ordering with other memory is needed: a plain store
// does. atomic.StoreUint64 would be an XCHG on amd64, a full barrier that
// waits for the bucket's cache line; in the search's Put that cost about a
// fifth of the time (docs/algorithms.md). Builds with the race detector
// use the atomic store (slot_race.go), so that the detector stays quiet
// about these intended races and keeps watching everything else.
func storeSlot(p *uint64, v uint64) { *p = v }
