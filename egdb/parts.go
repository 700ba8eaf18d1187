package egdb

// Building a slice in parts. A move that banks nothing (k = 0) keeps the
// mover's a seeds on its side and passes the turn, so its child, seen
// from the new mover, lies in sub-slice s-a of the same slice (index.go:
// the positions whose mover holds s-a seeds, one range of ranks); every
// other move's child lies in a lower slice or ends the game. The pair of
// sub-slices {a, s-a} is therefore closed under same-slice moves, and
// once the lower slices are complete each pair can be built on its own.
// Pairs are grouped into parts, in increasing a, as long as a part stays
// no larger than the largest pair (six pits: 13.5 % of slice 34, 1.37 G
// positions).
//
// The entries of the part under way are held in an arena (arena_linux.go:
// memory for that part only, indexed by rank). A finished part is written
// to the slice's byte file, s<s>.bytes.tmp (one byte a position, at its
// ranks), synced, and recorded with the checksum of each of its pairs in
// the progress file s<s>.parts.json (written atomically), and its memory
// is given back. A build that finds the progress file resumes: it checks
// it and the byte file (slice, size, rule, pits, format, and the recorded
// pairs' checksums) and builds the parts not recorded. When every part is
// done the byte file is packed, a batch at a time, into s<s>.egdb
// (writeSliceFrom: the same bytes as a slice built whole), and the two
// temporary files are removed.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/cespare/xxhash/v2"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/internal/outfile"
)

// partsFormat names the layout of the progress file and the byte file.
const partsFormat = "kalah-egdb-parts 1"

// bytesName and progressName are the temporary files of slice s built in
// parts, in its rule's directory.
func bytesName(s int) string    { return fmt.Sprintf("s%d.bytes.tmp", s) }
func progressName(s int) string { return fmt.Sprintf("s%d.parts.json", s) }

// PartReport says what happened to one part of a slice built in parts.
type PartReport struct {
	Seeds     int     `json:"seeds"` // the slice
	Part      int     `json:"part"`  // 0..Parts-1
	Parts     int     `json:"parts"`
	Movers    []int   `json:"movers"` // its sub-slices: the seeds of the side to move
	Positions int64   `json:"positions"`
	Built     bool    `json:"built"` // false: recorded as done by an earlier run
	Seconds   float64 `json:"seconds"`
}

// pairSize is the number of positions of the pair of sub-slices a and
// s-a (one sub-slice when a = s-a).
func pairSize(x *Index, s, a int) int64 {
	sp := x.subSlice(s, a)
	if 2*a == s {
		return sp.hi - sp.lo
	}
	return 2 * (sp.hi - sp.lo)
}

// planParts groups the pairs of slice s (named by a = 1..s/2) into parts:
// consecutive pairs while the part stays no larger than the largest pair.
func planParts(x *Index, s int) [][]int {
	var largest int64
	for a := 1; 2*a <= s; a++ {
		largest = max(largest, pairSize(x, s, a))
	}
	var parts [][]int
	var size int64
	for a := 1; 2*a <= s; a++ {
		n := pairSize(x, s, a)
		if len(parts) == 0 || size+n > largest {
			parts = append(parts, nil)
			size = 0
		}
		parts[len(parts)-1] = append(parts[len(parts)-1], a)
		size += n
	}
	return parts
}

// movers is the sub-slices of the pairs as: each a and s-a, increasing.
func movers(s int, as []int) []int {
	var out []int
	for _, a := range as {
		out = append(out, a)
		if 2*a != s {
			out = append(out, s-a)
		}
	}
	slices.Sort(out)
	return out
}

// spansOf is the ranks of the pairs as of slice s, adjacent sub-slices
// merged.
func spansOf(x *Index, s int, as []int) []span {
	var out []span
	for _, b := range movers(s, as) {
		sp := x.subSlice(s, b)
		if k := len(out) - 1; k >= 0 && out[k].hi == sp.lo {
			out[k].hi = sp.hi
		} else {
			out = append(out, sp)
		}
	}
	return out
}

// PartsMemory is about how much memory building slice s in parts takes
// (x must rank it): its largest part at one byte a position while the
// part is computed, or, while the parts are packed into the slice's file
// in encoding enc, a batch of entries and their lines (writeBatchLines)
// and the exception list (allowing for 3 % of the positions); whichever
// is more. The slices below take none of it (see SliceMemory).
func PartsMemory(x *Index, s, enc int) int64 {
	var part int64
	for _, as := range planParts(x, s) {
		var n int64
		for _, sp := range spansOf(x, s, as) {
			n += sp.hi - sp.lo + 2*int64(os.Getpagesize())
		}
		part = max(part, n)
	}
	n := x.Size(s)
	write := min(n, writeBatchLines(x, s)*perLine) * 3 / 2
	if enc != EncodingGainByte {
		write += excSize * n / 32
	}
	return max(part, write)
}

// writeBatchLines is the lines packed at a time when the parts of slice
// s are written into its file: at most writeBatch, and the entries of at
// most half the largest part.
func writeBatchLines(x *Index, s int) int64 {
	return min(writeBatch, max(1, largestPart(x, s)/(2*perLine)))
}

// largestPart is the positions of the largest part of slice s.
func largestPart(x *Index, s int) int64 {
	var n int64
	for _, as := range planParts(x, s) {
		n = max(n, pairsSize(x, s, as))
	}
	return n
}

// partsProgress is the progress file of a slice built in parts.
type partsProgress struct {
	Format    string     `json:"format"` // partsFormat
	Pits      int        `json:"pits"`
	Rule      string     `json:"rule"`
	Seeds     int        `json:"seeds"`
	Positions int64      `json:"positions"`
	Done      []donePair `json:"done"`
}

// donePair records a pair of sub-slices written to the byte file.
type donePair struct {
	Mover int    `json:"mover"` // a: sub-slices a and s-a
	Sum   string `json:"xxh64"` // of their entries, sub-slice a's first, in hex
}

// partsBuild is the state of a slice being built in parts.
type partsBuild struct {
	bytesPath, progressPath string
	x                       *Index
	s                       int
	f                       *os.File // the byte file
	prog                    partsProgress
}

// pairSum is the checksum of the entries of pair a, read by read
// (read(p, r): the entries of ranks r.. into p).
func pairSum(x *Index, s, a int, read func(p []byte, r int64) error) (uint64, error) {
	d := xxhash.New()
	buf := make([]byte, 1<<22)
	for _, b := range []int{a, s - a} {
		if b == s-a && 2*a == s {
			break
		}
		sp := x.subSlice(s, b)
		for r := sp.lo; r < sp.hi; r += int64(len(buf)) {
			p := buf[:min(int64(len(buf)), sp.hi-r)]
			if err := read(p, r); err != nil {
				return 0, err
			}
			d.Write(p)
		}
	}
	return d.Sum64(), nil
}

// openParts starts slice s in parts in dir, or resumes it: when the
// progress file exists it must match the slice and the byte file must
// hold the pairs it records; anything else is an error that names the
// file, never a silent restart.
func openParts(dir string, rules engine.Variant, x *Index, s int) (*partsBuild, error) {
	rd := RuleDir(dir, rules)
	n := x.Size(s)
	pb := &partsBuild{bytesPath: filepath.Join(rd, bytesName(s)), progressPath: filepath.Join(rd, progressName(s)), x: x, s: s}
	anew := fmt.Sprintf("remove it and %s to build slice %d anew", pb.bytesPath, s)
	b, err := os.ReadFile(pb.progressPath)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(rd, 0o755); err != nil {
			return nil, err
		}
		// A byte file without a progress file holds nothing recorded.
		f, err := os.OpenFile(pb.bytesPath, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			return nil, err
		}
		if err := f.Truncate(n); err != nil {
			f.Close()
			return nil, err
		}
		pb.f = f
		pb.prog = partsProgress{Format: partsFormat, Pits: rules.Pits, Rule: rules.Rule.String(), Seeds: s, Positions: n, Done: []donePair{}}
		return pb, nil
	}
	if err != nil {
		return nil, err
	}
	p := &pb.prog
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(p); err != nil {
		return nil, fmt.Errorf("%s: %w: %v; %s", pb.progressPath, ErrCorrupt, err, anew)
	}
	if p.Format != partsFormat || p.Pits != rules.Pits || p.Rule != rules.Rule.String() || p.Seeds != s || p.Positions != n {
		return nil, fmt.Errorf("%s: %w: records %q, slice %d of %d pits %s, %d positions; want %q, slice %d of %v, %d positions; %s",
			pb.progressPath, ErrMismatch, p.Format, p.Seeds, p.Pits, p.Rule, p.Positions, partsFormat, s, rules, n, anew)
	}
	f, err := os.OpenFile(pb.bytesPath, os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: its byte file: %v; %s", pb.progressPath, ErrCorrupt, err, anew)
	}
	pb.f = f
	fail := func(format string, a ...any) (*partsBuild, error) {
		f.Close()
		return nil, fmt.Errorf(format, a...)
	}
	if st, err := f.Stat(); err != nil {
		return fail("%s: %w", pb.bytesPath, err)
	} else if st.Size() != n {
		return fail("%s: %w: %d bytes, slice %d has %d positions; remove it and %s to build slice %d anew", pb.bytesPath, ErrCorrupt, st.Size(), s, n, pb.progressPath, s)
	}
	seen := map[int]bool{}
	for _, d := range p.Done {
		want, err := strconv.ParseUint(d.Sum, 16, 64)
		if d.Mover < 1 || 2*d.Mover > s || seen[d.Mover] || err != nil {
			return fail("%s: %w: bad record of sub-slices %d and %d (%q); %s", pb.progressPath, ErrCorrupt, d.Mover, s-d.Mover, d.Sum, anew)
		}
		seen[d.Mover] = true
		got, err := pairSum(x, s, d.Mover, pb.readAt)
		if err != nil {
			return fail("%s: %w", pb.bytesPath, err)
		}
		if got != want {
			return fail("%s: %w: sub-slices %d and %d: checksum %016x, %s records %016x; remove both files to build slice %d anew",
				pb.bytesPath, ErrCorrupt, d.Mover, s-d.Mover, got, pb.progressPath, want, s)
		}
	}
	return pb, nil
}

// readAt reads the entries of ranks r.. from the byte file into p.
func (pb *partsBuild) readAt(p []byte, r int64) error {
	_, err := pb.f.ReadAt(p, r)
	return err
}

// done reports whether pair a is recorded.
func (pb *partsBuild) done(a int) bool {
	return slices.ContainsFunc(pb.prog.Done, func(d donePair) bool { return d.Mover == a })
}

// save writes the pairs as, computed in ar, to the byte file, syncs it,
// and records them in the progress file.
func (pb *partsBuild) save(ar *arena, as []int, spans []span) error {
	mem := ar.bytes()
	for _, sp := range spans {
		if _, err := pb.f.WriteAt(mem[sp.lo:sp.hi], sp.lo); err != nil {
			return err
		}
	}
	if err := pb.f.Sync(); err != nil {
		return err
	}
	for _, sp := range spans {
		dropRange(pb.f, sp.lo, sp.hi-sp.lo)
	}
	prog := pb.prog
	prog.Done = slices.Clone(prog.Done)
	for _, a := range as {
		sum, _ := pairSum(pb.x, pb.s, a, func(p []byte, r int64) error {
			copy(p, mem[r:])
			return nil
		})
		prog.Done = append(prog.Done, donePair{Mover: a, Sum: fmt.Sprintf("%016x", sum)})
	}
	b, err := json.MarshalIndent(prog, "", "\t")
	if err != nil {
		return err
	}
	if err := outfile.Write(pb.progressPath, func(w io.Writer) error {
		_, err := w.Write(append(b, '\n'))
		return err
	}); err != nil {
		return err
	}
	pb.prog = prog
	return nil
}

// removeParts removes the temporary files of slice s built in parts,
// if any.
func removeParts(dir string, rules engine.Variant, s int) {
	os.Remove(filepath.Join(RuleDir(dir, rules), progressName(s)))
	os.Remove(filepath.Join(RuleDir(dir, rules), bytesName(s)))
}

// hasParts reports whether slice s has a progress file: an earlier build
// of it in parts to resume.
func hasParts(dir string, rules engine.Variant, s int) bool {
	return fileExists(filepath.Join(RuleDir(dir, rules), progressName(s)))
}

// buildParts builds slice s in dir in parts, resuming from the parts an
// earlier build recorded, writes its file in encoding enc and returns
// the file's mapping (see loadSlice) and the number of parts.
func buildParts(ctx context.Context, dir string, rules engine.Variant, x *Index, lower []table, s, enc int, opts Options) (table, func() error, int, error) {
	pb, err := openParts(dir, rules, x, s)
	if err != nil {
		return table{}, nil, 0, err
	}
	defer func() {
		if pb.f != nil {
			pb.f.Close()
		}
	}()
	n := x.Size(s)
	ar, err := newArena(n)
	if err != nil {
		return table{}, nil, 0, fmt.Errorf("reserving %d bytes for slice %d: %w", n, s, err)
	}
	defer ar.close()
	plan := planParts(x, s)
	for i, as := range plan {
		rep := PartReport{Seeds: s, Part: i, Parts: len(plan), Movers: movers(s, as)}
		for _, a := range as {
			rep.Positions += pairSize(x, s, a)
		}
		todo := slices.DeleteFunc(slices.Clone(as), pb.done)
		if len(todo) == 0 {
			if opts.Progress != nil {
				opts.Progress(rep.Positions)
			}
			if opts.PartDone != nil {
				opts.PartDone(rep)
			}
			continue
		}
		if err := ctx.Err(); err != nil {
			return table{}, nil, 0, err
		}
		start := time.Now()
		spans := spansOf(x, s, todo)
		if err := ar.open(spans); err != nil {
			return table{}, nil, 0, fmt.Errorf("slice %d, part %d: %w", s, i, err)
		}
		fillUnknown(ar.words, spans)
		err := runSpans(ctx, rules, x, lower, s, ar.words, spans, opts.Threads, opts.Progress)
		if err == nil {
			err = pb.save(ar, todo, spans)
		}
		if rerr := ar.release(spans); err == nil {
			err = rerr
		}
		if err != nil {
			return table{}, nil, 0, err
		}
		if skipped := rep.Positions - pairsSize(x, s, todo); skipped > 0 && opts.Progress != nil {
			opts.Progress(skipped)
		}
		rep.Built, rep.Seconds = true, time.Since(start).Seconds()
		if opts.PartDone != nil {
			opts.PartDone(rep)
		}
	}
	if err := ctx.Err(); err != nil {
		return table{}, nil, 0, err
	}
	path := SlicePath(dir, rules, s)
	read := func(p []byte, r int64) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		return pb.readAt(p, r)
	}
	if err := writeSliceFrom(path, rules, s, n, enc, writeBatchLines(x, s), read); err != nil {
		return table{}, nil, 0, err
	}
	pb.f.Close()
	pb.f = nil
	removeParts(dir, rules, s)
	t, unmap, err := loadSlice(path, rules, s, n)
	if err != nil {
		return table{}, nil, 0, fmt.Errorf("reading back the slice just written: %w", err)
	}
	return t, unmap, len(plan), nil
}

// pairsSize is the positions of the pairs as.
func pairsSize(x *Index, s int, as []int) int64 {
	var n int64
	for _, a := range as {
		n += pairSize(x, s, a)
	}
	return n
}
