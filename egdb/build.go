package egdb

// This is the package's hot file: the value recurrence and the parallel
// build of one slice.
//
// The value of a slice-s position is g, the number of its s seeds that the
// mover banks from here to the end under perfect play (the search's value
// is 2g-s). A move that banks k seeds (the increase of the mover's store,
// sweep included) is worth
//
//	game over:   k
//	extra turn:  k + g(child)                  child in slice s-k, k >= 1
//	turn passes: k + (s-k) - g(flipped child)  child in slice s-k
//
// and g is the best move's worth. A move that banks nothing only moves
// seeds forward on the mover's side, so its child is in the same slice with
// a strictly larger potential (sum over both sides of pit index x seeds):
// dependencies inside a slice form no cycle. Threads take chunks of ranks
// in order; a position found not yet computed (0xFF) is computed by
// recursion into its same-slice children, which may belong to another
// thread's chunk. The slice under construction is therefore shared: every
// access to it is an atomic operation on the 32-bit word holding the byte,
// and a value is published with one atomic AND (0xFF & v = v), so two
// threads that compute the same position write the same byte harmlessly.
// Lower slices are complete before the slice starts and only read. The
// same code builds a whole slice (buildSlice) or one part of it, a set of
// sub-slices closed under same-slice moves (runSpans, parts.go).

import (
	"context"
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/internal/prefetch"
	"golang.org/x/sync/errgroup"
)

// unknown marks an entry not yet computed during a build.
const unknown = 0xFF

// chunk is the number of ranks a thread takes at a time.
const chunk = 1 << 15

// byteShift[i] is the shift of byte i of a uint32 in memory order.
var byteShift = func() (sh [4]uint) {
	w := uint32(0x03020100)
	b := (*[4]byte)(unsafe.Pointer(&w))
	for i := range 4 {
		sh[i] = 8 * uint(b[i])
	}
	return
}()

// slicer computes one slice from the complete slices below it.
type slicer struct {
	rules engine.Variant
	x     *Index
	lower []table  // slices 0..s-1, read-only
	cur   []uint32 // slice s, 4 entries a word, accessed atomically
	s     int
	row   row // the row run is in
	rrow  row // the row of the position a recursion values
}

// value computes g for the slice-s position (own, opp). Every move is sown
// and its child ranked first, the child's line prefetched (sowRow), and
// only then are the children read (best): their cache misses overlap
// instead of coming one after the other. run does the same for a batch of
// positions at a time.
func (w *slicer) value(own, opp uint64) int {
	var kids [engine.MaxPits]kid
	n := w.sowRow(&w.rrow, own, opp, w.x.rankSide(opp*ones), &kids)
	return w.best(&kids, n)
}

// sowMove sows pit i of b into kd, ranks the child and prefetches its line.
func (w *slicer) sowMove(b engine.Board, i int, kd *kid) {
	c, res := w.rules.Sow(b, i)
	*kd = kid{res: res, k: int(c.OwnStore)}
	switch {
	case res&engine.ResOver != 0:
	case res&engine.ResExtra != 0:
		kd.r, kd.s2 = w.x.Rank(c.Own, c.Opp)
		w.lower[kd.s2].prefetch(kd.r)
	case kd.k == 0:
		kd.own, kd.opp = c.Opp, c.Own
		kd.r, kd.s2 = w.x.Rank(c.Opp, c.Own)
		prefetch.Line((*byte)(unsafe.Pointer(&w.cur[kd.r>>2])))
	default:
		kd.r, kd.s2 = w.x.Rank(c.Opp, c.Own)
		w.lower[kd.s2].prefetch(kd.r)
	}
}

// best reads the children sown by sowRow and returns the best move's worth.
func (w *slicer) best(kids *[engine.MaxPits]kid, n int) int {
	s := w.s
	best := 0
	for i := range n {
		kd := &kids[i]
		g := kd.k
		switch {
		case kd.res&engine.ResOver != 0:
		case kd.res&engine.ResExtra != 0:
			g = engine.MoveGain(kd.res, kd.k, kd.s2, w.lower[kd.s2].at(kd.r))
		case kd.k == 0:
			g = engine.MoveGain(kd.res, 0, s, w.same(kd.r, kd.own, kd.opp))
		default:
			g = engine.MoveGain(kd.res, kd.k, kd.s2, w.lower[kd.s2].at(kd.r))
		}
		if g > best {
			best = g
			if g == s {
				break
			}
		}
	}
	return best
}

// kid is one move of a position being valued: what the move banked (k),
// its result, and where its child's entry is (rank r in slice s2; own and
// opp, the child, when it is in the slice being built).
type kid struct {
	res      engine.Result
	k, s2    int
	r        int64
	own, opp uint64
}

// same returns g of the position (own, opp) of rank r in the slice being
// built, computing it first if no thread has yet.
func (w *slicer) same(r int64, own, opp uint64) int {
	p, sh := &w.cur[r>>2], byteShift[r&3]
	if v := atomic.LoadUint32(p) >> sh & 0xff; v != unknown {
		return int(v)
	}
	v := w.value(own, opp)
	atomic.AndUint32(p, ^(uint32(unknown^v) << sh))
	return v
}

// batch is the number of positions whose children run sows and
// prefetches before it reads any of them (docs/egdb.md, "Design notes").
const batch = 8

// run computes every entry of ranks [lo, hi) that is still unknown, a
// batch of positions at a time: the children of all of them are sown and
// their lines prefetched before the first is read, so that the misses of
// several positions overlap, not only those of one position's moves. A
// position of the batch that a recursion into same-slice children has
// computed meanwhile is skipped (it would get the same value).
func (w *slicer) run(lo, hi int64) {
	c := w.x.Cursor(w.s, lo, hi-lo)
	var kids [batch][engine.MaxPits]kid
	var ns [batch]int
	var rs [batch]int64
	for more := true; more; {
		m := 0
		for m < batch {
			if !c.Next() {
				more = false
				break
			}
			p, sh := &w.cur[c.Rank>>2], byteShift[c.Rank&3]
			if atomic.LoadUint32(p)>>sh&0xff != unknown {
				continue
			}
			rs[m] = c.Rank
			ns[m] = w.sowRow(&w.row, c.Own, c.Opp, c.Col, &kids[m])
			m++
		}
		for i := range m {
			p, sh := &w.cur[rs[i]>>2], byteShift[rs[i]&3]
			if atomic.LoadUint32(p)>>sh&0xff != unknown {
				continue // computed meanwhile by a recursion
			}
			v := w.best(&kids[i], ns[i])
			atomic.AndUint32(p, ^(uint32(unknown^v) << sh))
		}
	}
}

// span is the ranks [lo, hi) of the slice being built.
type span struct{ lo, hi int64 }

// buildSlice computes slice s from the complete slices lower[0..s-1] with
// the given number of threads, in memory: the slice built whole. progress,
// when set, is called (from any thread) with the number of ranks of each
// finished chunk.
func buildSlice(ctx context.Context, rules engine.Variant, x *Index, lower []table, s, threads int, progress func(int64)) ([]byte, error) {
	n := x.Size(s)
	if n == 0 {
		return []byte{}, ctx.Err()
	}
	words := make([]uint32, (n+3)/4)
	for i := range words {
		words[i] = ^uint32(0)
	}
	if err := runSpans(ctx, rules, x, lower, s, words, []span{{0, n}}, threads, progress); err != nil {
		return nil, err
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), n), nil
}

// runSpans computes the entries of the ranks spans of slice s into cur,
// the slice's words indexed by rank (cur[r>>2] holds rank r), whose
// entries in spans must be unknown and whose words elsewhere are not
// touched except where the same-slice children of spans lie: the spans
// must be closed under same-slice moves (the whole slice, or the
// sub-slices of a part, parts.go). Threads take chunks of the spans in
// order; progress is as for buildSlice.
func runSpans(ctx context.Context, rules engine.Variant, x *Index, lower []table, s int, cur []uint32, spans []span, threads int, progress func(int64)) error {
	// first[i] is the number of chunks before span i.
	first := make([]int64, len(spans)+1)
	for i, sp := range spans {
		first[i+1] = first[i] + (sp.hi-sp.lo+chunk-1)/chunk
	}
	chunks := first[len(spans)]
	if threads < 1 {
		threads = runtime.GOMAXPROCS(0)
	}
	var next atomic.Int64
	g, ctx := errgroup.WithContext(ctx)
	for range threads {
		w := &slicer{rules: rules, x: x, lower: lower, cur: cur, s: s}
		g.Go(func() error {
			i := 0
			for {
				c := next.Add(1) - 1
				if c >= chunks {
					return nil
				}
				if err := ctx.Err(); err != nil {
					return err
				}
				for first[i+1] <= c {
					i++
				}
				lo := spans[i].lo + (c-first[i])*chunk
				hi := min(lo+chunk, spans[i].hi)
				w.run(lo, hi)
				if progress != nil {
					progress(hi - lo)
				}
			}
		})
	}
	return g.Wait()
}

// fillUnknown sets the entries of spans in words to unknown, byte by byte
// (a span's first and last words may hold entries of ranks outside it).
func fillUnknown(words []uint32, spans []span) {
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), 4*len(words))
	for _, sp := range spans {
		p := b[sp.lo:sp.hi]
		if len(p) == 0 {
			continue
		}
		p[0] = unknown
		for k := 1; k < len(p); k *= 2 {
			copy(p[k:], p[:k])
		}
	}
}
