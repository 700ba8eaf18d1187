// Package prefetch starts loading a cache line without waiting for it:
// the transposition table (tt) prefetches a child's bucket, and the
// endgame database (egdb) a child's line, as soon as the search has sown
// the child, so that the memory latency of several children overlaps
// (docs/algorithms.md, "Memory").
package prefetch
