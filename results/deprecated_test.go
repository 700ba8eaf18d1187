package results

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDeprecatedKeysRead: the archive reads the old key store_hits into
// the new field, as the committed files hold it (open.jsonl's store:
// TestDeprecatedKeysWritten).
func TestDeprecatedKeysRead(t *testing.T) {
	s := Archive{Dir: filepath.Join("..", DefaultDir)}
	recs, err := s.Load("empty-capture")
	if err != nil {
		t.Fatal(err)
	}
	hits := map[[2]int]int64{}
	for _, r := range recs {
		if r.CacheHits != r.StoreHits {
			t.Errorf("%s: cache_hits %d, store_hits %d", r.Name(), r.CacheHits, r.StoreHits)
		}
		if r.CacheHits > 0 {
			hits[[2]int{r.Pits, r.Seeds}] = r.CacheHits
		}
	}
	if hits[[2]int{7, 3}] != 26 {
		t.Errorf("Kalah(7,3) empty-capture: cache hits %v, the file says store_hits 26", hits)
	}
}

// TestDeprecatedKeysWritten: a record written with only the new field set
// carries both keys, and one with only an old key reads back into the new
// field.
func TestDeprecatedKeysWritten(t *testing.T) {
	dir := t.TempDir()
	s := Archive{Dir: dir}
	if err := WriteFile(s.Path("empty-capture"), []Record{{Rule: "empty-capture", Pits: 1, Seeds: 1, CacheHits: 7}}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(s.Path("empty-capture"))
	if !strings.Contains(string(data), `"cache_hits":7`) || !strings.Contains(string(data), `"store_hits":7`) {
		t.Errorf("written: %s", data)
	}
	o := Open{Rule: "empty-capture", Pits: 1, Seeds: 1, Cache: true}
	if err := s.writeOpen([]Open{o}); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(s.OpenPath())
	if !strings.Contains(string(data), `"cache":true`) || !strings.Contains(string(data), `"store":true`) {
		t.Errorf("written: %s", data)
	}
	// An open cell as the old files hold it: "store" alone.
	oldOpen := strings.Replace(string(data), `"cache":true,`, "", 1)
	if strings.Contains(oldOpen, `"cache"`) {
		t.Fatalf("no old form made of %s", data)
	}
	os.WriteFile(s.OpenPath(), []byte(oldOpen), 0o644)
	if open, err := s.LoadOpen(); err != nil || len(open) != 1 || !open[0].Cache {
		t.Errorf(`open cell with "store": true read back as %+v, %v`, open, err)
	}

	old := `{"rule":"empty-capture","pits":1,"seeds":1,"value":0,"result":"D","pv":"","pv_letters":"","nodes":0,"seconds":0,"threads":1,"tt_bytes":1,"egdb_seeds":-1,"store_hits":5,"date":"2025-01-01"}` + "\n"
	os.WriteFile(s.Path("empty-capture"), []byte(old), 0o644)
	recs, err := s.Load("empty-capture")
	if err != nil || len(recs) != 1 || recs[0].CacheHits != 5 {
		t.Errorf("old key read back: %+v, %v", recs, err)
	}
	var r Record
	if err := json.Unmarshal([]byte(`{"cache_hits":4,"store_hits":4}`), &r); err != nil {
		t.Fatal(err)
	}
	r.SyncDeprecated()
	if r.CacheHits != 4 || r.StoreHits != 4 {
		t.Errorf("both keys: %+v", r)
	}
}
