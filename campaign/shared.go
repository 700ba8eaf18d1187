package campaign

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/tt"
	"github.com/nats-io/nats.go/jetstream"
)

// The shared table: proven entries of big subtrees, shared by the workers
// of a campaign through the key-value bucket kalah_table.
//
// Each unit starts in its worker's own table, which has not seen the
// subtrees its siblings searched on other workers; a transposition between
// two of them is searched twice. The worker's solver therefore gets a
// second level under its table (the solver.Cache interface, as the cache
// is for 'kalah solve'): at a table miss on a board of at
// least sharedMinSeeds seeds it looks in the shared table, and every
// proven entry whose subtree cost at least 2^sharedMinWork nodes goes into
// it. Neither waits on the network:
//
//   - Get reads a local mirror of the campaign's entries, which a watch on
//     the bucket keeps up to date (every worker's puts arrive within
//     milliseconds);
//   - Put merges the entry into the mirror and queues it for one goroutine
//     that merges it into the bucket's entry of the board (read, intersect
//     the bounds, write if unchanged meanwhile); a full queue drops it.
//
// Only full-depth (proven) entries are shared, and a bound proven by any
// worker of the campaign holds for all: every worker that serves the
// campaign has its rule (and its build and database depth, which change
// no value). Keys are <campaign>.<own pits hex>.<opp pits hex>, values the
// entry's word without its tag (tt.Entry, big-endian); a value that is not
// a proven entry within the board's seeds is ignored.

const (
	tableBucket = "kalah_table"
	// sharedMinSeeds: the shared table is looked in only at boards with
	// at least this many seeds (the top of a unit's tree, where subtrees
	// are large and transpositions between units happen).
	sharedMinSeeds = 24
	// sharedMinWork: only entries whose subtree cost at least 2^12 nodes
	// are shared: a write per 4 k nodes at most, and an entry found saves
	// at least that many.
	sharedMinWork = 12
	// sharedMaxEntries caps the entries a mirror keeps (about 40 MB at
	// most); a full mirror takes no more puts, its own or other workers'.
	sharedMaxEntries = 1 << 20
	// mirrorFilterBits: the size of a mirror's presence filter, 2 MB, 16
	// bits an entry when the mirror is full (a false positive, about 6 %
	// then, only costs the map look-up the filter saves otherwise).
	mirrorFilterBits = 1 << 24
)

// sharedTable is a worker's solver.Cache for one rule: the mirror of the
// campaign whose unit is being solved (use sets it).
type sharedTable struct {
	cur               atomic.Pointer[mirror]
	minSeeds, minWork int
}

func (s *sharedTable) use(m *mirror) { s.cur.Store(m) }

// Get looks k up in the current campaign's mirror.
func (s *sharedTable) Get(k engine.Key) (tt.Entry, bool) {
	if m := s.cur.Load(); m != nil {
		return m.get(k)
	}
	return 0, false
}

// Put shares a proven entry with the campaign's other workers.
func (s *sharedTable) Put(k engine.Key, e tt.Entry) {
	if m := s.cur.Load(); m != nil {
		m.put(k, e)
	}
}

func (s *sharedTable) MinSeeds() int { return s.minSeeds }
func (s *sharedTable) MinWork() int  { return s.minWork }

// mirror is one campaign's shared entries, as this worker knows them.
type mirror struct {
	campaign string
	pits     int
	kv       jetstream.KeyValue
	mu       sync.RWMutex
	m        map[engine.Key]tt.Entry
	// present has a bit set for every key in m (one hash, mirrorFilterBits
	// bits): get looks in m, under the lock, only when k's bit is set. A
	// worker's search asks the mirror at almost every table miss near the
	// top of its tree and almost never finds anything (a shared pool has
	// the entries in its table already), so that the read lock and the
	// map's cache misses would be a share of a campaign's CPU worth
	// avoiding without the filter (record design-cache-skip).
	present []atomic.Uint64
	queue   chan sharedPut
	stop    context.CancelFunc
	done    chan struct{}

	hits, puts, dropped, received atomic.Int64
}

type sharedPut struct {
	k engine.Key
	e tt.Entry
}

// entryMask keeps an entry's data bits and drops its table tag.
const entryMask = tt.Entry(1)<<(64-tt.TagBits) - 1

// openMirror starts mirroring the campaign's entries: a watch on its keys
// (the entries already in the bucket, then every update) and the writer of
// this worker's puts.
func openMirror(ctx context.Context, kv jetstream.KeyValue, campaign string, pits int) (*mirror, error) {
	ctx, stop := context.WithCancel(ctx)
	w, err := kv.Watch(ctx, campaign+".>", jetstream.IgnoreDeletes())
	if err != nil {
		stop()
		return nil, fmt.Errorf("watching the shared table of %s: %w", campaign, err)
	}
	m := &mirror{campaign: campaign, pits: pits, kv: kv, m: map[engine.Key]tt.Entry{}, queue: make(chan sharedPut, 4096),
		present: make([]atomic.Uint64, mirrorFilterBits/64), stop: stop, done: make(chan struct{})}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		defer w.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case e, ok := <-w.Updates():
				if !ok {
					return
				}
				if e == nil {
					continue // the end of the entries already there
				}
				if k, ent, ok := decodeShared(campaign, pits, e.Key(), e.Value()); ok {
					m.received.Add(1)
					m.merge(k, ent)
				}
			}
		}
	}()
	go func() {
		defer wg.Done()
		for {
			select {
			case <-ctx.Done():
				return
			case p := <-m.queue:
				pctx, cancel := context.WithTimeout(ctx, 5e9)
				if err := m.write(pctx, p.k); err != nil {
					m.dropped.Add(1)
				}
				cancel()
			}
		}
	}()
	go func() { wg.Wait(); close(m.done) }()
	return m, nil
}

// write merges what the mirror knows of k into the bucket's entry: read,
// intersect, and write it back only if nobody wrote it meanwhile (else
// again), so that two workers proving bounds on one board at once keep
// both.
func (m *mirror) write(ctx context.Context, k engine.Key) error {
	key := sharedKey(m.campaign, k)
	for try := 0; try < 4; try++ {
		m.mu.RLock()
		e := m.m[k]
		m.mu.RUnlock()
		var rev uint64
		if old, err := m.kv.Get(ctx, key); err == nil {
			rev = old.Revision()
			if _, oe, ok := decodeShared(m.campaign, m.pits, key, old.Value()); ok {
				e = tt.Merge(oe, e) & entryMask
				if e == oe {
					return nil // the bucket knows it all already
				}
			}
		} else if !errors.Is(err, jetstream.ErrKeyNotFound) {
			return err
		}
		var v [8]byte
		binary.BigEndian.PutUint64(v[:], uint64(e))
		var err error
		if rev == 0 {
			_, err = m.kv.Create(ctx, key, v[:])
		} else {
			_, err = m.kv.Update(ctx, key, v[:], rev)
		}
		if err == nil || ctx.Err() != nil {
			return err
		}
	}
	return fmt.Errorf("shared table: %s written by others %d times meanwhile", key, 4)
}

// close stops the watch and the writer; entries still queued are dropped.
func (m *mirror) close() {
	m.stop()
	<-m.done
}

// filterBit is k's bit in the presence filter: its word and mask.
func filterBit(k engine.Key) (int, uint64) {
	h := (k.Own*0x9e3779b97f4a7c15 ^ k.Opp) * 0xbf58476d1ce4e5b9
	h >>= 64 - 24 // log2(mirrorFilterBits)
	return int(h / 64), 1 << (h % 64)
}

func (m *mirror) get(k engine.Key) (tt.Entry, bool) {
	if w, bit := filterBit(k); m.present[w].Load()&bit == 0 {
		return 0, false
	}
	m.mu.RLock()
	e, ok := m.m[k]
	m.mu.RUnlock()
	if ok {
		m.hits.Add(1)
	}
	return e, ok
}

func (m *mirror) put(k engine.Key, e tt.Entry) {
	if !e.Solved() || e.Bound() == tt.BoundNone {
		return
	}
	if !m.merge(k, e&entryMask) {
		return
	}
	select {
	case m.queue <- sharedPut{k, e}:
		m.puts.Add(1)
	default:
		m.dropped.Add(1)
	}
}

// merge adds e to the mirror (intersecting the bounds known on k); it
// reports whether the mirror changed.
func (m *mirror) merge(k engine.Key, e tt.Entry) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	old, ok := m.m[k]
	if !ok && len(m.m) >= sharedMaxEntries {
		return false
	}
	n := tt.Merge(old, e) & entryMask
	if ok && n == old {
		return false
	}
	if !ok {
		w, bit := filterBit(k)
		m.present[w].Or(bit)
	}
	m.m[k] = n
	return true
}

// sharedKey is the bucket key of board k's entry in a campaign.
func sharedKey(campaign string, k engine.Key) string {
	return fmt.Sprintf("%s.%016x.%016x", campaign, k.Own, k.Opp)
}

// decodeShared reads a bucket entry back: a board of the game's pits and
// a proven entry within its seeds, or ok false.
func decodeShared(campaign string, pits int, key string, v []byte) (engine.Key, tt.Entry, bool) {
	rest, found := strings.CutPrefix(key, campaign+".")
	own, opp, two := strings.Cut(rest, ".")
	if !found || !two || len(own) != 16 || len(opp) != 16 || len(v) != 8 {
		return engine.Key{}, 0, false
	}
	var k engine.Key
	var err1, err2 error
	k.Own, err1 = strconv.ParseUint(own, 16, 64)
	k.Opp, err2 = strconv.ParseUint(opp, 16, 64)
	e := tt.Entry(binary.BigEndian.Uint64(v))
	if err1 != nil || err2 != nil || e&^entryMask != 0 || !e.Solved() || e.Bound() == tt.BoundNone || e.Move() >= pits {
		return engine.Key{}, 0, false
	}
	if pits < 8 && (k.Own>>(8*pits) != 0 || k.Opp>>(8*pits) != 0) {
		return engine.Key{}, 0, false
	}
	s := engine.Board{Own: k.Own, Opp: k.Opp}.Seeds()
	lo, hi := e.Lower(), e.Upper()
	if (lo != tt.NoLower && (lo < -s || lo > s)) || (hi != tt.NoUpper && (hi < -s || hi > s)) || lo > hi {
		return engine.Key{}, 0, false
	}
	return k, e, true
}
