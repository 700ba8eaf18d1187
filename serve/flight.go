package serve

import (
	"context"
	"slices"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/engine"
)

// Answers the server already holds never wait in line. A request for a
// position is answered, in this order:
//
//  1. from the cache's root record, when it holds one (an earlier solve,
//     the look-ahead's, the opening book's): at once, whatever runs, read
//     through the open session (kalah.Session.Cached) under s.smu's read
//     lock; no slot, no place in line, never ErrBusy;
//  2. by joining the search of the same position and rule already running
//     or in line (a flight): the request waits for that search's answer,
//     and /api/progress shows it the search's live bounds and place as it
//     shows them to the request that started it; it takes no place in
//     line of its own;
//  3. by a new search, which waits in line for the slot and is refused
//     with ErrBusy when Options.MaxQueue searches already wait.
//
// A search runs in a goroutine of its own, with a context of its own: it
// stops (keeping what it proved) when every request that waits for it
// has gone away, at Options.SolveTimeout, or at Close.
//
// While no session is open and one is being opened (at start, in the
// warm-up, or between two games), the cache cannot be read: a request
// then waits for the session, outside the line, and reads it then.

// flightKey names a search: the position (its pits, board and side to
// move) and the rule. The seeds of the game do not matter: they only size
// the table.
type flightKey struct {
	rule engine.Rule
	pos  engine.Position
}

// flight is a search asked for, running or in line, with the requests
// waiting for its answer.
type flight struct {
	key    flightKey
	game   game               // as the first request asked it
	ids    []string           // the id parameters of the requests waiting, for /api/progress (guarded by s.mu)
	refs   int                // the requests waiting (guarded by s.mu)
	cancel context.CancelFunc // stops the search
	done   chan struct{}      // closed once res, cache and err are set
	res    *kalah.Result
	cache  string
	err    error
}

// has says whether a request named id waits for f; the caller holds s.mu.
func (f *flight) has(id string) bool {
	return f != nil && id != "" && slices.Contains(f.ids, id)
}

// answer is the answer for g's position: from the cache, from a search of
// it already asked for, or from a new search (see above). It returns the
// cache's directory too.
func (s *Server) answer(ctx context.Context, g game) (*kalah.Result, string, error) {
	for {
		if res, dir, ok := s.cached(g); ok {
			return res, dir, nil
		}
		f, wait, err := s.join(g)
		if err != nil {
			return nil, "", err
		}
		if f == nil { // no session to read the cache through yet
			select {
			case <-wait:
				continue
			case <-ctx.Done():
				return nil, "", ctx.Err()
			}
		}
		select {
		case <-f.done:
			return f.res, f.cache, f.err
		case <-ctx.Done():
			s.leave(f, g.id)
			return nil, "", ctx.Err()
		}
	}
}

// cached is the answer the server holds for g's position: the cache's,
// read through the open session, else the built-in opening book's, which
// needs no session (it answers while the first one opens or builds its
// database).
func (s *Server) cached(g game) (*kalah.Result, string, bool) {
	s.smu.RLock()
	defer s.smu.RUnlock()
	if s.k != nil {
		if res, ok := s.k.Cached(g.rules, g.pos); ok {
			return res, s.k.CacheDir(), true
		}
	}
	if res, ok := kalah.BookAnswer(g.rules, g.pos); ok {
		return res, "", true
	}
	return nil, "", false
}

// join adds the request g to the search of its position, starting one
// when there is none (then it takes the slot or a place in line, or fails
// with ErrBusy when the line is full). When the cache could not be read
// because no session is open while the slot's holder opens one, it
// returns no flight but a channel that is closed when that changes, after
// which the caller reads the cache again.
func (s *Server) join(g game) (*flight, <-chan struct{}, error) {
	key := flightKey{rule: g.rules.Rule, pos: g.pos}
	s.mu.Lock()
	defer s.mu.Unlock()
	if f := s.flights[key]; f != nil {
		f.refs++
		if g.id != "" {
			f.ids = append(f.ids, g.id)
		}
		return f, nil, nil
	}
	if s.closed {
		return nil, nil, ErrClosed
	}
	if !s.open && s.busy && !s.opts.NoCache {
		return nil, s.changed, nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	f := &flight{key: key, game: g, refs: 1, cancel: cancel, done: make(chan struct{})}
	if g.id != "" {
		f.ids = []string{g.id}
	}
	w, err := s.enter(&waiter{f: f}, true)
	if err != nil {
		cancel()
		return nil, nil, err
	}
	s.flights[key] = f
	go s.fly(ctx, f, w)
	return f, nil, nil
}

// fly runs the search f, which enter put in line as w (nil: it holds the
// slot), and hands its answer to the requests waiting for it.
func (s *Server) fly(ctx context.Context, f *flight, w *waiter) {
	res, dir, err := s.solve(ctx, f, w)
	s.mu.Lock()
	if s.flights[f.key] == f {
		delete(s.flights, f.key)
	}
	f.res, f.cache, f.err = res, dir, err
	s.mu.Unlock()
	f.cancel()
	close(f.done)
}

// leave takes the request named id, gone away, off f; when it was the
// last, the search stops (what it proved stays in the table and the
// cache) and a later request for the position starts a new one.
func (s *Server) leave(f *flight, id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f.refs--
	if i := slices.Index(f.ids, id); id != "" && i >= 0 {
		f.ids = slices.Delete(f.ids, i, i+1)
	}
	if f.refs == 0 {
		if s.flights[f.key] == f {
			delete(s.flights, f.key)
		}
		f.cancel()
	}
}
