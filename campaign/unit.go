package campaign

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/solver"
)

// A unit of work is one full-depth null-window test: "is the value of this
// board, relative to its stores and from its mover, at least gamma?". Its
// answer is a fail-soft bound, v >= gamma meaning "value >= v" and
// v < gamma "value <= v", as solver.Solver.NullWindow computes it.
//
// Every unit and its answer are named by one key, which is also the key of
// the answer in the results bucket, shared by every campaign:
//
//	<rule>.<pits>.<own>.<opp>.g<gamma+256>
//	rule: "nec" (no-empty-capture) or "ec" (empty-capture)
//	own, opp: the board's two pit words, 16 hex digits each (engine.Board,
//	          seen from the mover; stores are not part of a value)
//	gamma: offset by 256 so that the token has no sign
//
// e.g. "nec.6.0004050505050404.0404040404040404.g256". The key is exact:
// it gives back the board, the rule and the window.

// Unit is the message a coordinator puts on the work queue.
type Unit struct {
	Campaign string `json:"campaign"`
	Key      string `json:"key"`
	Rule     string `json:"rule"`
	Pits     int    `json:"pits"`
	Gamma    int    `json:"gamma"`
	// GameSeeds is the seed count of the campaign's root board: a worker
	// sizes its table by the game, as 'kalah solve' does.
	GameSeeds int `json:"game_seeds"`
	// Build and EGDBSeeds: the campaign's signature (signature.go); a
	// worker that does not match it hands the unit back.
	Build     string `json:"build"`
	EGDBSeeds int    `json:"egdb_seeds"`
	// Check, on a check unit (check.go), is the key of the answer it
	// checks; such a unit is solved even when the results bucket holds an
	// answer to Key.
	Check string `json:"check,omitempty"`
	// Exclude lists the identities (Identity.ID) of the workers that must
	// not solve the unit: the workers whose answers it checks, and the
	// quarantined ones. Such a worker hands it back.
	Exclude []string `json:"exclude,omitempty"`
	// Prefer names the worker (Identity.ID) that answered the last test
	// of the same board, whose table still holds that test's tree
	// (affinity.go); until PreferUntil (Unix milliseconds) another worker
	// hands the unit back. Empty: any worker.
	Prefer      string `json:"prefer,omitempty"`
	PreferUntil int64  `json:"prefer_until,omitempty"`
}

// Result is a worker's answer to a unit, as published on the results
// stream and kept in the results bucket.
type Result struct {
	Campaign string  `json:"campaign"`
	Key      string  `json:"key"`
	Value    int     `json:"value"` // fail-soft bound against the unit's gamma
	Nodes    int64   `json:"nodes"`
	Seconds  float64 `json:"seconds"`
	// Worker, Host and PID, with Build, are the worker's identity
	// (identity.go).
	Worker    string `json:"worker"`
	Host      string `json:"host"`
	PID       int    `json:"pid"`
	Threads   int    `json:"threads"`
	TableSize int64  `json:"table_size"`
	// The worker's signature (signature.go): its session's rule and
	// database depth (-1 for none), its build (BuildID), and the
	// provenance that names it (module version, VCS revision).
	Rule      string `json:"rule"`
	EGDBSeeds int    `json:"egdb_seeds"`
	Build     string `json:"build"`
	Version   string `json:"version"`
	Revision  string `json:"revision"`
	Attempt   int    `json:"attempt"` // how many times the unit was delivered
	// Check: the Check of the unit answered (the key of the answer it
	// checks), "" for an ordinary unit.
	Check string `json:"check,omitempty"`
	// SharedHits: entries the search found in the shared table (shared.go).
	SharedHits int64 `json:"shared_hits,omitempty"`
	// Stats: the search's counters (solver.Stats, as 'kalah solve --json'
	// reports them), over the owner and every helper of the unit's test.
	Stats *solver.Stats `json:"stats,omitempty"`
}

// ruleToken is the rule's token in a key.
func ruleToken(c engine.Rule) string {
	if c == engine.EmptyCapture {
		return "ec"
	}
	return "nec"
}

func parseRuleToken(s string) (engine.Rule, error) {
	switch s {
	case "ec":
		return engine.EmptyCapture, nil
	case "nec":
		return engine.NoEmptyCapture, nil
	}
	return 0, fmt.Errorf("rule token %q: want ec or nec", s)
}

// keyPrefix is the prefix of every key of one game's rules.
func keyPrefix(r engine.Variant) string {
	return ruleToken(r.Rule) + "." + strconv.Itoa(r.Pits) + "."
}

// UnitKey is the key of the test "value of b >= gamma" under r.
func UnitKey(r engine.Variant, b engine.Board, gamma int) string {
	return fmt.Sprintf("%s%016x.%016x.g%d", keyPrefix(r), b.Own, b.Opp, gamma+256)
}

// ParseKey reads a key back into its rules, board (stores empty) and
// gamma, and checks that the board is one of the rules' boards and the
// window within its seeds.
func ParseKey(key string) (r engine.Variant, b engine.Board, gamma int, err error) {
	f := strings.Split(key, ".")
	if len(f) != 5 {
		return r, b, 0, fmt.Errorf("key %q: want rule.pits.own.opp.gGAMMA", key)
	}
	c, err := parseRuleToken(f[0])
	if err != nil {
		return r, b, 0, fmt.Errorf("key %q: %w", key, err)
	}
	m, err := strconv.Atoi(f[1])
	if err != nil {
		return r, b, 0, fmt.Errorf("key %q: pits %q", key, f[1])
	}
	if r, err = engine.NewVariant(m, c); err != nil {
		return r, b, 0, fmt.Errorf("key %q: %w", key, err)
	}
	if len(f[2]) != 16 || len(f[3]) != 16 {
		return r, b, 0, fmt.Errorf("key %q: pit words must be 16 hex digits", key)
	}
	if b.Own, err = strconv.ParseUint(f[2], 16, 64); err == nil {
		b.Opp, err = strconv.ParseUint(f[3], 16, 64)
	}
	if err != nil {
		return r, b, 0, fmt.Errorf("key %q: %w", key, err)
	}
	if len(f[4]) < 2 || f[4][0] != 'g' {
		return r, b, 0, fmt.Errorf("key %q: window token %q", key, f[4])
	}
	g, err := strconv.Atoi(f[4][1:])
	if err != nil {
		return r, b, 0, fmt.Errorf("key %q: window token %q", key, f[4])
	}
	gamma = g - 256
	if m < 8 && (b.Own>>(8*m) != 0 || b.Opp>>(8*m) != 0) {
		return r, b, 0, fmt.Errorf("key %q: seeds beyond pit %d", key, m)
	}
	s := b.Seeds()
	if s > engine.MaxSeeds || b.Over() {
		return r, b, 0, fmt.Errorf("key %q: not a board in play (%d seeds)", key, s)
	}
	if gamma < -s || gamma > s {
		return r, b, 0, fmt.Errorf("key %q: window %d outside the board's seeds ±%d", key, gamma, s)
	}
	return r, b, gamma, nil
}

// ErrBadResult marks a result message that is not trusted: malformed, for
// a unit this campaign never issued, or out of range.
var ErrBadResult = errors.New("bad result")

// parseResult decodes a result message and checks it against its key: the
// value must lie within the seeds of the unit's board.
func parseResult(data []byte, r engine.Variant) (Result, engine.Board, int, error) {
	var res Result
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&res); err != nil {
		return res, engine.Board{}, 0, fmt.Errorf("%w: %v", ErrBadResult, err)
	}
	kr, b, gamma, err := ParseKey(res.Key)
	if err != nil {
		return res, b, 0, fmt.Errorf("%w: %v", ErrBadResult, err)
	}
	if kr != r {
		return res, b, 0, fmt.Errorf("%w: key %s is for %v, the campaign for %v", ErrBadResult, res.Key, kr, r)
	}
	if s := b.Seeds(); res.Value < -s || res.Value > s {
		return res, b, 0, fmt.Errorf("%w: value %d outside ±%d for %s", ErrBadResult, res.Value, s, res.Key)
	}
	if res.Nodes < 0 || res.Seconds < 0 {
		return res, b, 0, fmt.Errorf("%w: negative cost for %s", ErrBadResult, res.Key)
	}
	return res, b, gamma, nil
}
