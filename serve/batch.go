package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/kalah-solver/kalah/play"
)

// POST /api/batch: many positions in one request, for programs. The body
// is JSON lines, one position a line with its game, as /api/solve's query
// names it:
//
//	{"pits": 6, "seeds": 4, "rule": "no-empty-capture", "position": "4,4,4,4,4,4,0,4,4,4,4,4,4,0", "to_move": "south", "moves": "c,f"}
//
// every field optional ("position" also a list of numbers, "moves" a list
// of moves); the answer is JSON lines, one a position in the order asked,
// each /api/solve's answer with "line", the line of the body it answers.
//
// The batch is read whole and checked before anything is searched: a line
// that is no position (bad JSON, an unknown field, a bad position or move)
// makes the whole batch a 400 naming the line; more than
// Options.MaxBatchLines positions or Options.MaxBatchBytes bytes is a 413.
// The positions are then answered one at a time, like as many requests in
// turn: an answer the server holds at once, a new search in line behind
// the requests already waiting, so that other clients keep being answered
// between a batch's positions. A batch runs for at most
// Options.BatchTimeout: the lines not answered by then get an "error"
// saying so, as does a line whose search fails. At most MaxBatches
// batches run at once; another is refused with 503.

// The batch limits when Options leave them 0.
const (
	DefaultMaxBatchLines = 1000
	DefaultMaxBatchBytes = 1 << 20
	DefaultBatchTimeout  = 5 * time.Minute
	DefaultMaxBatches    = 2
)

// ErrBatchesBusy is returned when MaxBatches batches run already (HTTP 503).
var ErrBatchesBusy = errors.New("the server is busy: too many batches are running; try again when one has ended")

// batchLine is one line of a batch as it is written.
type batchLine struct {
	Rule     string          `json:"rule"`
	Pits     *int            `json:"pits"`
	Seeds    *int            `json:"seeds"`
	Position json.RawMessage `json:"position"` // "4,4,..." or [4,4,...]
	ToMove   string          `json:"to_move"`
	Moves    json.RawMessage `json:"moves"` // "c,f,B" or ["c","f","B"]
}

// batchItem is one position of a batch, checked.
type batchItem struct {
	line int // the line of the body, from 1
	g    game
}

// batchAnswer is one line of a batch's answer: /api/solve's answer, or
// an error.
type batchAnswer struct {
	Line int `json:"line"`
	*solveReply
	Error string `json:"error,omitempty"`
}

// batchError is the 400 of a batch with a bad line.
type batchError struct {
	Error string `json:"error"`
	Line  int    `json:"line"`
}

func (s *Server) handleBatch(w http.ResponseWriter, r *http.Request) {
	if _, err := parseQuery(r.URL.RawQuery, nil); err != nil {
		writeError(w, 0, err)
		return
	}
	maxLines, maxBytes := s.opts.MaxBatchLines, s.opts.MaxBatchBytes
	if maxLines <= 0 {
		maxLines = DefaultMaxBatchLines
	}
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBatchBytes
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBytes))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Errorf("batch: longer than %d bytes; send at most %d positions, %d bytes, a batch", maxBytes, maxLines, maxBytes))
		return
	case err != nil:
		writeError(w, http.StatusBadRequest, fmt.Errorf("batch: reading the body: %v", err))
		return
	}
	items, bad := parseBatch(body, maxLines)
	if bad != nil {
		code := http.StatusBadRequest
		if bad.Line == 0 {
			code = http.StatusRequestEntityTooLarge
		}
		writeJSON(w, code, bad)
		return
	}
	if !s.startBatch() {
		writeError(w, 0, ErrBatchesBusy)
		return
	}
	defer s.endBatch()

	timeout := s.opts.BatchTimeout
	if timeout <= 0 {
		timeout = DefaultBatchTimeout
	}
	ctx, cancel := context.WithTimeout(r.Context(), timeout)
	defer cancel()
	w.Header().Set("Content-Type", "application/jsonl")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	flusher, _ := w.(http.Flusher)
	for _, it := range items {
		a := batchAnswer{Line: it.line}
		if ctx.Err() != nil {
			a.Error = s.batchStopped(ctx, r, timeout)
		} else if rep, err := s.batchSolve(ctx, it.g); err != nil {
			a.Error = err.Error()
			if ctx.Err() != nil {
				a.Error = s.batchStopped(ctx, r, timeout)
			}
		} else {
			a.solveReply = rep
		}
		if err := enc.Encode(a); err != nil {
			return // the client went away
		}
		if flusher != nil {
			flusher.Flush()
		}
	}
}

// batchStopped says why a batch's line got no answer once ctx ended.
func (s *Server) batchStopped(ctx context.Context, r *http.Request, timeout time.Duration) string {
	switch {
	case r.Context().Err() != nil:
		return "not answered: the client went away"
	case s.isClosed():
		return "not answered: " + ErrClosed.Error()
	default:
		return fmt.Sprintf("not answered: the batch's time limit (%v) ran out", timeout)
	}
}

// batchSolve answers one position of a batch as /api/solve does. When the
// line is full it waits for a place, as a person would try again, rather
// than failing the line.
func (s *Server) batchSolve(ctx context.Context, g game) (*solveReply, error) {
	for {
		rep, err := s.solveReply(ctx, g)
		if !errors.Is(err, ErrBusy) {
			return rep, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-s.slotFreed():
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// slotFreed is closed when a session opens or the solve slot is freed.
func (s *Server) slotFreed() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changed
}

// startBatch counts a batch in, unless MaxBatches run already.
func (s *Server) startBatch() bool {
	limit := s.opts.MaxBatches
	if limit <= 0 {
		limit = DefaultMaxBatches
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.batches >= limit {
		return false
	}
	s.batches++
	return true
}

func (s *Server) endBatch() {
	s.mu.Lock()
	s.batches--
	s.mu.Unlock()
}

// parseBatch reads a batch's body: every line a position (blank lines
// are skipped). It returns the first bad line's error, naming it, or for
// too many positions an error with Line 0.
func parseBatch(body []byte, maxLines int) ([]batchItem, *batchError) {
	var items []batchItem
	n := 0
	for raw := range bytes.Lines(body) {
		n++
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 {
			continue
		}
		if len(items) == maxLines {
			return nil, &batchError{Error: fmt.Sprintf("batch: more than %d positions; send at most %d a batch", maxLines, maxLines)}
		}
		g, err := parseBatchLine(raw)
		if err != nil {
			return nil, &batchError{Error: fmt.Sprintf("line %d: %v", n, err), Line: n}
		}
		items = append(items, batchItem{line: n, g: g})
	}
	if len(items) == 0 {
		return nil, &batchError{Error: "batch: no positions; send JSON lines, one position a line", Line: max(n, 1)}
	}
	return items, nil
}

// parseBatchLine reads one line of a batch into the game and position it
// names, with /api/solve's checks and messages.
func parseBatchLine(raw []byte) (game, error) {
	var bl batchLine
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&bl); err != nil {
		return game{}, fmt.Errorf("not a position: %v", strings.TrimPrefix(err.Error(), "json: "))
	}
	if dec.More() {
		return game{}, errors.New("more than one JSON value on the line; one position a line")
	}
	q := params{}
	if bl.Rule != "" {
		q["rule"] = bl.Rule
	}
	if bl.Pits != nil {
		q["pits"] = strconv.Itoa(*bl.Pits)
	}
	if bl.Seeds != nil {
		q["seeds"] = strconv.Itoa(*bl.Seeds)
	}
	if bl.ToMove != "" {
		q["to_move"] = bl.ToMove
	}
	if len(bl.Position) > 0 && string(bl.Position) != "null" {
		p, err := listOrString[int](bl.Position, "position", strconv.Itoa)
		if err != nil {
			return game{}, err
		}
		q["position"] = p
	}
	g, err := parseGame(q)
	if err != nil {
		return game{}, err
	}
	if len(bl.Moves) > 0 && string(bl.Moves) != "null" {
		ms, err := listOrString[string](bl.Moves, "moves", func(m string) string { return m })
		if err != nil {
			return game{}, err
		}
		if moves := play.SplitMoves(ms); len(moves) > 0 {
			l, err := play.Replay(g.rules, g.pos, moves)
			if err != nil {
				return game{}, err
			}
			g.pos, g.start = l.Current(), false
		}
	}
	return g, nil
}

// listOrString reads a field given as a string or as a list of T, the
// list joined with commas.
func listOrString[T any](raw json.RawMessage, name string, format func(T) string) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var list []T
	if err := json.Unmarshal(raw, &list); err != nil {
		return "", fmt.Errorf("%s: %s is neither a string nor a list", name, raw)
	}
	parts := make([]string, len(list))
	for i, v := range list {
		parts[i] = format(v)
	}
	return strings.Join(parts, ","), nil
}
