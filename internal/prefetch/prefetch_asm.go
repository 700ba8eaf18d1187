//go:build amd64 || arm64

package prefetch

// Line starts loading the cache line at p and returns at once: unlike
// a load, the instruction retires without waiting for memory, so the
// processor goes on with other work while the line comes in.
//
//go:noescape
func Line(p *byte)
