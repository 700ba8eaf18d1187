package solver

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestStatsJSONKeys: cache_hits is written under its old key store_hits
// too, and either key reads back.
func TestStatsJSONKeys(t *testing.T) {
	b, err := json.Marshal(Stats{Nodes: 3, CacheHits: 7})
	if err != nil {
		t.Fatal(err)
	}
	if s := string(b); !strings.Contains(s, `"nodes":3`) || !strings.Contains(s, `"cache_hits":7`) || !strings.Contains(s, `"store_hits":7`) {
		t.Errorf("Stats as JSON: %s", s)
	}
	for _, in := range []string{`{"nodes":3,"cache_hits":7}`, `{"nodes":3,"store_hits":7}`, `{"nodes":3,"cache_hits":7,"store_hits":7}`} {
		var st Stats
		if err := json.Unmarshal([]byte(in), &st); err != nil || st != (Stats{Nodes: 3, CacheHits: 7}) {
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
