package book_test

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/book"
	"github.com/kalah-solver/kalah/egdb"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/results"
)

// The games whose book is built in, and the least depth each must have.
var builtIn = []struct {
	rule         engine.Rule
	seeds, plies int
}{
	{engine.NoEmptyCapture, 4, 5},
	{engine.EmptyCapture, 4, 5},
}

func embedded(t *testing.T) *book.Book {
	t.Helper()
	b, err := book.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Err(); err != nil { // every file read, and each holds up
		t.Fatal(err)
	}
	return b
}

// complete checks that b answers every position within f's plies of its
// start with a record that holds up for the position, and nothing else of
// f's game.
func complete(b *book.Book, f *book.File) error {
	n := 0
	for _, lv := range book.Levels(f.Variant, f.Start, f.Plies) {
		for _, p := range lv {
			rec, ok := b.Lookup(f.Variant, p)
			if !ok {
				return fmt.Errorf("%s: %v %v is missing", f.Name, p, p.ToMove)
			}
			if err := rec.CheckPosition(f.Variant, p); err != nil {
				return fmt.Errorf("%s: %v %v: %w", f.Name, p, p.ToMove, err)
			}
			n++
		}
	}
	if n != len(f.Records) {
		return fmt.Errorf("%s: %d records, %d positions within %d plies", f.Name, len(f.Records), n, f.Plies)
	}
	return nil
}

// consistent checks, with no search, that every record of f agrees with
// the book's records of the positions its moves lead to: a move's value
// is the child's value when the mover moves again, minus it when the turn
// passes, the final store difference when the game ends; and the
// position's value is its best move's.
func consistent(b *book.Book, f *book.File) error {
	checked := 0
	for _, rec := range f.Records {
		side, err := engine.ParseSide(rec.ToMove)
		if err != nil {
			return err
		}
		p, err := engine.ParsePosition(rec.Position, side)
		if err != nil {
			return err
		}
		best := -1 << 30
		for _, m := range rec.Moves {
			best = max(best, m.Value)
			c, res := f.Variant.PlayPosition(p, m.Pit-1)
			if m.ExtraTurn != res.Extra() {
				return fmt.Errorf("%s: %s %s: move %s: extra_turn %v", f.Name, rec.Position, rec.ToMove, m.Move, m.ExtraTurn)
			}
			want, known := 0, true
			if res.Over() {
				want = c.Board.StoreDiff()
			} else if cr, ok := b.Lookup(f.Variant, c); !ok {
				known = false
			} else if c.ToMove == p.ToMove {
				want = cr.Value
			} else {
				want = -cr.Value
			}
			if !known {
				continue
			}
			checked++
			if m.Value != want {
				return fmt.Errorf("%s: %s %s: move %s is worth %+d, its child %+d", f.Name, rec.Position, rec.ToMove, m.Move, m.Value, want)
			}
		}
		if len(rec.Moves) == 0 || best != rec.Value {
			return fmt.Errorf("%s: %s %s: value %+d, best move %+d", f.Name, rec.Position, rec.ToMove, rec.Value, best)
		}
	}
	if f.Plies > 0 && checked == 0 {
		return fmt.Errorf("%s: no move's child is in the book", f.Name)
	}
	return nil
}

var commit = regexp.MustCompile(`^[0-9a-f]{40}$`)

// provenance checks that each record says how it was made: by a build of
// a clean commit, on a date, with its cost.
func provenance(f *book.File) error {
	for _, rec := range f.Records {
		if !commit.MatchString(rec.VCSRevision) {
			return fmt.Errorf("%s: %s %s: made by revision %q, not a clean commit", f.Name, rec.Position, rec.ToMove, rec.VCSRevision)
		}
		if _, err := time.Parse("2006-01-02", rec.Date); err != nil {
			return fmt.Errorf("%s: %s %s: date %q", f.Name, rec.Position, rec.ToMove, rec.Date)
		}
		if rec.Nodes <= 0 || rec.Seconds < 0 || rec.Threads < 1 || rec.TableSize <= 0 || rec.EGDBSeeds < -1 || rec.Go == "" || rec.CPU == "" {
			return fmt.Errorf("%s: %s %s: cost %d nodes, %g s, %d threads, table %d, egdb %d, go %q, cpu %q",
				f.Name, rec.Position, rec.ToMove, rec.Nodes, rec.Seconds, rec.Threads, rec.TableSize, rec.EGDBSeeds, rec.Go, rec.CPU)
		}
	}
	return nil
}

// verify is every check of one file with no search.
func verify(b *book.Book, f *book.File) error {
	if err := f.Check(); err != nil {
		return err
	}
	if err := complete(b, f); err != nil {
		return err
	}
	return consistent(b, f)
}

// The built-in book loads, holds each game of builtIn at least as deep
// as listed, and holds up: every position within its plies is there once
// with a sound record, the records agree with each other, and each says
// how it was made.
func TestEmbedded(t *testing.T) {
	b := embedded(t)
	for _, g := range builtIn {
		r := engine.Variant{Pits: 6, Rule: g.rule}
		f := b.File(r, g.seeds)
		if f == nil {
			t.Errorf("no built-in book of Kalah(6,%d) %s", g.seeds, g.rule)
			continue
		}
		if f.Plies < g.plies {
			t.Errorf("%s: %d plies, want at least %d", f.Name, f.Plies, g.plies)
		}
	}
	total := 0
	for _, f := range b.Files() {
		if f.Name != book.FileName(f.Header) {
			t.Errorf("%s: header for %s", f.Name, book.FileName(f.Header))
		}
		if err := verify(b, f); err != nil {
			t.Error(err)
		}
		if err := provenance(f); err != nil {
			t.Error(err)
		}
		total += len(f.Records)
		t.Logf("%s: %d plies, %d positions", f.Name, f.Plies, len(f.Records))
	}
	if b.Len() != total {
		t.Errorf("the book answers %d positions, its files hold %d", b.Len(), total)
	}
}

// Lookup hands out copies: changing one changes nothing in the book.
func TestLookupCopies(t *testing.T) {
	b := embedded(t)
	f := b.Files()[0]
	rec, ok := b.Lookup(f.Variant, f.Start)
	if !ok {
		t.Fatal("no record of the start")
	}
	v := rec.Value
	rec.Value += 2
	rec.Moves[0].Value += 2
	again, _ := b.Lookup(f.Variant, f.Start)
	if again.Value != v || again.Moves[0].Value == rec.Moves[0].Value {
		t.Error("Lookup shares the book's record")
	}
	if _, ok := b.Lookup(engine.Variant{Pits: 5, Rule: f.Variant.Rule}, f.Start); ok {
		t.Error("a record under other rules")
	}
}

// clone copies a book file deeply, through its file form.
func clone(t *testing.T, f *book.File) *book.File {
	t.Helper()
	var buf bytes.Buffer
	if err := book.Write(&buf, f); err != nil {
		t.Fatal(err)
	}
	c, err := book.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	c.Name = f.Name
	return c
}

// The checks can fail: each corruption of a record, or of the file, is
// caught (by Check and by the tests' own checks), while the file written
// and read back unchanged passes.
func TestCorruptionCaught(t *testing.T) {
	b := embedded(t)
	if len(b.Files()) == 0 {
		t.Fatal("no built-in book")
	}
	f := b.Files()[0]
	nonBest := func(rec *results.Record) int {
		for i, m := range rec.Moves {
			if m.Value < rec.Value-2 {
				return i
			}
		}
		t.Fatalf("%s %s: no move worse than the best by more than 2", rec.Position, rec.ToMove)
		return -1
	}
	last := len(f.Records) - 1
	cases := []struct {
		name    string
		corrupt func(f *book.File)
	}{
		{"a move's value, below the best", func(f *book.File) { f.Records[0].Moves[nonBest(f.Records[0])].Value += 2 }},
		{"the value and the best moves", func(f *book.File) {
			rec := f.Records[last]
			for i := range rec.Moves {
				if rec.Moves[i].Value == rec.Value {
					rec.Moves[i].Value += 2
				}
			}
			rec.Value += 2
			rec.Result = results.Outcome(rec.Value)
		}},
		{"a deep record's value and every move's", func(f *book.File) {
			rec := f.Records[last]
			for i := range rec.Moves {
				rec.Moves[i].Value -= 2
			}
			rec.Value -= 2
			rec.Result = results.Outcome(rec.Value)
		}},
		{"a record missing", func(f *book.File) {
			f.Records = append(f.Records[:1:1], f.Records[2:]...)
			f.Positions--
		}},
		{"a record for another position", func(f *book.File) { f.Records[1].Position = f.Records[2].Position }},
		{"an extra turn flag", func(f *book.File) {
			for i := range f.Records[0].Moves {
				f.Records[0].Moves[i].ExtraTurn = !f.Records[0].Moves[i].ExtraTurn
			}
		}},
		{"a book deeper than its records", func(f *book.File) { f.Plies++ }},
	}
	if err := verify(b, clone(t, f)); err != nil {
		t.Fatalf("unchanged: %v", err)
	}
	for _, c := range cases {
		g := clone(t, f)
		c.corrupt(g)
		if err := g.Check(); err == nil {
			t.Errorf("%s: Check passes", c.name)
		}
		gb, err := book.New(g)
		if err != nil {
			continue
		}
		if err := complete(gb, g); err == nil {
			if err := consistent(gb, g); err == nil {
				t.Errorf("%s: the tests' checks pass", c.name)
			}
		}
	}
	// A provenance of an uncommitted tree is refused.
	g := clone(t, f)
	g.Records[3].VCSRevision += "+dirty"
	if provenance(g) == nil {
		t.Error("a dirty revision passes")
	}
	// A file cut short or of another format does not read.
	var buf bytes.Buffer
	book.Write(&buf, f)
	if _, err := book.Read(bytes.NewReader(buf.Bytes()[:buf.Len()/2])); err == nil {
		t.Error("a file cut in half reads")
	}
	h := f.Header
	h.Format = 2
	buf.Reset()
	book.Write(&buf, &book.File{Header: h, Variant: f.Variant, Start: f.Start})
	if _, err := book.Read(&buf); err == nil {
		t.Error("a file of format 2 reads")
	}
}

// seedsOnBoard is the seeds in the pits of a record's position.
func seedsOnBoard(t *testing.T, rec *results.Record) int {
	side, _ := engine.ParseSide(rec.ToMove)
	p, err := engine.ParsePosition(rec.Position, side)
	if err != nil {
		t.Fatal(err)
	}
	return p.Board.Seeds()
}

// The book agrees with the solver. The short suite proves the value of
// the cheapest position of the built-in book (the fewest seeds on the
// board, then the fewest nodes in its record) on one thread, with a
// 14-seed database built here: about 6 CPU seconds. The long one also
// solves, for each game, the cheapest other position with every move's
// value and proves the start's value (about two minutes more).
func TestAgainstSolver(t *testing.T) {
	b := embedded(t)
	type cand struct {
		f   *book.File
		rec *results.Record
		n   int
	}
	var all []cand
	for _, f := range b.Files() {
		for _, rec := range f.Records {
			all = append(all, cand{f, rec, seedsOnBoard(t, rec)})
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].n != all[j].n {
			return all[i].n < all[j].n
		}
		return all[i].rec.Nodes < all[j].rec.Nodes
	})
	type check struct {
		cand
		every bool // every move's value, not only the value
	}
	checks := []check{{all[0], false}}
	if !testing.Short() {
		seen := map[*book.File]bool{}
		for _, c := range all[1:] {
			if !seen[c.f] {
				seen[c.f] = true
				checks = append(checks, check{c, true})
			}
		}
		for _, f := range b.Files() {
			checks = append(checks, check{cand{f, f.Records[0], f.Start.Board.Seeds()}, false})
		}
	}
	dir := t.TempDir()
	for _, c := range checks {
		t0 := time.Now()
		if _, err := egdb.BuildDir(context.Background(), dir, c.f.Variant, dbSeeds, egdb.Options{Threads: 1}); err != nil {
			t.Fatal(err)
		}
		built := time.Since(t0)
		k, err := kalah.Open(kalah.Config{Pits: c.f.Pits, Seeds: c.f.Seeds, Rule: c.f.Variant.Rule, Threads: 1,
			TableSize: 64 << 20, EGDBDir: dir, NoCache: true, NoBook: true})
		if err != nil {
			t.Fatal(err)
		}
		side, _ := engine.ParseSide(c.rec.ToMove)
		p, err := engine.ParsePosition(c.rec.Position, side)
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("%s: %s %s", c.f.Name, c.rec.Position, c.rec.ToMove)
		if c.every {
			solveEveryMove(t, k, name, p, c.rec)
		} else {
			proveValue(t, k, name, p, c.rec)
		}
		k.Close()
		t.Logf("%s (%d seeds on the board, every move %v): %+d; database %v, solve %v", name, c.n, c.every, c.rec.Value,
			built.Round(time.Millisecond), (time.Since(t0) - built).Round(time.Millisecond))
	}
}

// proveValue proves the record's value with the two null-window tests that
// pin it down when the first window is right: the value is at least the
// record's, and not more.
func proveValue(t *testing.T, k *kalah.Session, name string, p engine.Position, rec *results.Record) {
	t.Helper()
	gamma := rec.Value - p.Board.StoreDiff() // the value relative to the stores
	lo, _, err := k.NullWindow(context.Background(), p.Board, gamma)
	if err != nil {
		t.Fatal(err)
	}
	hi, _, err := k.NullWindow(context.Background(), p.Board, gamma+1)
	if err != nil {
		t.Fatal(err)
	}
	if lo < gamma || hi >= gamma+1 {
		t.Errorf("%s: the book says %+d; the solver proves the value %s %+d and %s %+d", name, rec.Value,
			bound(lo, gamma), p.Board.StoreDiff()+lo, bound(hi, gamma+1), p.Board.StoreDiff()+hi)
	}
}

// solveEveryMove solves p with every move's value and compares them all.
func solveEveryMove(t *testing.T, k *kalah.Session, name string, p engine.Position, rec *results.Record) {
	t.Helper()
	res, err := k.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if res.FromCache || res.Value != rec.Value || len(res.Moves) != len(rec.Moves) {
		t.Fatalf("%s: the book says %+d, the solver %+d (%d moves, from the cache %v)", name, rec.Value, res.Value, len(res.Moves), res.FromCache)
	}
	for j, m := range res.Moves {
		if m.Value != rec.Moves[j].Value {
			t.Errorf("%s: move %s: the book says %+d, the solver %+d", name, m.Move, rec.Moves[j].Value, m.Value)
		}
	}
}

// bound names what a fail-soft null-window test of gamma proved.
func bound(v, gamma int) string {
	if v >= gamma {
		return ">="
	}
	return "<="
}

// dbSeeds is the depth of the database TestAgainstSolver builds.
const dbSeeds = 14

// TestLazy: a lazy book reads a file on the first lookup in its game, a
// file that does not hold up answers nothing and is named by Find for its
// own game only and by Err, and the other files still answer.
func TestLazy(t *testing.T) {
	good := embedded(t).Files()[0]
	var buf bytes.Buffer
	if err := book.Write(&buf, good); err != nil {
		t.Fatal(err)
	}
	other := engine.Variant{Pits: good.Variant.Pits, Rule: 1 - good.Variant.Rule}
	otherName := book.FileName(book.Header{Pits: other.Pits, Seeds: good.Seeds, Rule: other.Rule.String()})
	fsys := fstest.MapFS{
		"d/" + good.Name: {Data: buf.Bytes()},
		"d/" + otherName: {Data: []byte("not gzip")},
	}
	b, err := book.Lazy(fsys, "d")
	if err != nil {
		t.Fatal(err)
	}
	// Another game's lookup reads neither file.
	small, _ := engine.NewVariant(3, good.Variant.Rule)
	p3, _ := small.StartPosition(3)
	if _, ok, err := b.Find(small, p3); ok || err != nil {
		t.Fatalf("Kalah(3,3): %v %v, want nothing", ok, err)
	}
	rec, ok, err := b.Find(good.Variant, good.Start)
	if !ok || err != nil || rec.Value != good.Records[0].Value {
		t.Fatalf("the good file's start: %v %v", ok, err)
	}
	ostart, _ := other.StartPosition(good.Seeds)
	if _, ok, err := b.Find(other, ostart); ok || err == nil || !strings.Contains(err.Error(), otherName) {
		t.Fatalf("the bad file's start: %v, error %v; want its name", ok, err)
	}
	if err := b.Err(); err == nil || !strings.Contains(err.Error(), otherName) {
		t.Errorf("Err: %v, want the bad file named", err)
	}
	if n := b.Len(); n != len(good.Records) {
		t.Errorf("Len %d, want %d", n, len(good.Records))
	}
	if _, err := book.Lazy(fstest.MapFS{"d/x" + book.Ext: {Data: buf.Bytes()}}, "d"); err == nil {
		t.Error("a file whose name is not a game's: no error")
	}
}
