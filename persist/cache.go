// Package persist is the cache: the durable second level under
// the in-memory transposition table (package tt), on BadgerDB, so that
// proven results survive the process. Interrupted solves resume from it,
// and a position solved once is answered from its root record.
//
// Keys are a kind byte, the rule and the pit count, then the exact packed
// board (keys.go), so one rule's entries can be scanned or deleted by
// prefix; values are small fixed binary records. Open it with Open, which
// is the one place a cache is opened, and inspect it with Stats, Range and
// GC ('kalah cache'). docs/formats.md documents the layout.
package persist

import (
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/internal/datadir"
	"github.com/kalah-solver/kalah/tt"
)

// Cache is the persistent second level under the table: a BadgerDB
// directory of proven (full-depth) entries, so that work survives the
// process. It is a durable cache, never the only copy of anything: the
// search asks it only after a table miss at a big board (MinSeeds) and
// hands it only entries that were expensive to prove (MinWork).
//
// Writes never wait for the disk: Put queues the entry on a buffered
// channel, dropping it (and counting the drop) when the queue is full, and
// one writer goroutine commits the queue in WriteBatch batches, at least
// once a second. Reads first ask an in-memory Bloom filter of the cache's
// keys (filter.go), then go straight to BadgerDB. A process killed outright
// loses at most the batch not yet flushed; BadgerDB's write-ahead log keeps
// the directory consistent.
//
// Cache implements the solver's Cache interface (the solver does not
// import this package, so that the search links no BadgerDB).
type Cache struct {
	db    *badger.DB
	dir   string
	rules engine.Variant
	opts  Options
	log   *log.Logger

	filter  *filter // nil for a maintenance cache
	entries int64   // entries of the rules found at open

	queue    chan queued
	flushReq chan chan error
	quit     chan struct{}
	done     chan struct{}
	closed   atomic.Bool
	once     sync.Once
	closeErr error

	gets    atomic.Int64 // Get calls that went to BadgerDB
	found   atomic.Int64 // and found an entry
	dropped atomic.Int64 // entries Put found no room for
	written atomic.Int64 // entries committed
	werr    atomic.Pointer[error]
}

type queued struct {
	k engine.Key
	e tt.Entry
}

// Options tune a Cache; the zero value takes every default.
type Options struct {
	// MinSeeds: Get is worth a disk look-up only at boards with at least
	// this many seeds (0: DefaultMinSeeds).
	MinSeeds int
	// MinWork: entries whose subtree cost fewer than 2^MinWork nodes are
	// not worth storing (0: DefaultMinWork).
	MinWork int
	// Queue is the capacity of the write queue (0: 1<<16 entries).
	Queue int
	// Batch is the most entries committed in one batch (0: 1<<15).
	Batch int
	// FlushEvery is the longest an entry waits in the writer before it is
	// committed (0: one second).
	FlushEvery time.Duration
	// Log, if not nil, receives the options chosen and BadgerDB's warnings
	// and errors.
	Log *log.Logger
}

// Defaults of Options, measured (docs/benchmarks.md, on the cache) so
// that a first solve with the cache costs no measurable time.
const (
	DefaultMinSeeds = 30
	DefaultMinWork  = 12
)

// ErrInUse is returned (wrapped) by Open when another process
// holds the cache.
var ErrInUse = errors.New("in use by another kalah process")

// ErrNotCache is returned (wrapped) by Open for a directory that holds
// something other than a kalah cache, or a damaged one.
var ErrNotCache = errors.New("not a kalah cache")

// DefaultDir is $XDG_DATA_HOME/kalah/cache, or
// ~/.local/share/kalah/cache when XDG_DATA_HOME is unset or not absolute.
func DefaultDir() (string, error) { return datadir.Dir("cache", "--cache") }

// oldDefaultDir is where the default directory was before it was named
// after the cache: $XDG_DATA_HOME/kalah/store.
func oldDefaultDir() (string, error) { return datadir.Dir("store", "--cache") }

// MigrateDefault moves the cache from its old default directory
// ($XDG_DATA_HOME/kalah/store) to the default one when dir is the default
// directory, it does not exist and the old one does, and logs the move to
// lg (the standard logger when lg is nil). Open calls it; it fails only
// when the move does.
func MigrateDefault(dir string, lg *log.Logger) error {
	def, err := DefaultDir()
	if err != nil || filepath.Clean(dir) != def {
		return nil
	}
	if _, err := os.Lstat(def); !errors.Is(err, os.ErrNotExist) {
		return nil
	}
	old, err := oldDefaultDir()
	if err != nil {
		return nil
	}
	if fi, err := os.Stat(old); err != nil || !fi.IsDir() {
		return nil
	}
	if err := os.Rename(old, def); err != nil {
		return fmt.Errorf("cannot move the cache from its old default directory %s to %s: %w (move it yourself, or give --cache %s)", old, def, err, old)
	}
	if lg == nil {
		lg = log.Default()
	}
	lg.Printf("cache: moved %s, the old default directory, to %s", old, def)
	return nil
}

// Open opens (creating it when missing) the cache in dir for rules:
// Get and Put then read and write the entries of rules. Rules with Pits 0
// open the cache for maintenance only (Stats, Range, GC); Get and Put are
// then no-ops. This is the one place a cache is opened.
//
// Errors are clear about the cause: ErrInUse when another process has
// the directory, ErrNotCache for a foreign or damaged directory, and the
// operating system's error for a directory that cannot be created or
// written.
func Open(dir string, rules engine.Variant, opts Options) (*Cache, error) {
	if rules.Pits != 0 {
		if err := rules.Validate(); err != nil {
			return nil, err
		}
	}
	if opts.MinSeeds == 0 {
		opts.MinSeeds = DefaultMinSeeds
	}
	if opts.MinWork == 0 {
		opts.MinWork = DefaultMinWork
	}
	if opts.Queue == 0 {
		opts.Queue = 1 << 16
	}
	if opts.Batch == 0 {
		opts.Batch = 1 << 15
	}
	if opts.FlushEvery == 0 {
		opts.FlushEvery = time.Second
	}
	if err := MigrateDefault(dir, opts.Log); err != nil {
		return nil, err
	}
	lg := opts.Log
	if lg == nil {
		lg = log.New(io.Discard, "", 0)
	}
	if err := checkDir(dir); err != nil {
		return nil, err
	}
	if err := checkTables(dir); err != nil {
		return nil, err
	}
	bo := badger.DefaultOptions(dir).
		WithLogger(badgerLogger{lg}).
		WithMemTableSize(32 << 20).
		WithNumMemtables(3).
		WithBlockCacheSize(128 << 20).
		WithIndexCacheSize(32 << 20).
		WithCompression(options.Snappy).
		WithChecksumVerificationMode(options.OnBlockRead).
		WithSyncWrites(false).
		WithValueLogFileSize(64 << 20).
		WithDetectConflicts(false).
		WithMetricsEnabled(false).
		WithNumCompactors(2).
		WithNumGoroutines(2)
	db, err := openBadger(bo)
	if err != nil {
		return nil, mapOpenError(dir, err)
	}
	if err := checkHeader(db, dir); err != nil {
		db.Close()
		return nil, err
	}
	var flt *filter
	var entries int64
	if rules.Pits != 0 {
		t0 := time.Now()
		if flt, entries, err = loadFilter(db, rules); err != nil {
			db.Close()
			return nil, fmt.Errorf("cache %s cannot be read, %w or damaged: %v", dir, ErrNotCache, err)
		}
		lg.Printf("cache %s: %d entries of %v, filter of %d MiB built in %.2f s", dir, entries, rules, len(flt.words)>>17, time.Since(t0).Seconds())
	}
	lg.Printf("cache %s: rule %v, format %d; ask at boards with >= %d seeds, keep entries of >= 2^%d nodes; queue %d, batches of <= %d, flushed every %v; badger %d MiB memtables x %d, %d MiB block cache, %d MiB index cache, %v compression, sync writes %v",
		dir, rulesName(rules), cacheFormat, opts.MinSeeds, opts.MinWork, opts.Queue, opts.Batch, opts.FlushEvery,
		bo.MemTableSize>>20, bo.NumMemtables, bo.BlockCacheSize>>20, bo.IndexCacheSize>>20, compressionName(bo.Compression), bo.SyncWrites)
	s := &Cache{
		db: db, dir: dir, rules: rules, opts: opts, log: lg, filter: flt, entries: entries,
		queue:    make(chan queued, opts.Queue),
		flushReq: make(chan chan error),
		quit:     make(chan struct{}),
		done:     make(chan struct{}),
	}
	go s.writer()
	return s, nil
}

func rulesName(r engine.Variant) string {
	if r.Pits == 0 {
		return "(maintenance)"
	}
	return r.String()
}

func compressionName(c options.CompressionType) string {
	switch c {
	case options.None:
		return "no"
	case options.Snappy:
		return "snappy"
	case options.ZSTD:
		return "zstd"
	}
	return fmt.Sprint(c)
}

// checkDir creates dir when missing and refuses a path that is not a
// directory, a directory of other files, or one that cannot be written.
func checkDir(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("cannot create cache %s: %w", dir, err)
		}
		return nil
	case err != nil:
		return fmt.Errorf("cache %s: %w", dir, err)
	case !fi.IsDir():
		return fmt.Errorf("cache %s is a file, not a directory: %w", dir, ErrNotCache)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("cache %s: %w", dir, err)
	}
	if len(ents) > 0 {
		if _, err := os.Stat(filepath.Join(dir, "MANIFEST")); err != nil {
			return fmt.Errorf("cache %s holds other files (%s, ...) and no cache: %w; give an empty or new directory", dir, ents[0].Name(), ErrNotCache)
		}
	}
	f, err := os.CreateTemp(dir, ".kalah-write-test-*")
	if err != nil {
		return fmt.Errorf("cache %s is not writable: %w", dir, err)
	}
	name := f.Name()
	f.Close()
	os.Remove(name)
	return nil
}

// openBadger opens the database, turning a panic inside BadgerDB (which
// some damaged files provoke) into an error.
func openBadger(bo badger.Options) (db *badger.DB, err error) {
	defer func() {
		if r := recover(); r != nil {
			db, err = nil, fmt.Errorf("badger: %v", r)
		}
	}()
	return badger.Open(bo)
}

// mapOpenError names the usual causes of a failed open.
func mapOpenError(dir string, err error) error {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "Cannot acquire directory lock"):
		return fmt.Errorf("cache %s is %w (or this one opened it twice); wait for it to finish or use another --cache", dir, ErrInUse)
	case errors.Is(err, os.ErrPermission) || strings.Contains(msg, "permission denied") || strings.Contains(msg, "read-only file system"):
		return fmt.Errorf("cache %s is not writable: %v", dir, firstLine(msg))
	}
	return fmt.Errorf("cache %s cannot be opened, %w or damaged: %v (move it away or delete it; it is only a cache)", dir, ErrNotCache, firstLine(msg))
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}

// badgerLogger passes BadgerDB's warnings and errors to the cache's log
// and drops its chatter: its information and debug lines, and the block
// cache's sizing advice, which its monitor gives, with a multi-line
// histogram, every minute that entries live less than 10 s and fewer than
// 40 % of look-ups hit (the search asks the cache for boards it mostly
// does not hold, so the ratio is low by design).
type badgerLogger struct{ l *log.Logger }

func (b badgerLogger) Errorf(f string, a ...any) {
	b.l.Printf("badger error: "+strings.TrimRight(f, "\n"), a...)
}
func (b badgerLogger) Warningf(f string, a ...any) {
	if cacheAdvice(f) {
		return
	}
	b.l.Printf("badger warning: "+strings.TrimRight(f, "\n"), a...)
}

// cacheAdvice reports whether a BadgerDB warning's format is the block
// cache monitor's.
func cacheAdvice(f string) bool {
	return strings.HasPrefix(f, "%s might be too small") ||
		strings.HasPrefix(f, "Cache life expectancy")
}
func (b badgerLogger) Infof(string, ...any)  {}
func (b badgerLogger) Debugf(string, ...any) {}

// Dir is the cache's directory.
func (s *Cache) Dir() string { return s.dir }

// MinSeeds is the fewest seeds a board must hold for Get to be asked.
func (s *Cache) MinSeeds() int { return s.opts.MinSeeds }

// MinWork is log2 of the fewest nodes an entry must have cost for Put.
func (s *Cache) MinWork() int { return s.opts.MinWork }

// Dropped is the number of entries Put dropped because the queue was full.
func (s *Cache) Dropped() int64 { return s.dropped.Load() }

// Written is the number of entries committed so far.
func (s *Cache) Written() int64 { return s.written.Load() }

// Entries is the number of entries of the cache's rules it held when
// opened.
func (s *Cache) Entries() int64 { return s.entries }

// Get returns the stored entry of k, if any. Its tag is zero; the depth is
// tt.DepthSolved.
func (s *Cache) Get(k engine.Key) (tt.Entry, bool) {
	if s.rules.Pits == 0 || s.closed.Load() {
		return 0, false
	}
	if !s.filter.mayHave(k) {
		return 0, false
	}
	s.gets.Add(1)
	key := entryKey(s.rules, k)
	var e tt.Entry
	ok := false
	defer func() {
		if ok {
			s.found.Add(1)
		}
	}()
	_ = s.db.View(func(txn *badger.Txn) error {
		item, err := txn.Get(key[:])
		if err != nil {
			return nil
		}
		return item.Value(func(v []byte) error {
			e, ok = decodeEntry(v, s.rules.Pits)
			return nil
		})
	})
	return e, ok
}

// Put queues a proven entry for writing and returns at once; an entry that
// is not proven (tt.DepthSolved) is ignored, and when the queue is full the
// entry is dropped and counted.
func (s *Cache) Put(k engine.Key, e tt.Entry) {
	if s.rules.Pits == 0 || !e.Solved() || e.Bound() == tt.BoundNone || s.closed.Load() {
		return
	}
	select {
	case s.queue <- queued{k, e}:
		s.filter.add(k)
	default:
		s.dropped.Add(1)
	}
}

// writer is the one goroutine that writes entries: it commits the queue
// in batches of at most opts.Batch, at least every opts.FlushEvery, and
// on request.
func (s *Cache) writer() {
	defer close(s.done)
	wb := s.db.NewWriteBatch()
	n := 0
	flush := func() {
		if n == 0 {
			return
		}
		if err := wb.Flush(); err != nil {
			s.werr.CompareAndSwap(nil, &err)
			s.log.Printf("cache %s: write failed: %v", s.dir, err)
		} else {
			s.written.Add(int64(n))
		}
		wb = s.db.NewWriteBatch()
		n = 0
	}
	add := func(q queued) {
		key := entryKey(s.rules, q.k)
		val := encodeEntry(q.e)
		if err := wb.Set(key[:], val[:]); err != nil {
			s.werr.CompareAndSwap(nil, &err)
			return
		}
		n++
		if n >= s.opts.Batch {
			flush()
		}
	}
	drain := func() {
		for {
			select {
			case q := <-s.queue:
				add(q)
			default:
				return
			}
		}
	}
	tick := time.NewTicker(s.opts.FlushEvery)
	defer tick.Stop()
	for {
		select {
		case q := <-s.queue:
			add(q)
		case <-tick.C:
			flush()
		case reply := <-s.flushReq:
			drain()
			flush()
			reply <- s.writeErr()
		case <-s.quit:
			drain()
			flush()
			wb.Cancel()
			return
		}
	}
}

func (s *Cache) writeErr() error {
	if p := s.werr.Load(); p != nil {
		return fmt.Errorf("cache %s: %w", s.dir, *p)
	}
	return nil
}

// Flush commits every entry queued so far and returns the first write
// error, if any.
func (s *Cache) Flush() error {
	if s.closed.Load() {
		return s.writeErr()
	}
	reply := make(chan error)
	select {
	case s.flushReq <- reply:
		return <-reply
	case <-s.done:
		return s.writeErr()
	}
}

// Close commits the queue and closes the database; the cache must not be
// used after. It is safe to call more than once.
func (s *Cache) Close() error {
	s.once.Do(func() {
		s.closed.Store(true)
		close(s.quit)
		<-s.done
		err := s.writeErr()
		if cerr := s.db.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("cache %s: closing: %w", s.dir, cerr)
		}
		s.closeErr = err
		s.log.Printf("cache %s: closed; %d look-ups, %d found; %d entries written, %d dropped (queue full)", s.dir, s.gets.Load(), s.found.Load(), s.Written(), s.Dropped())
	})
	return s.closeErr
}
