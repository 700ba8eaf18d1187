//go:build !amd64 && !arm64

package tt

// prefetch is a no-op where no prefetch instruction is wired up; the
// search then waits for each bucket when it probes it.
func prefetch(p *uint64) {}
