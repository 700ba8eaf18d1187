package egdb

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/internal/datadir"
)

// DefaultDir is the toolkit's endgame-database directory:
// $XDG_DATA_HOME/kalah/egdb, or ~/.local/share/kalah/egdb when
// XDG_DATA_HOME is unset or not absolute.
func DefaultDir() (string, error) { return datadir.Dir("egdb", "--egdb") }

// RuleDir is the subdirectory of dir holding the slices of rules,
// e.g. dir/kalah-m6-no-empty-capture.
func RuleDir(dir string, rules engine.Rules) string {
	return filepath.Join(dir, fmt.Sprintf("kalah-m%d-%v", rules.Pits, rules.Capture))
}

// SlicePath is the file of slice s, e.g. dir/kalah-m6-no-empty-capture/s20.egdb.
func SlicePath(dir string, rules engine.Rules, s int) string {
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
	// Threads is the number of workers; 0 means GOMAXPROCS.
	Threads int
	// Progress, when set, is called from the workers, concurrently, with
	// the number of positions each finished chunk holds.
	Progress func(positions int64)
	// SliceDone, when set, is called after each slice is loaded or built.
	SliceDone func(SliceReport)
	// Encoding of the slices built: EncodingPacked (four bits a position)
	// or EncodingGainByte; 0 means EncodingPacked. Slices loaded from
	// existing files keep theirs.
	Encoding int
}

// SliceReport says what happened to one slice during a build.
type SliceReport struct {
	Seeds     int     `json:"seeds"`
	Positions int64   `json:"positions"`
	Built     bool    `json:"built"` // false: an existing file was loaded
	Seconds   float64 `json:"seconds"`
	Encoding  string  `json:"format"` // "byte" or "packed"
	Bytes     int64   `json:"bytes"`  // the payload (the file is HeaderSize more)
}

// Build computes the slices 0..maxSeeds of rules in memory.
func Build(ctx context.Context, rules engine.Rules, maxSeeds int, opts Options) (*DB, error) {
	return build(ctx, "", rules, maxSeeds, opts)
}

// BuildDir builds the slices 0..maxSeeds of rules in dir (see RuleDir),
// slice by slice: a slice whose file exists is loaded and checked, and the
// others are computed and written, each atomically, so that an interrupted
// build resumes where it stopped. A bad existing file is an error, never
// overwritten. It returns the database, which the caller closes.
func BuildDir(ctx context.Context, dir string, rules engine.Rules, maxSeeds int, opts Options) (*DB, error) {
	if dir == "" {
		return nil, errors.New("BuildDir: no directory")
	}
	return build(ctx, dir, rules, maxSeeds, opts)
}

func build(ctx context.Context, dir string, rules engine.Rules, maxSeeds int, opts Options) (*DB, error) {
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
		data, err := buildSlice(ctx, rules, x, db.slices, s, opts.Threads, opts.Progress)
		t := byteTable(data)
		if err == nil && enc == EncodingPacked {
			t = pack(data)
		}
		if err == nil && dir != "" {
			err = writeSlice(SlicePath(dir, rules, s), rules, s, t)
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
func Missing(dir string, rules engine.Rules, maxSeeds int) []int {
	var out []int
	for s := 0; s <= maxSeeds; s++ {
		if !fileExists(SlicePath(dir, rules, s)) {
			out = append(out, s)
		}
	}
	return out
}
