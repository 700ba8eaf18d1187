package egdb

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"

	"github.com/kalah-solver/kalah/engine"
	"golang.org/x/sync/errgroup"
)

// DB is an endgame database for one pit count and capture rule: the
// complete slices 0..MaxSeeds. It is read-only once opened or built, and
// Probe and every other query are safe for any number of goroutines. Close
// releases the file mappings; no query may run during or after it.
type DB struct {
	rules  engine.Variant
	x      *Index
	slices []table // slices[s].at(rank) = g
	unmap  []func() error
	shared *mapped // the mappings this handle shares (Open), nil: its own
}

// Variant is the pit count and rule of the database.
func (db *DB) Variant() engine.Variant { return db.rules }

// MaxSeeds is the largest seed count (stores excluded) the database covers;
// -1 when it holds no slice.
func (db *DB) MaxSeeds() int { return len(db.slices) - 1 }

// Index is the ranking of the database's positions.
func (db *DB) Index() *Index { return db.x }

// Slice returns the entries of slice s in rank order, one byte each
// (entry = g). For a byte-encoded slice the bytes may be a read-only file
// mapping: never write to them. A packed slice is decoded into a new copy.
func (db *DB) Slice(s int) []byte { return db.slices[s].bytes() }

// Encoding is the encoding of slice s: EncodingGainByte or EncodingPacked.
func (db *DB) Encoding(s int) int {
	if db.slices[s].packed {
		return EncodingPacked
	}
	return EncodingGainByte
}

// SliceBytes is the payload size of slice s in bytes (its file is
// HeaderSize more), and Exceptions the entries of a packed slice kept in
// its exception list.
func (db *DB) SliceBytes(s int) (bytes, exceptions int64) {
	t := &db.slices[s]
	return t.size(), t.exceptions()
}

// Probe returns g for b: how many of the b.Seeds() seeds in the pits the
// side to move banks from here to the end under perfect play, whatever the
// stores hold. The final store difference, mover minus opponent, is then
// b.StoreDiff() + 2g - b.Seeds(). ok is false when the game is over or the
// position holds more seeds than MaxSeeds. It does not allocate.
func (db *DB) Probe(b engine.Board) (gain int, ok bool) {
	t, r := db.locate(b)
	if t == nil {
		return 0, false
	}
	return t.at(r), true
}

// locate returns the slice that holds b and b's rank in it; nil when b
// is not covered (a side without seeds, or more seeds than the database).
func (db *DB) locate(b engine.Board) (*table, int64) {
	if b.Own == 0 || b.Opp == 0 {
		return nil, 0
	}
	x := db.x
	po, pp := b.Own*ones, b.Opp*ones
	sh := 8 * uint(x.m-1)
	a, c := int(uint8(po>>sh)), int(uint8(pp>>sh))
	if a+c >= len(db.slices) {
		return nil, 0
	}
	return &db.slices[a+c], x.rankPre(po, pp, a, c)
}

// Prefetch starts loading the line of the database that Probe(b) reads,
// and returns at once (package prefetch). The search calls it as soon as
// it has sown a child that the database holds, so that the read overlaps
// the sowing of the other children; measured in docs/algorithms.md
// (step 4 of the search).
func (db *DB) Prefetch(b engine.Board) {
	if t, r := db.locate(b); t != nil {
		t.prefetch(r)
	}
}

// ProbeDiff returns 2g - s for b: the change of the store difference, mover
// minus opponent, from here to the end under perfect play.
func (db *DB) ProbeDiff(b engine.Board) (diff int, ok bool) {
	g, ok := db.Probe(b)
	return 2*g - b.Seeds(), ok
}

// MoveGain returns what playing the mover's pit i (which must hold seeds)
// is worth from b under perfect play afterwards, in seeds of the board the
// mover banks from now to the end (the same unit as Probe). ok is false
// when b or the position after the move is outside the database.
func (db *DB) MoveGain(b engine.Board, i int) (gain int, ok bool) {
	s := b.Seeds()
	if s >= len(db.slices) || b.Over() {
		return 0, false
	}
	c, res := db.rules.Sow(engine.Board{Own: b.Own, Opp: b.Opp}, i)
	k := int(c.OwnStore)
	if res.Over() {
		return k, true
	}
	child := c
	if !res.Extra() {
		child = c.Flip()
	}
	g, ok := db.Probe(child)
	return engine.MoveGain(res, k, s-k, g), ok
}

// Close releases the database's file mappings (a handle of Open: its share
// of them, unmapped when the last handle on them closes).
func (db *DB) Close() error {
	if db.shared != nil {
		sh := db.shared
		db.shared, db.slices = nil, nil
		return sh.release()
	}
	var errs []error
	for _, u := range db.unmap {
		errs = append(errs, u())
	}
	db.unmap, db.slices = nil, nil
	return errors.Join(errs...)
}

// Open loads the slices 0, 1, ... of rules found in dir (the directory
// that holds one subdirectory per pit count and rule, see RuleDir) up to
// the first missing one, checking every header and checksum and mapping
// the payloads. It fails if there is no slice at all or a file is bad. A
// file it checked in full before and that is unchanged since (checked.go:
// the same inode, size and modification time, recorded in checked.json
// beside the files) has its header and size checked, not its payload.
//
// The handles a process opens on the same files share one set of
// mappings, loaded and checked once: a campaign's coordinator and its
// local workers, or a command that checks the database's depth before
// its session opens it, do not read and checksum gigabytes again. Files
// changed since (another file, size or modification time) are loaded anew.
func Open(dir string, rules engine.Variant) (*DB, error) {
	return OpenMax(dir, rules, engine.MaxSeeds)
}

// OpenMax is Open loading at most the slices 0..maxSeeds.
func OpenMax(dir string, rules engine.Variant, maxSeeds int) (*DB, error) {
	if err := rules.Validate(); err != nil {
		return nil, err
	}
	n := covered(dir, rules, maxSeeds) + 1
	if n == 0 {
		return nil, fmt.Errorf("no endgame database for %v in %s (build one with: kalah egdb build --pits %d --rule %v)", rules, RuleDir(dir, rules), rules.Pits, rules.Rule)
	}
	key, stamps := mappedKey(dir, rules, n)
	if db := reuse(key, stamps); db != nil {
		return db, nil
	}
	x, err := NewIndex(rules.Pits, n-1)
	if err != nil {
		return nil, err
	}
	db := &DB{rules: rules, x: x, slices: make([]table, n), unmap: make([]func() error, n)}
	known := readChecked(dir, rules)
	recs := make([]*checked, n)
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for s := range n {
		var k *checked
		if c, ok := known[sliceName(s)]; ok {
			k = &c
		}
		g.Go(func() (err error) {
			db.slices[s], db.unmap[s], recs[s], err = openSlice(SlicePath(dir, rules, s), rules, s, x.Size(s), k)
			return err
		})
	}
	err = g.Wait()
	db.unmap = compact(db.unmap)
	if err == nil {
		rememberChecked(dir, rules, known, recs)
	}
	if err != nil {
		db.Close()
		if errors.Is(err, fs.ErrNotExist) {
			err = fmt.Errorf("%w (a slice file vanished while loading)", err)
		}
		return nil, err
	}
	if stamps != nil {
		share(key, stamps, db)
	}
	return db, nil
}

// rememberChecked updates the record of checked files (checked.go) with
// the files just loaded, when it changes; an error writing it is ignored
// (the next Open checks the files again).
func rememberChecked(dir string, rules engine.Variant, known map[string]checked, recs []*checked) {
	changed := false
	for s, r := range recs {
		name := sliceName(s)
		old, had := known[name]
		switch {
		case r == nil && had:
			delete(known, name)
			changed = true
		case r != nil && (!had || old != *r):
			known[name] = *r
			changed = true
		}
	}
	if changed {
		writeChecked(dir, rules, known)
	}
}

// mapped is a set of slice mappings shared by the handles that Open
// returned on the same files; the last handle closed unmaps them.
type mapped struct {
	key    mappedID
	stamps []fileStamp
	rules  engine.Variant
	x      *Index
	slices []table
	unmap  []func() error
	refs   int
}

// mappedID names a database's files: the directory (absolute), the rule
// and the number of slices.
type mappedID struct {
	dir   string
	rules engine.Variant
	n     int
}

// fileStamp tells a slice file from one written since: its identity
// (os.SameFile: device and inode), size and modification time.
type fileStamp struct{ fi os.FileInfo }

func (f fileStamp) same(g fileStamp) bool {
	return os.SameFile(f.fi, g.fi) && f.fi.Size() == g.fi.Size() && f.fi.ModTime().Equal(g.fi.ModTime())
}

var (
	mappedMu sync.Mutex
	mappings = map[mappedID]*mapped{}
)

// mappedKey names the files of slices 0..n-1 and stamps them; nil stamps
// when one cannot be read (then the database is not shared).
func mappedKey(dir string, rules engine.Variant, n int) (mappedID, []fileStamp) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return mappedID{}, nil
	}
	stamps := make([]fileStamp, n)
	for s := range n {
		fi, err := os.Stat(SlicePath(dir, rules, s))
		if err != nil {
			return mappedID{}, nil
		}
		stamps[s] = fileStamp{fi}
	}
	return mappedID{abs, rules, n}, stamps
}

// reuse returns a new handle on the mappings of key when they are open and
// their files unchanged; nil otherwise.
func reuse(key mappedID, stamps []fileStamp) *DB {
	if stamps == nil {
		return nil
	}
	mappedMu.Lock()
	defer mappedMu.Unlock()
	m := mappings[key]
	if m == nil || !slices.EqualFunc(m.stamps, stamps, fileStamp.same) {
		return nil
	}
	m.refs++
	return &DB{rules: m.rules, x: m.x, slices: m.slices, shared: m}
}

// share hands db's mappings over to the shared set of key (replacing a
// stale one, which its own handles keep until they close).
func share(key mappedID, stamps []fileStamp, db *DB) {
	m := &mapped{key: key, stamps: stamps, rules: db.rules, x: db.x, slices: db.slices, unmap: db.unmap, refs: 1}
	db.unmap, db.shared = nil, m
	mappedMu.Lock()
	mappings[key] = m
	mappedMu.Unlock()
}

func (m *mapped) release() error {
	mappedMu.Lock()
	m.refs--
	last := m.refs == 0
	if last && mappings[m.key] == m {
		delete(mappings, m.key)
	}
	mappedMu.Unlock()
	if !last {
		return nil
	}
	var errs []error
	for _, u := range m.unmap {
		errs = append(errs, u())
	}
	return errors.Join(errs...)
}

func compact(fs []func() error) []func() error {
	out := fs[:0]
	for _, f := range fs {
		if f != nil {
			out = append(out, f)
		}
	}
	return out
}
