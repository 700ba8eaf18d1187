package egdb

import (
	"context"
	"os"

	"github.com/kalah-solver/kalah/engine"
)

// FileCheck is the check of one slice file: header, size and payload
// checksum (CheckFile).
type FileCheck struct {
	Seeds  int    `json:"seeds"`
	Path   string `json:"path"`
	Format string `json:"format,omitempty"` // "byte" or "packed", for an intact file
	Bytes  int64  `json:"bytes"`            // the file's size
	Error  string `json:"error,omitempty"`  // empty: intact
}

// DirCheck reports VerifyDir's check of the database of one pit count and
// rule in a directory.
type DirCheck struct {
	Rule  string      `json:"rule"`
	Pits  int         `json:"pits"`
	Dir   string      `json:"dir"`   // RuleDir
	Files []FileCheck `json:"files"` // every slice file found, by seed count
	// Slices are the consistency checks of the slices 0, 1, ... up to the
	// first one missing or bad: only those can be checked against their
	// children.
	Slices     []VerifyResult `json:"slices"`
	BadFiles   int            `json:"bad_files"`
	Checked    int64          `json:"checked"`
	Mismatches int64          `json:"mismatches"`
}

// OK reports whether the database has files, all intact, and no entry
// checked disagrees with its children.
func (c DirCheck) OK() bool { return len(c.Files) > 0 && c.BadFiles == 0 && c.Mismatches == 0 }

// VerifyDir checks the database of rules in dir in two steps. First every
// slice file found: its header against rules and its seed count, its size
// and its payload checksum; a bad file is reported in the result, not
// returned as an error. Then the one-ply consistency (see Verify) of every
// slice from 0 up to the first missing or bad file, all positions or the
// fraction opts.Fraction. opts.Start, when set, is called between the two
// steps with the number of positions the second covers, and opts.Progress
// as Verify calls it.
//
// The error is for what stops the check itself: a directory that cannot be
// read, a cancelled ctx.
func VerifyDir(ctx context.Context, dir string, rules engine.Variant, opts VerifyOptions) (DirCheck, error) {
	c := DirCheck{Rule: rules.Rule.String(), Pits: rules.Pits, Dir: RuleDir(dir, rules), Files: []FileCheck{}, Slices: []VerifyResult{}}
	ss, err := Slices(dir, rules)
	if err != nil {
		return c, err
	}
	good := -1 // slices 0..good are present and intact
	for i, s := range ss {
		fc := FileCheck{Seeds: s, Path: SlicePath(dir, rules, s)}
		if st, err := os.Stat(fc.Path); err == nil {
			fc.Bytes = st.Size()
		}
		if err := CheckFile(dir, rules, s); err != nil {
			fc.Error = err.Error()
			c.BadFiles++
		} else {
			if h, err := ReadHeader(fc.Path); err == nil {
				fc.Format = EncodingName(h.Encoding)
			}
			if s == i && good == s-1 {
				good = s
			}
		}
		c.Files = append(c.Files, fc)
	}
	if good < 0 {
		return c, nil
	}
	db, err := OpenMax(dir, rules, good)
	if err != nil {
		return c, err
	}
	defer db.Close()
	if opts.Start != nil {
		var total int64
		for s := 0; s <= good; s++ {
			total += db.x.Size(s)
		}
		opts.Start(total)
	}
	for s := 0; s <= good; s++ {
		res, err := db.Verify(ctx, s, opts)
		if err != nil {
			return c, err
		}
		c.Slices = append(c.Slices, res)
		c.Checked += res.Checked
		c.Mismatches += res.Mismatches
	}
	return c, nil
}

// Covered is the largest seed count s such that the slices 0..s of rules
// all have a file in dir, -1 when slice 0 has none: the slices Open would
// load, if their files are intact.
func Covered(dir string, rules engine.Variant) int { return covered(dir, rules, engine.MaxSeeds) }

// covered is Covered, at most maxSeeds.
func covered(dir string, rules engine.Variant, maxSeeds int) int {
	s := -1
	for s < maxSeeds && fileExists(SlicePath(dir, rules, s+1)) {
		s++
	}
	return s
}
