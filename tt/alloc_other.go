//go:build !linux

package tt

func allocSlots(n int) ([]uint64, []byte) { return make([]uint64, n), nil }

func freeSlots([]byte) {}
