package results

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kalah-solver/kalah/players"
)

// PlayersRecord is one solved start position of the k-player game
// (package players) under one capture target and one solution concept. One
// record is one line of results/data/players.jsonl.
type PlayersRecord struct {
	Players       int    `json:"players"`        // k
	Pits          int    `json:"pits"`           // m
	Seeds         int    `json:"seeds"`          // n, seeds per pit at the start
	CaptureTarget string `json:"capture_target"` // next, opposite or all (canonical: opposite only for 4 players)
	Rule          string `json:"rule"`           // always no-empty-capture
	Concept       string `json:"concept"`        // paranoid or maxn

	// Value is P1's final store under the concept: paranoid, what P1 can
	// guarantee whatever the others do; max^n, what P1 gets.
	Value int `json:"value"`
	// Stores are every seat's final stores: max^n, the outcome; paranoid,
	// those of the principal variation (only P1's is guaranteed).
	Stores []int `json:"stores"`
	// Guarantees (paranoid only) is, for each seat, the final store it can
	// guarantee from the start when every other player plays against it.
	Guarantees []int `json:"guarantees,omitempty"`
	// Openings is every first move of P1 with its value and stores.
	Openings []PlayersOpening `json:"openings"`
	Best     []string         `json:"best"` // P1's best first moves ("1c")
	PV       string           `json:"pv"`   // principal variation, seat-qualified moves ("1c 1a 2b ...")

	Nodes     uint64  `json:"nodes"`
	Positions int     `json:"positions"` // table entries at the end
	Seconds   float64 `json:"seconds"`
	TableSize int64   `json:"table_size"` // the table's size: paranoid's bounds, or max^n's positions (0 when the record does not say: the first max^n records)
	// TTBytes is TableSize under its old key, read from older records and
	// never written (see SyncDeprecated).
	// Deprecated: use TableSize; read until v0.3.0.
	TTBytes int64  `json:"tt_bytes,omitempty"`
	Date    string `json:"date"` // UTC day the record was made
	Provenance
}

// PlayersOpening is one first move of P1.
type PlayersOpening struct {
	Move   string `json:"move"`
	Value  int    `json:"value"`
	Stores []int  `json:"stores"`
}

// Name is "3-player Kalah(4,2), capture from next, paranoid".
func (r *PlayersRecord) Name() string {
	return fmt.Sprintf("%d-player Kalah(%d,%d), capture from %s, %s", r.Players, r.Pits, r.Seeds, r.CaptureTarget, r.Concept)
}

// Check validates a record's fields against the rules.
func (r *PlayersRecord) Check() error {
	mr, err := players.NewVariant(r.Players, r.Pits, players.TargetNext)
	if err != nil {
		return fmt.Errorf("%s: %w", r.Name(), err)
	}
	if mr.Target, err = players.ParseTarget(r.CaptureTarget); err != nil {
		return fmt.Errorf("%s: %w", r.Name(), err)
	}
	if mr.Canonical() != mr {
		return fmt.Errorf("%s: with %d players capture from %s is capture from %s", r.Name(), r.Players, mr.Target, mr.Canonical().Target)
	}
	if _, err := players.ParseConcept(r.Concept); err != nil {
		return fmt.Errorf("%s: %w", r.Name(), err)
	}
	total := r.Players * r.Pits * r.Seeds
	sum := 0
	for _, s := range r.Stores {
		sum += s
	}
	if len(r.Stores) != r.Players || sum != total || r.Stores[0] != r.Value {
		return fmt.Errorf("%s: stores %v do not add up to %d seeds with P1's %d", r.Name(), r.Stores, total, r.Value)
	}
	if r.Concept == players.Paranoid.String() && (len(r.Guarantees) != r.Players || r.Guarantees[0] != r.Value) {
		return fmt.Errorf("%s: guarantees %v", r.Name(), r.Guarantees)
	}
	if r.Rule != "no-empty-capture" || len(r.Openings) == 0 || len(r.Best) == 0 || r.PV == "" {
		return fmt.Errorf("%s: incomplete record", r.Name())
	}
	if err := r.checkPV(mr); err != nil {
		return fmt.Errorf("%s: %w", r.Name(), err)
	}
	if r.VCSRevision == "" || strings.HasSuffix(r.VCSRevision, "+dirty") || r.CPU == "" {
		return fmt.Errorf("%s: provenance %+v: want a clean build's revision and the CPU", r.Name(), r.Provenance)
	}
	return nil
}

// PlayersPath is the file of k-player records.
func (s Archive) PlayersPath() string { return filepath.Join(s.Dir, "players.jsonl") }

// LoadPlayers reads the k-player records; a missing file is none.
func (s Archive) LoadPlayers() ([]PlayersRecord, error) {
	return loadFile[PlayersRecord](s.PlayersPath())
}

// PutPlayers merges rec into the k-player file, replacing a record of the
// same game, target and concept, sorted by players, pits, seeds, target,
// concept.
func (s Archive) PutPlayers(rec PlayersRecord) error {
	old, err := s.LoadPlayers()
	if err != nil {
		return err
	}
	out := slices.DeleteFunc(old, func(o PlayersRecord) bool { return playersCell(o) == playersCell(rec) })
	out = append(out, rec)
	slices.SortStableFunc(out, func(a, b PlayersRecord) int { return comparePlayers(playersCell(a), playersCell(b)) })
	return writeLines(s.PlayersPath(), out)
}

type playersKey struct {
	k, m, n         int
	target, concept string
}

func playersCell(r PlayersRecord) playersKey {
	return playersKey{r.Players, r.Pits, r.Seeds, r.CaptureTarget, r.Concept}
}

func comparePlayers(a, b playersKey) int {
	for _, d := range []int{a.k - b.k, a.m - b.m, a.n - b.n, targetOrder(a.target) - targetOrder(b.target), strings.Compare(a.concept, b.concept)} {
		if d != 0 {
			return d
		}
	}
	return 0
}

func targetOrder(t string) int {
	tg, err := players.ParseTarget(t)
	if err != nil {
		return 99
	}
	return int(tg)
}

// checkPV replays the principal variation from the start: every move
// legal and the mover's, the game over at its end with the record's
// stores, and its first move among the best.
func (r *PlayersRecord) checkPV(mr players.Variant) error {
	p, err := mr.StartPosition(r.Seeds)
	if err != nil {
		return err
	}
	moves := strings.Fields(r.PV)
	if !slices.Contains(r.Best, moves[0]) {
		return fmt.Errorf("principal variation starts with %s, not a best move %v", moves[0], r.Best)
	}
	for k, mv := range moves {
		i, err := players.ParseMove(p, mv)
		if err != nil {
			return fmt.Errorf("principal variation, move %d: %w", k+1, err)
		}
		p, _ = mr.PlayPosition(p, i)
	}
	if !p.Board.Over() || !slices.Equal(p.Stores(), r.Stores) {
		return fmt.Errorf("principal variation ends at %s, not a finished game with stores %v", p, r.Stores)
	}
	return nil
}

// SyncDeprecated moves a table size read under the deprecated key tt_bytes
// to TableSize and clears it, as Record.SyncDeprecated does.
func (r *PlayersRecord) SyncDeprecated() {
	if r.TableSize == 0 {
		r.TableSize = r.TTBytes
	}
	r.TTBytes = 0
}
