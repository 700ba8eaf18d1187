package results

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDeprecatedKeysRead: the archive reads the old keys store_hits and
// tt_bytes into their successors, as the committed files hold them.
func TestDeprecatedKeysRead(t *testing.T) {
	s := Archive{Dir: filepath.Join("..", DefaultDir)}
	recs, err := s.Load("empty-capture")
	if err != nil {
		t.Fatal(err)
	}
	hits := map[[2]int]int64{}
	for _, r := range recs {
		if r.StoreHits != 0 || r.TTBytes != 0 {
			t.Errorf("%s: deprecated fields left set: store_hits %d, tt_bytes %d", r.Name(), r.StoreHits, r.TTBytes)
		}
		if r.TableSize <= 0 {
			t.Errorf("%s: table size %d", r.Name(), r.TableSize)
		}
		if r.CacheHits > 0 {
			hits[[2]int{r.Pits, r.Seeds}] = r.CacheHits
		}
	}
	if hits[[2]int{7, 3}] != 26 {
		t.Errorf("Kalah(7,3) empty-capture: cache hits %v, the file says store_hits 26", hits)
	}
}

// TestDeprecatedKeysNotWritten: a record is written with the glossary's
// keys only, and one with only the old keys reads back into the new
// fields.
func TestDeprecatedKeysNotWritten(t *testing.T) {
	dir := t.TempDir()
	s := Archive{Dir: dir}
	if err := WriteFile(s.Path("empty-capture"), []Record{{Rule: "empty-capture", Pits: 1, Seeds: 1, CacheHits: 7, TableSize: 64}}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(s.Path("empty-capture"))
	if !strings.Contains(string(data), `"cache_hits":7`) || !strings.Contains(string(data), `"table_size":64`) ||
		strings.Contains(string(data), "store_hits") || strings.Contains(string(data), "tt_bytes") {
		t.Errorf("written: %s", data)
	}
	o := Open{Rule: "empty-capture", Pits: 1, Seeds: 1, Cache: true, TableSize: 64}
	if err := s.writeOpen([]Open{o}); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(s.OpenPath())
	if !strings.Contains(string(data), `"cache":true`) || strings.Contains(string(data), `"store"`) || strings.Contains(string(data), "tt_bytes") {
		t.Errorf("written: %s", data)
	}
	// An open cell as the old files hold it: "store" and "tt_bytes".
	oldOpen := strings.Replace(string(data), `"cache":true,`, `"store":true,`, 1)
	oldOpen = strings.Replace(oldOpen, `"table_size":64`, `"tt_bytes":64`, 1)
	os.WriteFile(s.OpenPath(), []byte(oldOpen), 0o644)
	if open, err := s.LoadOpen(); err != nil || len(open) != 1 || !open[0].Cache || open[0].TableSize != 64 {
		t.Errorf("open cell with the old keys read back as %+v, %v", open, err)
	}

	old := `{"rule":"empty-capture","pits":1,"seeds":1,"value":0,"result":"D","pv":"","pv_letters":"","nodes":0,"seconds":0,"threads":1,"tt_bytes":1,"egdb_seeds":-1,"store_hits":5,"date":"2025-01-01"}` + "\n"
	os.WriteFile(s.Path("empty-capture"), []byte(old), 0o644)
	recs, err := s.Load("empty-capture")
	if err != nil || len(recs) != 1 || recs[0].CacheHits != 5 || recs[0].TableSize != 1 {
		t.Errorf("old keys read back: %+v, %v", recs, err)
	}
	var r Record
	if err := json.Unmarshal([]byte(`{"cache_hits":4,"store_hits":4}`), &r); err != nil {
		t.Fatal(err)
	}
	r.SyncDeprecated()
	if r.CacheHits != 4 || r.StoreHits != 0 {
		t.Errorf("both keys: %+v", r)
	}
}
