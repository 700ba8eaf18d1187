package results

import (
	"time"

	"github.com/kalah-solver/kalah/graph"
)

// GraphRecord is the record of one game graph (package graph): its
// figures, the day they were computed and how.
type GraphRecord struct {
	graph.Stats
	Date string `json:"date"` // UTC, YYYY-MM-DD
	Provenance
}

// NewGraphRecord records s as computed today by the running binary.
func NewGraphRecord(s graph.Stats) GraphRecord {
	return GraphRecord{Stats: s, Date: time.Now().UTC().Format("2006-01-02"), Provenance: Current()}
}
