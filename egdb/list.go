package egdb

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kalah-solver/kalah/engine"
)

// Databases lists the pit counts and rules that have a subdirectory in dir
// (see RuleDir), ordered by pits then rule. A missing dir holds none.
func Databases(dir string) ([]engine.Variant, error) {
	ents, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []engine.Variant
	for _, e := range ents {
		var m int
		var rule string
		if !e.IsDir() {
			continue
		}
		if _, err := fmt.Sscanf(e.Name(), "kalah-m%d-%s", &m, &rule); err != nil {
			continue
		}
		c, err := engine.ParseRule(rule)
		if err != nil {
			continue
		}
		r, err := engine.NewVariant(m, c)
		if err != nil || RuleDir(dir, r) != filepath.Join(dir, e.Name()) {
			continue
		}
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b engine.Variant) int {
		if a.Pits != b.Pits {
			return a.Pits - b.Pits
		}
		return int(a.Rule) - int(b.Rule)
	})
	return out, nil
}

// Slices lists, in increasing order, the seed counts s with a file
// s<s>.egdb in the directory of rules under dir. Temporary files of
// interrupted builds are not listed.
func Slices(dir string, rules engine.Variant) ([]int, error) {
	ents, err := os.ReadDir(RuleDir(dir, rules))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []int
	for _, e := range ents {
		name := e.Name()
		var s int
		if !strings.HasSuffix(name, ".egdb") {
			continue
		}
		if _, err := fmt.Sscanf(name, "s%d.egdb", &s); err != nil || sliceName(s) != name {
			continue
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return out, nil
}

// OpenSlice loads the file of slice s alone, with every check of Open,
// and returns its entries, one byte each (a packed file is decoded into
// memory). The returned function releases it.
func OpenSlice(dir string, rules engine.Variant, s int) ([]byte, func() error, error) {
	if err := rules.Validate(); err != nil {
		return nil, nil, err
	}
	x, err := NewIndex(rules.Pits, s)
	if err != nil {
		return nil, nil, err
	}
	t, release, err := loadSlice(SlicePath(dir, rules, s), rules, s, x.Size(s))
	if err != nil {
		return nil, nil, err
	}
	if !t.packed {
		return t.raw, release, nil
	}
	data := t.bytes()
	return data, func() error { return nil }, release()
}

// CheckFile checks the file of slice s: its header against rules and s,
// its size and its payload checksum.
func CheckFile(dir string, rules engine.Variant, s int) error {
	x, err := NewIndex(rules.Pits, s)
	if err != nil {
		return err
	}
	_, release, err := loadSlice(SlicePath(dir, rules, s), rules, s, x.Size(s))
	if err != nil {
		return err
	}
	return release()
}
