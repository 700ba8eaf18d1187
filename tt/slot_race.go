//go:build race

package tt

import "sync/atomic"

// storeSlot is slot_norace.go's store, atomic so that the race detector
// accepts the table's intended races.
func storeSlot(p *uint64, v uint64) { atomic.StoreUint64(p, v) }
