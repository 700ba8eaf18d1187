package solver

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestStatsJSONKeys: the counters are written under their glossary keys
// only (cache_hits, tests), and the deprecated keys store_hits and passes
// still read back.
func TestStatsJSONKeys(t *testing.T) {
	b, err := json.Marshal(Stats{Nodes: 3, CacheHits: 7, Tests: 5})
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if !strings.Contains(s, `"nodes":3`) || !strings.Contains(s, `"cache_hits":7`) || !strings.Contains(s, `"tests":5`) {
		t.Errorf("Stats as JSON: %s", s)
	}
	if strings.Contains(s, "store_hits") || strings.Contains(s, "passes") {
		t.Errorf("Stats as JSON writes a deprecated key: %s", s)
	}
	want := Stats{Nodes: 3, CacheHits: 7, Tests: 5}
	for _, in := range []string{
		`{"nodes":3,"cache_hits":7,"tests":5}`,
		`{"nodes":3,"store_hits":7,"passes":5}`,
		`{"nodes":3,"cache_hits":7,"store_hits":7,"tests":5,"passes":5}`,
	} {
		var st Stats
		if err := json.Unmarshal([]byte(in), &st); err != nil || st != want {
			t.Errorf("%s: %+v, %v", in, st, err)
		}
	}
	var p struct {
		S *Stats `json:"stats"`
	}
	if err := json.Unmarshal([]byte(`{"stats":{"store_hits":2}}`), &p); err != nil || p.S.CacheHits != 2 {
		t.Errorf("nested: %+v, %v", p.S, err)
	}
}
