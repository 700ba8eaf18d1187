package persist_test

import (
	"bytes"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/persist"
	"github.com/kalah-solver/kalah/tt"
)

// TestDefaultDirMigrates: opening the default directory when it does not
// exist but the old default ($XDG_DATA_HOME/kalah/store) does moves the
// old one into place, entries and all, and logs the move.
func TestDefaultDirMigrates(t *testing.T) {
	data := t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	def, err := persist.DefaultDir()
	if err != nil || def != filepath.Join(data, "kalah", "cache") {
		t.Fatalf("DefaultDir: %q, %v", def, err)
	}
	old := filepath.Join(data, "kalah", "store")
	r := engine.Variant{Pits: 6, Rule: engine.NoEmptyCapture}
	k := engine.Key{Own: 0x0102, Opp: 0x0304}
	s := openCache(t, old, r, persist.Options{})
	s.Put(k, tt.MakeEntry(4, 4, 1, tt.DepthSolved, 20))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	var logged bytes.Buffer
	s = openCache(t, def, r, persist.Options{Log: log.New(&logged, "", 0)})
	e, ok := s.Get(k)
	s.Close()
	if !ok || e.Lower() != 4 {
		t.Errorf("the moved cache's entry: %v %v", e, ok)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("the old directory is still there: %v", err)
	}
	if !strings.Contains(logged.String(), "moved "+old) {
		t.Errorf("log %q does not mention the move", logged.String())
	}

	// Once the default exists, an old directory made again is left alone.
	if err := os.MkdirAll(old, 0o755); err != nil {
		t.Fatal(err)
	}
	openCache(t, def, r, persist.Options{}).Close()
	if _, err := os.Stat(old); err != nil {
		t.Errorf("the second old directory was touched: %v", err)
	}
	// A directory other than the default never migrates anything.
	other := filepath.Join(t.TempDir(), "c")
	openCache(t, other, r, persist.Options{}).Close()
	if _, err := os.Stat(old); err != nil {
		t.Errorf("opening another directory touched the old one: %v", err)
	}
}
