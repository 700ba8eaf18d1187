package egdb

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/internal/datadir"
	"github.com/kalah-solver/kalah/internal/meminfo"
)

// DefaultDir is the toolkit's endgame-database directory:
// $XDG_DATA_HOME/kalah/egdb, or ~/.local/share/kalah/egdb when
// XDG_DATA_HOME is unset or not absolute.
func DefaultDir() (string, error) { return datadir.Dir("egdb", "--egdb") }

// RuleDir is the subdirectory of dir holding the slices of rules,
// e.g. dir/kalah-m6-no-empty-capture.
func RuleDir(dir string, rules engine.Variant) string {
	return filepath.Join(dir, fmt.Sprintf("kalah-m%d-%v", rules.Pits, rules.Rule))
}

// SlicePath is the file of slice s, e.g. dir/kalah-m6-no-empty-capture/s20.egdb.
func SlicePath(dir string, rules engine.Variant, s int) string {
	return filepath.Join(RuleDir(dir, rules), sliceName(s))
}

// sliceName is the name of slice s's file in its rule's directory, e.g.
// s20.egdb.
func sliceName(s int) string { return fmt.Sprintf("s%d.egdb", s) }

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// Options tune a build.
type Options struct {
	// Threads is the number of build threads; 0 means GOMAXPROCS.
	Threads int
	// Progress, when set, is called from the threads, concurrently, with
	// the number of positions each finished chunk holds.
	Progress func(positions int64)
	// SliceDone, when set, is called after each slice is loaded or built.
	SliceDone func(SliceReport)
	// Encoding of the slices built: EncodingPacked (four bits a position)
	// or EncodingGainByte; 0 means EncodingPacked. Slices loaded from
	// existing files keep theirs.
	Encoding int
	// Available, when set, replaces the reading of the memory available
	// (meminfo.Available) that is checked before each slice is built
	// (SliceMemory, PartsMemory); ok false skips the check.
	Available func() (bytes int64, ok bool)
	// MaxMemory, when positive, is the memory a slice may take while it
	// is built, in place of the memory available.
	MaxMemory int64
	// PartDone, when set, is called after each part of a slice built in
	// parts (BuildDir) is built or found done by an earlier build.
	PartDone func(PartReport)
}

// partsMin is the smallest slice (positions) that BuildDir builds in parts
// when it would fit in memory whole (six pits: slice 22 and up). Smaller
// slices take seconds, and their parts' syncs and renames would be a
// larger share of that than the gain.
var partsMin int64 = 1 << 27

// ErrMemory is the error of a build that stops before a slice because
// the machine has too little memory available to build it.
var ErrMemory = errors.New("not enough memory to build the slice")

// SliceMemory is about how much memory building a slice of n positions
// whole in encoding enc takes: one byte a position while it is computed,
// and the packed copy beside it while it is packed (PartsMemory: built in
// parts). The slices below it take
// none of it when the build writes to a directory (it maps them from
// their files, which the kernel can page out and back in); an in-memory
// Build holds them besides.
func SliceMemory(n int64, enc int) int64 {
	if enc == EncodingGainByte {
		return n
	}
	return n + PackedBytes(n)
}

// memoryBudget is the memory a slice may take while it is built:
// opts.MaxMemory, or the memory available; ok false when there is no
// bound (the memory available is unknown).
func memoryBudget(opts Options) (bytes int64, ok bool) {
	if opts.MaxMemory > 0 {
		return opts.MaxMemory, true
	}
	avail := opts.Available
	if avail == nil {
		avail = meminfo.Available
	}
	return avail()
}

// memoryError is the ErrMemory of slice s (n positions), which needs
// need bytes (in parts: the largest part of part positions) and has
// budget (from opts).
func memoryError(dir string, rules engine.Variant, s int, n, part, need, budget int64, opts Options) error {
	kept := "nothing is kept (an in-memory build)"
	if dir != "" {
		kept = "nothing is lost"
		if s > 0 {
			kept = fmt.Sprintf("slices 0..%d are kept in %s", s-1, RuleDir(dir, rules))
		}
	}
	how := "while it is built"
	if part > 0 {
		how = fmt.Sprintf("while it is built in parts (the largest, %d positions)", part)
	}
	have, fix := memSize(budget)+" is available", "free memory"
	if opts.MaxMemory > 0 {
		have, fix = "the memory budget (--max-memory) is "+memSize(budget), "raise the budget"
	}
	return fmt.Errorf("%w: slice %d (%d positions) needs about %s %s and %s; %s; %s or stop at --max-seeds %d",
		ErrMemory, s, n, memSize(need), how, have, kept, fix, s-1)
}

// memSize writes a memory size in GiB with one decimal, or in MiB below
// 1 GiB.
func memSize(b int64) string {
	if b < 1<<30 {
		return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
}

// SliceReport says what happened to one slice during a build.
type SliceReport struct {
	Seeds     int     `json:"seeds"`
	Positions int64   `json:"positions"`
	Built     bool    `json:"built"` // false: an existing file was loaded
	Seconds   float64 `json:"seconds"`
	Encoding  string  `json:"format"`          // "byte" or "packed"
	Bytes     int64   `json:"bytes"`           // the payload (the file is HeaderSize more)
	Parts     int     `json:"parts,omitempty"` // built in parts: how many (PartDone reports each)
}

// Build computes the slices 0..maxSeeds of rules in memory.
func Build(ctx context.Context, rules engine.Variant, maxSeeds int, opts Options) (*DB, error) {
	return build(ctx, "", rules, maxSeeds, opts)
}

// BuildDir builds the slices 0..maxSeeds of rules in dir (see RuleDir),
// slice by slice: a slice whose file exists is loaded and checked, and the
// others are computed and written, each atomically, so that an interrupted
// build resumes where it stopped. A bad existing file is an error, never
// overwritten. It returns the database, which the caller closes.
//
// A slice of at least 2^27 positions, one that would not fit in the
// memory budget whole (opts.MaxMemory, or the memory available), or one
// that an earlier build left in parts is built in parts (parts.go): each
// part is saved when it is done, so an interrupted slice resumes from its
// last finished part, and the build's memory is the largest part
// (PartsMemory) instead of the slice (SliceMemory). The file is the same
// either way, byte for byte.
func BuildDir(ctx context.Context, dir string, rules engine.Variant, maxSeeds int, opts Options) (*DB, error) {
	if dir == "" {
		return nil, errors.New("BuildDir: no directory")
	}
	return build(ctx, dir, rules, maxSeeds, opts)
}

func build(ctx context.Context, dir string, rules engine.Variant, maxSeeds int, opts Options) (*DB, error) {
	if err := rules.Validate(); err != nil {
		return nil, err
	}
	x, err := NewIndex(rules.Pits, maxSeeds)
	if err != nil {
		return nil, err
	}
	enc := opts.Encoding
	switch enc {
	case 0:
		enc = EncodingPacked
	case EncodingPacked, EncodingGainByte:
	default:
		return nil, fmt.Errorf("unknown encoding %d", enc)
	}
	db := &DB{rules: rules, x: x}
	report := func(rep SliceReport, t *table) {
		if opts.SliceDone != nil {
			rep.Encoding, rep.Bytes = EncodingName(EncodingGainByte), t.size()
			if t.packed {
				rep.Encoding = EncodingName(EncodingPacked)
			}
			opts.SliceDone(rep)
		}
	}
	for s := 0; s <= maxSeeds; s++ {
		start := time.Now()
		rep := SliceReport{Seeds: s, Positions: x.Size(s)}
		if dir != "" {
			loaded, unmap, err := loadSlice(SlicePath(dir, rules, s), rules, s, x.Size(s))
			if err == nil {
				removeParts(dir, rules, s) // left if a build stopped between writing the file and removing them
				db.unmap = append(db.unmap, unmap)
				db.slices = append(db.slices, loaded)
				rep.Seconds = time.Since(start).Seconds()
				report(rep, &loaded)
				continue
			}
			if !errors.Is(err, fs.ErrNotExist) {
				db.Close()
				return nil, err
			}
		}
		n := x.Size(s)
		budget, bounded := memoryBudget(opts)
		whole := SliceMemory(n, enc)
		if dir != "" && n > 0 && (hasParts(dir, rules, s) || n >= partsMin || bounded && whole > budget) {
			if need := PartsMemory(x, s, enc); bounded && need > budget {
				db.Close()
				return nil, memoryError(dir, rules, s, n, largestPart(x, s), need, budget, opts)
			}
			t, unmap, parts, err := buildParts(ctx, dir, rules, x, db.slices, s, enc, opts)
			if err != nil {
				db.Close()
				return nil, err
			}
			db.unmap = append(db.unmap, unmap)
			db.slices = append(db.slices, t)
			rep.Built, rep.Seconds, rep.Parts = true, time.Since(start).Seconds(), parts
			report(rep, &t)
			continue
		}
		if bounded && whole > budget {
			db.Close()
			return nil, memoryError(dir, rules, s, n, 0, whole, budget, opts)
		}
		if dir != "" {
			removeParts(dir, rules, s) // a byte file left without its progress file holds nothing
		}
		data, err := buildSlice(ctx, rules, x, db.slices, s, opts.Threads, opts.Progress)
		t := byteTable(data)
		if err == nil && enc == EncodingPacked {
			t = pack(data)
		}
		if err == nil && dir != "" {
			t, err = writeAndMap(dir, rules, s, t, db)
		}
		if err != nil {
			db.Close()
			return nil, err
		}
		db.slices = append(db.slices, t)
		rep.Built, rep.Seconds = true, time.Since(start).Seconds()
		report(rep, &t)
	}
	return db, nil
}

// remapMin is the smallest slice (in bytes) that writeAndMap reads back
// from its file instead of keeping in memory.
var remapMin int64 = 1 << 20

// writeAndMap writes the slice t to its file in dir and, for a large
// slice, returns the file's mapping in its place (its unmap added to
// db's) and gives the heap copy back to the kernel, so that the slices a
// build has written take no memory of the process's own: the next,
// larger, slice has it all, and the kernel keeps the written ones in its
// page cache as far as memory allows. Reading the file back checks what
// was written (loadSlice's checksum and packed checks). The caller must
// hold no other reference to t's memory.
func writeAndMap(dir string, rules engine.Variant, s int, t table, db *DB) (table, error) {
	path := SlicePath(dir, rules, s)
	if err := writeSlice(path, rules, s, t); err != nil {
		return t, err
	}
	if t.size() < remapMin {
		return t, nil
	}
	m, unmap, err := loadSlice(path, rules, s, t.n)
	if err != nil {
		return t, fmt.Errorf("reading back the slice just written: %w", err)
	}
	db.unmap = append(db.unmap, unmap)
	debug.FreeOSMemory() // t is not used past loadSlice: its heap copy is garbage
	return m, nil
}

// Save writes every slice of db to dir (see RuleDir), each in its
// encoding, replacing files of the same slices.
func (db *DB) Save(dir string) error {
	for s, t := range db.slices {
		if err := writeSlice(SlicePath(dir, db.rules, s), db.rules, s, t); err != nil {
			return err
		}
	}
	return nil
}

// Missing lists the slices among 0..maxSeeds of rules that have no file in
// dir: what BuildDir would compute.
func Missing(dir string, rules engine.Variant, maxSeeds int) []int {
	var out []int
	for s := 0; s <= maxSeeds; s++ {
		if !fileExists(SlicePath(dir, rules, s)) {
			out = append(out, s)
		}
	}
	return out
}
