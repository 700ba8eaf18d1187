package kalah

import (
	"context"
	"errors"
	"time"

	"github.com/kalah-solver/kalah/players"
)

// The k-player game (three or four players, package players) has a session
// of its own beside Session: one game under one solution concept, with its
// table sized by one policy (players.DefaultTableSize: paranoid's fixed
// table, max^n's growing one and its cap), kept between solves. It has no
// endgame database and no cache: neither exists for k players.

// PlayersConfig says which k-player game a PlayersSession is for.
type PlayersConfig struct {
	Rules   players.Variant // players, pits per player, capture target
	Concept players.Concept // paranoid (the zero value) or max^n
	// TableSeeds is the most seeds in play on a board the session will
	// solve (the table's key width): a start's players*pits*seeds, or a
	// position's seeds. It must be given.
	TableSeeds int
	// TableSize is the concept's table size (max^n: the most its table
	// grows to); 0 means the policy, players.DefaultTableSize(Concept).
	TableSize int64
	// MaxPositions stops a max^n search, with an error wrapping
	// players.ErrTooBig, when its table would hold more positions (0: only
	// the table's size bounds it).
	MaxPositions int
	// Progress, if not nil, is called during a long search about every
	// ProgressEvery (a minute when 0) with the nodes, the table's
	// positions and its size (players.Options).
	Progress      func(nodes uint64, entries int, tableSize int64)
	ProgressEvery time.Duration
}

// PlayersSession solves positions of one k-player game under one concept,
// keeping its table between solves. It is not safe for concurrent use.
type PlayersSession struct {
	cfg PlayersConfig
	s   *players.Solver
}

// OpenPlayers opens a k-player session. The max^n table is allocated
// here (an error wrapping players.ErrTooBig when no table of the size fits
// the game's keys); the paranoid one on the first search.
func OpenPlayers(cfg PlayersConfig) (*PlayersSession, error) {
	if cfg.TableSeeds < 1 {
		return nil, errors.New("a k-player session needs the most seeds in play (TableSeeds)")
	}
	if cfg.TableSize == 0 {
		cfg.TableSize = players.DefaultTableSize(cfg.Concept)
	}
	s, err := players.NewSolver(cfg.Rules, cfg.Concept, cfg.TableSeeds, players.Options{
		TableSize: cfg.TableSize, MaxNBytes: cfg.TableSize, MaxPositions: cfg.MaxPositions,
		Progress: cfg.Progress, ProgressEvery: cfg.ProgressEvery})
	if err != nil {
		return nil, err
	}
	return &PlayersSession{cfg: cfg, s: s}, nil
}

// Close drops the session's tables. The session must not be used after.
func (k *PlayersSession) Close() error {
	k.s = nil
	return nil
}

// Rules are the session's rules.
func (k *PlayersSession) Rules() players.Variant { return k.cfg.Rules }

// Concept is the session's solution concept.
func (k *PlayersSession) Concept() players.Concept { return k.cfg.Concept }

// Solve solves p under the session's concept: every legal move's value
// with its final stores, the best moves and a principal variation. ctx
// stops it (the error is then ctx's); a max^n table that fills stops it
// with an error wrapping players.ErrTooBig.
func (k *PlayersSession) Solve(ctx context.Context, p players.Position) (*players.Solution, error) {
	return k.s.Solve(ctx, p)
}

// Guarantee is what seat can guarantee at p, whoever is to move: its
// final store when every other player plays against it (the paranoid
// value of the seat), on the session's paranoid table.
func (k *PlayersSession) Guarantee(ctx context.Context, p players.Position, seat int) (int, error) {
	return k.s.Guarantee(ctx, p, seat)
}

// TableSize is the concept's table size: max^n's as it is now (it
// grows), paranoid's as the policy or Config.TableSize sized it.
func (k *PlayersSession) TableSize() int64 { return k.s.TableSize() }

// Work is the nodes searched and the positions in the tables so far,
// over every solve of the session.
func (k *PlayersSession) Work() (nodes uint64, entries int) { return k.s.Work() }
