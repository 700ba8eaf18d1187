package benchcmd

import (
	"fmt"

	"github.com/kalah-solver/kalah/egdb"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/solver"
)

// databases opens each rule set's endgame database once.
type databases struct {
	dir     string
	byRules map[engine.Variant]*egdb.DB
}

func (d *databases) open(r engine.Variant) (solver.Database, error) {
	if db, ok := d.byRules[r]; ok {
		return db, nil
	}
	db, err := egdb.Open(d.dir, r)
	if err != nil {
		return nil, fmt.Errorf("--egdb: %w", err)
	}
	if d.byRules == nil {
		d.byRules = map[engine.Variant]*egdb.DB{}
	}
	d.byRules[r] = db
	return db, nil
}

func (d *databases) close() {
	for _, db := range d.byRules {
		db.Close()
	}
}
