package serve

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// The query string, read strictly. net/url's parser drops what it cannot
// read (a bad escape, a pair with a semicolon) and keeps the first of a
// repeated parameter, so that a malformed request would be answered as if
// the parameter were absent: for another position than the one asked. The
// API reads the raw query itself instead, and an unknown, repeated, empty
// or malformed parameter is bad input (HTTP 400) that names it.

// Each endpoint's parameters.
var (
	gameParams     = []string{"rule", "pits", "seeds", "position", "to_move"}
	lineParams     = append(slices.Clone(gameParams), "moves")
	solveParams    = append(slices.Clone(gameParams), "id")
	chooseParams   = append(slices.Clone(gameParams), "moves", "id", "level", "seed")
	progressParams = []string{"id"}
	analyzeParams  = append(slices.Clone(gameParams), "format", "all_best")
)

// emptyOK are the parameters whose value may be empty: moves (the empty
// line).
var emptyOK = []string{"moves"}

// maxQuery is the longest query string read: a position is at most 18
// numbers, a line at most a few hundred moves.
const maxQuery = 8 << 10

// params is a request's query: each parameter once, unescaped.
type params map[string]string

// Has says whether the query names p.
func (q params) Has(p string) bool { _, ok := q[p]; return ok }

// Get is p's value, "" when absent.
func (q params) Get(p string) string { return q[p] }

// parseQuery reads a raw query string in which every parameter is one of
// allowed, given at most once, with a well-formed escape and a value (an
// empty one only for the parameters of emptyOK). A bare "&" between pairs
// (or at the end) is harmless and skipped.
func parseQuery(raw string, allowed []string) (params, error) {
	q := params{}
	if len(raw) > maxQuery {
		return nil, badf("query: %d bytes, longer than the %d a request needs", len(raw), maxQuery)
	}
	for pair := range strings.SplitSeq(raw, "&") {
		if pair == "" {
			continue
		}
		rawKey, rawValue, hasValue := strings.Cut(pair, "=")
		key, err := url.QueryUnescape(rawKey)
		if err != nil {
			return nil, badf("query: parameter name %q has a bad escape, %v", rawKey, unescapeReason(err))
		}
		if key == "" {
			return nil, badf("query: %q has no parameter name", pair)
		}
		if !slices.Contains(allowed, key) {
			if len(allowed) == 0 {
				return nil, badf("unknown parameter %q; this endpoint takes none", key)
			}
			return nil, badf("unknown parameter %q; this endpoint takes %s", key, strings.Join(allowed, ", "))
		}
		value, err := url.QueryUnescape(rawValue)
		if err != nil {
			return nil, badf("%s: %q has a bad escape, %v", key, rawValue, unescapeReason(err))
		}
		if _, dup := q[key]; dup {
			return nil, badf("%s: given more than once; give it once", key)
		}
		if !hasValue || (strings.TrimSpace(value) == "" && !slices.Contains(emptyOK, key)) {
			return nil, badf("%s: empty; give a value or leave the parameter out", key)
		}
		q[key] = value
	}
	return q, nil
}

// unescapeReason says what is wrong with an escape, from url's error.
func unescapeReason(err error) string {
	if e, ok := err.(url.EscapeError); ok {
		return fmt.Sprintf("%q (want %%XX, two hexadecimal digits)", string(e))
	}
	return err.Error()
}
