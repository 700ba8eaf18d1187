package results

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kalah-solver/kalah/internal/outfile"
)

// DefaultDir is where the committed records live, relative to the
// repository root.
const DefaultDir = "results/data"

// Archive is a directory of result files, one JSON Lines file per rule
// (<dir>/<rule>.jsonl, e.g. results/data/empty-capture.jsonl), each
// sorted by pits then seeds with one record per line, so that files are
// deterministic and diffs are clean.
type Archive struct{ Dir string }

// Path is the file of one rule.
func (s Archive) Path(rule string) string { return filepath.Join(s.Dir, rule+".jsonl") }

// Load reads the records of one rule; a missing file is no records.
func (s Archive) Load(rule string) ([]Record, error) {
	recs, err := ReadFile(s.Path(rule))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	for _, r := range recs {
		if r.Rule != rule {
			return nil, fmt.Errorf("%s: a %s record in the %s file", s.Path(rule), r.Rule, rule)
		}
	}
	return recs, err
}

// Get returns the record of one cell, if stored.
func (s Archive) Get(rule string, pits, seeds int) (*Record, error) {
	recs, err := s.Load(rule)
	if err != nil {
		return nil, err
	}
	for i := range recs {
		if recs[i].Pits == pits && recs[i].Seeds == seeds {
			return &recs[i], nil
		}
	}
	return nil, nil
}

// Put merges recs into their rules' files (replacing records of the same
// cells), rewrites each file atomically, and drops the cells it solves
// from the open cells (see Open). A record that completes an open cell
// with answers from the cache (CacheHits), and says nothing of earlier
// runs yet, gets the open cell's runs as its Earlier, unless they were a
// campaign's (whose record carries its totals).
func (s Archive) Put(recs ...Record) error {
	open, err := s.LoadOpen()
	if err != nil {
		return err
	}
	recs = slices.Clone(recs)
	for i := range recs {
		r := &recs[i]
		j := slices.IndexFunc(open, func(o Open) bool { return o.Rule == r.Rule && o.Pits == r.Pits && o.Seeds == r.Seeds })
		if j < 0 || r.CacheHits == 0 || r.Earlier != nil || open[j].Campaign != "" || !open[j].Cache {
			continue
		}
		o := open[j]
		r.Earlier = &EarlierRuns{Runs: o.Runs, Nodes: o.Nodes, Seconds: o.Seconds, EGDBSeeds: o.EGDBSeeds, EGDBSeedsLeast: o.EGDBSeedsLeast}
	}
	byRule := map[string][]Record{}
	for _, r := range recs {
		byRule[r.Rule] = append(byRule[r.Rule], r)
	}
	for rule, add := range byRule {
		old, err := s.Load(rule)
		if err != nil {
			return err
		}
		if err := WriteFile(s.Path(rule), Merge(old, add)); err != nil {
			return err
		}
	}
	return s.dropOpen(open, recs)
}

// Merge returns old with the records of add, a record of add replacing one
// of old for the same rule, pits and seeds, sorted (see Sort).
func Merge(old, add []Record) []Record {
	type cell struct {
		rule        string
		pits, seeds int
	}
	idx := map[cell]int{}
	out := make([]Record, 0, len(old)+len(add))
	for _, list := range [][]Record{old, add} {
		for _, r := range list {
			k := cell{r.Rule, r.Pits, r.Seeds}
			if i, ok := idx[k]; ok {
				out[i] = r
				continue
			}
			idx[k] = len(out)
			out = append(out, r)
		}
	}
	Sort(out)
	return out
}

// Sort orders records by rule, then pits, then seeds.
func Sort(recs []Record) {
	slices.SortStableFunc(recs, func(a, b Record) int {
		switch {
		case a.Rule != b.Rule:
			if a.Rule < b.Rule {
				return -1
			}
			return 1
		case a.Pits != b.Pits:
			return a.Pits - b.Pits
		}
		return a.Seeds - b.Seeds
	})
}

// ReadFile reads a JSON Lines file of records, refusing unknown fields and
// naming the line of any error.
func ReadFile(path string) ([]Record, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return readLines[Record](path, data)
}

func readLines[T any](path string, data []byte) ([]T, error) {
	var out []T
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 1<<16), 1<<24)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		var v T
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		syncDeprecated(&v)
		out = append(out, v)
	}
	return out, sc.Err()
}

// WriteFile writes records sorted, one JSON object per line, through a
// temporary file renamed into place, so that an interrupted write leaves
// the old file whole.
func WriteFile(path string, recs []Record) error {
	recs = slices.Clone(recs)
	Sort(recs)
	return writeLines(path, recs)
}

func writeLines[T any](path string, recs []T) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return outfile.Write(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		for _, r := range recs {
			syncDeprecated(&r)
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
		return nil
	})
}

// syncDeprecated calls v's SyncDeprecated, if it has one: the records
// whose JSON keeps a deprecated key beside its successor for one release
// read either and write both.
func syncDeprecated(v any) {
	if s, ok := v.(interface{ SyncDeprecated() }); ok {
		s.SyncDeprecated()
	}
}

// loadFile reads the records of a JSON Lines file; a missing file is none.
func loadFile[T any](path string) ([]T, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return readLines[T](path, data)
}

// GraphPath is the file of game-graph records.
func (s Archive) GraphPath() string { return filepath.Join(s.Dir, "graph.jsonl") }

// LoadGraphs reads the game-graph records; a missing file is none.
func (s Archive) LoadGraphs() ([]GraphRecord, error) {
	return loadFile[GraphRecord](s.GraphPath())
}

// PutGraph merges g into the game-graph file, replacing a record of the
// same rule, pits and seeds, sorted by rule, pits, seeds.
func (s Archive) PutGraph(g GraphRecord) error {
	old, err := s.LoadGraphs()
	if err != nil {
		return err
	}
	out := []GraphRecord{}
	for _, o := range old {
		if o.Rule != g.Rule || o.Pits != g.Pits || o.Seeds != g.Seeds {
			out = append(out, o)
		}
	}
	out = append(out, g)
	slices.SortStableFunc(out, func(a, b GraphRecord) int {
		return cmp.Or(strings.Compare(a.Rule, b.Rule), a.Pits-b.Pits, a.Seeds-b.Seeds)
	})
	return writeLines(s.GraphPath(), out)
}
