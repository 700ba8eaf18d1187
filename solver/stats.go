package solver

import "encoding/json"

// Stats counts what a search did.
type Stats struct {
	Nodes     int64 `json:"nodes"`      // calls of the search
	Peeks     int64 `json:"peeks"`      // children examined before recursing
	TTProbes  int64 `json:"tt_probes"`  // table look-ups, peeks included
	TTHits    int64 `json:"tt_hits"`    // look-ups that found the position
	DBHits    int64 `json:"egdb_hits"`  // endgame-database answers, peeks included
	CutSeeds  int64 `json:"cut_seeds"`  // nodes cut by the seed-count bound
	CutTT     int64 `json:"cut_tt"`     // nodes cut by their own table entry
	CutPeek   int64 `json:"cut_peek"`   // nodes cut by a child's bound (ETC, game end, database)
	CutSearch int64 `json:"cut_search"` // beta cut-offs after recursing
	Tests     int64 `json:"tests"`      // null-window tests run by the drivers
	CacheHits int64 `json:"cache_hits"` // entries found in the cache
}

// statsJSON is Stats as JSON: its fields, and the deprecated keys that
// older records carry, read but never written.
type statsJSON struct {
	statsFields
	// StoreHits is CacheHits under its old key.
	// Deprecated: use cache_hits; read until v0.3.0.
	StoreHits *int64 `json:"store_hits,omitempty"`
	// Passes is Tests under its old key.
	// Deprecated: use tests; read until v0.3.0.
	Passes *int64 `json:"passes,omitempty"`
}

// statsFields is Stats without its methods.
type statsFields Stats

// UnmarshalJSON reads the counters, and cache_hits and tests under their
// old keys, store_hits and passes, when only those are given.
func (s *Stats) UnmarshalJSON(b []byte) error {
	var j statsJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*s = Stats(j.statsFields)
	if j.StoreHits != nil && s.CacheHits == 0 {
		s.CacheHits = *j.StoreHits
	}
	if j.Passes != nil && s.Tests == 0 {
		s.Tests = *j.Passes
	}
	return nil
}

// Add accumulates o into s.
func (s *Stats) Add(o Stats) {
	s.Nodes += o.Nodes
	s.Peeks += o.Peeks
	s.TTProbes += o.TTProbes
	s.TTHits += o.TTHits
	s.DBHits += o.DBHits
	s.CutSeeds += o.CutSeeds
	s.CutTT += o.CutTT
	s.CutPeek += o.CutPeek
	s.CutSearch += o.CutSearch
	s.Tests += o.Tests
	s.CacheHits += o.CacheHits
}
