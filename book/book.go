// Package book is the opening book built into kalah: the root records of
// every position within a few plies of the start of a game, committed as
// data files under book/data and embedded in the binary, so that a fresh
// install answers them at once, with no cache and no search.
//
// A book file holds one game, Kalah(m,n) under one rule: a header line,
// then one results.Record a line (the root record an every-move solve left
// in the cache, provenance included), start first, ply by ply, the whole
// gzip-compressed (docs/formats.md). 'kalah book build' solves the
// positions into a cache and 'kalah book export' writes the file from it;
// Check verifies a file with no search.
//
// The session (kalah.Session) consults the embedded book when its cache
// holds no root record of a position (Embedded, Book.Lookup).
package book

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/results"
)

// Format is the book file format this package writes and reads.
const Format = 1

// Ext is a book file's extension.
const Ext = ".jsonl.gz"

// Header is a book file's first line: which game and how deep.
type Header struct {
	Format    int    `json:"kalah_book"` // the file format, Format
	Rule      string `json:"rule"`       // capture convention
	Pits      int    `json:"pits"`       // m
	Seeds     int    `json:"seeds"`      // n: the book starts at the start of Kalah(m,n)
	Plies     int    `json:"plies"`      // K: every unfinished position within K sowings of the start
	Positions int    `json:"positions"`  // records that follow
}

// FileName is the file name of the book of h's game,
// "<pits>-<seeds>-<rule>.jsonl.gz", e.g. "6-4-no-empty-capture.jsonl.gz".
func FileName(h Header) string {
	return fmt.Sprintf("%d-%d-%s%s", h.Pits, h.Seeds, h.Rule, Ext)
}

// File is one game's book.
type File struct {
	Header
	Name    string          // the file name it was read from ("" for one made in memory)
	Variant engine.Variant  // from the header
	Start   engine.Position // the start of Kalah(Pits, Seeds)
	Records []*results.Record
}

// NewFile makes a book file of game r, Kalah(r.Pits, seeds), plies deep,
// from records listed start first.
func NewFile(r engine.Variant, seeds, plies int, recs []*results.Record) (*File, error) {
	h := Header{Format: Format, Rule: r.Rule.String(), Pits: r.Pits, Seeds: seeds, Plies: plies, Positions: len(recs)}
	return newFile(h, recs)
}

func newFile(h Header, recs []*results.Record) (*File, error) {
	if h.Format != Format {
		return nil, fmt.Errorf("book format %d; this build reads format %d", h.Format, Format)
	}
	c, err := engine.ParseRule(h.Rule)
	if err != nil {
		return nil, err
	}
	r, err := engine.NewVariant(h.Pits, c)
	if err != nil {
		return nil, err
	}
	start, err := r.StartPosition(h.Seeds)
	if err != nil {
		return nil, err
	}
	if h.Plies < 0 {
		return nil, fmt.Errorf("book of %d plies", h.Plies)
	}
	return &File{Header: h, Variant: r, Start: start, Records: recs}, nil
}

// Write writes f: the header line, then a record a line, gzip-compressed.
// The output depends only on f (no time stamp in the gzip header).
func Write(w io.Writer, f *File) error {
	h := f.Header
	h.Positions = len(f.Records)
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(zw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(h); err != nil {
		return err
	}
	for _, rec := range f.Records {
		c := *rec
		c.SyncDeprecated()
		if err := enc.Encode(&c); err != nil {
			return err
		}
	}
	return zw.Close()
}

// Read reads a book file written by Write. It checks the form (the
// header, every line a record of the header's game, the count), not the
// values: see Check.
func Read(r io.Reader) (*File, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("not a gzip file: %w", err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return nil, err
		}
		return nil, errors.New("empty book file")
	}
	var h Header
	dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil || h.Format == 0 {
		return nil, fmt.Errorf("line 1 is not a book header: %v", err)
	}
	f, err := newFile(h, nil)
	if err != nil {
		return nil, err
	}
	line := 1
	for sc.Scan() {
		line++
		var rec results.Record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		rec.SyncDeprecated()
		if rec.Rule != h.Rule || rec.Pits != h.Pits {
			return nil, fmt.Errorf("line %d: a record of Kalah(%d) %s in the book of Kalah(%d) %s", line, rec.Pits, rec.Rule, h.Pits, h.Rule)
		}
		f.Records = append(f.Records, &rec)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if err := zr.Close(); err != nil {
		return nil, err
	}
	if len(f.Records) != h.Positions {
		return nil, fmt.Errorf("%d records, the header says %d", len(f.Records), h.Positions)
	}
	return f, nil
}

// Levels lists the distinct unfinished positions reachable from start in
// at most plies sowings (an extra turn is a ply of its own), by the
// fewest sowings that reach each: Levels[d] are those first reached after
// d sowings, in the order of the moves that reach them.
func Levels(r engine.Variant, start engine.Position, plies int) [][]engine.Position {
	seen := map[engine.Position]bool{}
	level := []engine.Position{start}
	var out [][]engine.Position
	for d := 0; d <= plies && len(level) > 0; d++ {
		var keep, next []engine.Position
		for _, p := range level {
			if seen[p] || p.Board.Over() {
				continue
			}
			seen[p] = true
			keep = append(keep, p)
			for _, i := range p.Board.MoveList() {
				c, _ := r.PlayPosition(p, i)
				next = append(next, c)
			}
		}
		out = append(out, keep)
		level = next
	}
	return out
}

// Positions lists the positions of Levels, deepest first: solving them in
// that order, the shallower ones find their children's proofs in the
// table and the cache.
func Positions(r engine.Variant, start engine.Position, plies int) []engine.Position {
	lv := Levels(r, start, plies)
	var out []engine.Position
	for d := len(lv) - 1; d >= 0; d-- {
		out = append(out, lv[d]...)
	}
	return out
}

// recordPosition is the position a record names.
func recordPosition(rec *results.Record) (engine.Position, error) {
	side, err := engine.ParseSide(rec.ToMove)
	if err != nil {
		return engine.Position{}, err
	}
	return engine.ParsePosition(rec.Position, side)
}

// Check verifies f with no search: every record holds up for its position
// (results.Record.CheckPosition: every legal move, the best move's value
// is the value, the principal variation replays to it), the records are
// exactly the positions within f.Plies of the start, each once, start
// first, by ply, and they agree with each other: each move's value is
// its child's value when the child is in the book too (the child's
// negated when the turn passes) or the final store difference when the
// move ends the game.
func (f *File) Check() error {
	want := Levels(f.Variant, f.Start, f.Plies)
	var order []engine.Position
	for _, lv := range want {
		order = append(order, lv...)
	}
	if len(f.Records) != len(order) {
		return fmt.Errorf("%s: %d records, want %d: the positions within %d plies", f.name(), len(f.Records), len(order), f.Plies)
	}
	byPos := make(map[engine.Position]*results.Record, len(f.Records))
	for i, rec := range f.Records {
		p, err := recordPosition(rec)
		if err != nil {
			return fmt.Errorf("%s: record %d: %w", f.name(), i+1, err)
		}
		if p != order[i] {
			return fmt.Errorf("%s: record %d is %s %s, want %v %v (start first, by ply)", f.name(), i+1, rec.Position, rec.ToMove, order[i], order[i].ToMove)
		}
		if err := rec.CheckPosition(f.Variant, p); err != nil {
			return fmt.Errorf("%s: record %d (%s %s): %w", f.name(), i+1, rec.Position, rec.ToMove, err)
		}
		byPos[p] = rec
	}
	for i, rec := range f.Records {
		p := order[i]
		for _, m := range rec.Moves {
			c, res := f.Variant.PlayPosition(p, m.Pit-1)
			if extra := res&engine.ResExtra != 0; extra != m.ExtraTurn {
				return fmt.Errorf("%s: %s %s: move %s: extra_turn %v", f.name(), rec.Position, rec.ToMove, m.Move, m.ExtraTurn)
			}
			var want int
			switch cr, ok := byPos[c]; {
			case c.Board.Over(): // the game ended: c is still seen from the mover
				want = c.Board.StoreDiff()
			case !ok:
				continue
			case c.ToMove == p.ToMove:
				want = cr.Value
			default:
				want = -cr.Value
			}
			if m.Value != want {
				return fmt.Errorf("%s: %s %s: move %s is worth %s, but the position it leads to is worth %s to the mover", f.name(), rec.Position, rec.ToMove, m.Move, results.Signed(m.Value), results.Signed(want))
			}
		}
	}
	return nil
}

func (f *File) name() string {
	if f.Name != "" {
		return f.Name
	}
	return FileName(f.Header)
}

// Book is a set of book files, indexed for lookup. A book made by Lazy
// reads each file on the first lookup in its game. It is safe for
// concurrent use.
type Book struct {
	mu    sync.Mutex
	files []*File
	index map[key]*results.Record
	lazy  map[game]func() (*File, error) // files not read yet
	errs  map[game]error                 // files that did not hold up
}

type key struct {
	rules engine.Variant
	pos   engine.Position
}

// game is Kalah(rules.Pits, seeds) under rules.
type game struct {
	rules engine.Variant
	seeds int
}

// New indexes the files; a position two of them hold (two books of one
// game) is answered by the first.
func New(files ...*File) (*Book, error) {
	b := &Book{index: map[key]*results.Record{}}
	for _, f := range files {
		if err := b.add(f); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// add indexes f, all of it or nothing; b.mu is held or b not yet shared.
func (b *Book) add(f *File) error {
	keys := make([]key, len(f.Records))
	for i, rec := range f.Records {
		p, err := recordPosition(rec)
		if err != nil {
			return fmt.Errorf("%s: %w", f.name(), err)
		}
		keys[i] = key{f.Variant, p}
	}
	for i, k := range keys {
		if _, ok := b.index[k]; !ok {
			b.index[k] = f.Records[i]
		}
	}
	b.files = append(b.files, f)
	sort.SliceStable(b.files, func(i, j int) bool { return b.files[i].name() < b.files[j].name() })
	return nil
}

// Lazy is the book of the *.jsonl.gz files of dir in fsys, each read and
// checked (File.Check) on the first lookup in its game, which the file's
// name gives: a program that answers one game reads one file. A file
// that does not hold up answers nothing; Find and Err name it.
func Lazy(fsys fs.FS, dir string) (*Book, error) {
	ents, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	b := &Book{index: map[key]*results.Record{}, lazy: map[game]func() (*File, error){}, errs: map[game]error{}}
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), Ext) {
			continue
		}
		g, err := gameOf(e.Name())
		if err != nil {
			return nil, fmt.Errorf("book %s: %w", e.Name(), err)
		}
		name := path.Join(dir, e.Name())
		b.lazy[g] = func() (*File, error) { return loadFile(fsys, name) }
	}
	return b, nil
}

// gameOf reads the game from a book file's name (FileName).
func gameOf(name string) (game, error) {
	var pits, seeds int
	var rule string
	base := strings.TrimSuffix(name, Ext)
	if n, err := fmt.Sscanf(strings.Replace(base, "-", " ", 2), "%d %d %s", &pits, &seeds, &rule); n != 3 || err != nil {
		return game{}, fmt.Errorf("not a book file's name (want <pits>-<seeds>-<rule>%s)", Ext)
	}
	c, err := engine.ParseRule(rule)
	if err != nil {
		return game{}, err
	}
	r, err := engine.NewVariant(pits, c)
	if err != nil {
		return game{}, err
	}
	return game{r, seeds}, nil
}

// load reads the file of g if it is still to be read; b.mu is held.
func (b *Book) load(g game) {
	read, ok := b.lazy[g]
	if !ok {
		return
	}
	delete(b.lazy, g)
	f, err := read()
	if err == nil {
		err = b.add(f)
	}
	if err != nil {
		b.errs[g] = fmt.Errorf("book %s: %w", FileName(Header{Pits: g.rules.Pits, Seeds: g.seeds, Rule: g.rules.Rule.String()}), err)
	}
}

// loadAll reads every file still to be read; b.mu is held. Their order
// does not matter: each is the only file of its game.
func (b *Book) loadAll() {
	for g := range b.lazy {
		b.load(g)
	}
}

// Err reads every file still to be read and names those that did not
// hold up (nil when all did).
func (b *Book) Err() error {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.loadAll()
	var errs []error
	for _, err := range b.errs {
		errs = append(errs, err)
	}
	sort.Slice(errs, func(i, j int) bool { return errs[i].Error() < errs[j].Error() })
	return errors.Join(errs...)
}

// Load reads and checks (File.Check) every *.jsonl.gz file of dir in
// fsys. A file that does not hold up is left out of the book and named in
// the error; the others are kept.
func Load(fsys fs.FS, dir string) (*Book, error) {
	ents, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	var files []*File
	var errs []error
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), Ext) {
			continue
		}
		f, err := loadFile(fsys, path.Join(dir, e.Name()))
		if err != nil {
			errs = append(errs, fmt.Errorf("book %s: %w", e.Name(), err))
			continue
		}
		files = append(files, f)
	}
	b, err := New(files...)
	if err != nil {
		return nil, err
	}
	return b, errors.Join(errs...)
}

func loadFile(fsys fs.FS, name string) (*File, error) {
	r, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	f, err := Read(r)
	if err != nil {
		return nil, err
	}
	f.Name = path.Base(name)
	if f.Name != FileName(f.Header) {
		return nil, fmt.Errorf("its header is for %s", FileName(f.Header))
	}
	return f, f.Check()
}

//go:embed data
var embedded embed.FS

var (
	embedOnce sync.Once
	embedBook *Book
	embedErr  error
)

// Embedded is the book built into the binary: the files of book/data
// (Lazy), each read and checked on the first lookup in its game. A file
// that does not hold up answers nothing and is named by Find and Err (the
// tests see to it that none does); the error is for a book/data that
// cannot be listed.
func Embedded() (*Book, error) {
	embedOnce.Do(func() { embedBook, embedErr = Lazy(embedded, "data") })
	return embedBook, embedErr
}

// Files are the book's files, by name (a lazy book reads them all).
func (b *Book) Files() []*File {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.loadAll()
	return slices.Clone(b.files)
}

// File is the book file of Kalah(r.Pits, seeds) under r's rule, nil when
// there is none (or it did not hold up).
func (b *Book) File(r engine.Variant, seeds int) *File {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.load(game{r, seeds})
	for _, f := range b.files {
		if f.Variant == r && f.Seeds == seeds {
			return f
		}
	}
	return nil
}

// Lookup returns the book's record of p under rules r: a copy the caller
// may change.
func (b *Book) Lookup(r engine.Variant, p engine.Position) (*results.Record, bool) {
	rec, ok, _ := b.Find(r, p)
	return rec, ok
}

// Find is Lookup, and the error of the file of p's game when that file
// did not hold up.
func (b *Book) Find(r engine.Variant, p engine.Position) (*results.Record, bool, error) {
	if b == nil {
		return nil, false, nil
	}
	b.mu.Lock()
	var g game
	if total, n := p.Board.Total(), 2*r.Pits; n > 0 && total%n == 0 {
		g = game{r, total / n}
		b.load(g)
	}
	rec, ok := b.index[key{r, p}]
	err := b.errs[g]
	b.mu.Unlock()
	if !ok {
		return nil, false, err
	}
	c := *rec
	c.Moves = slices.Clone(rec.Moves)
	c.Best = slices.Clone(rec.Best)
	c.Openings = slices.Clone(rec.Openings)
	return &c, true, nil
}

// Len is the number of positions the book answers (a lazy book reads
// every file).
func (b *Book) Len() int {
	if b == nil {
		return 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.loadAll()
	return len(b.index)
}
