// Package cmdutil holds what every kalah command shares: its I/O streams,
// the exit-code convention, JSON output and the flags that name a game or a
// position.
package cmdutil

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/kalah-solver/kalah/engine"
	"github.com/spf13/cobra"
)

// IOStreams are the writers and reader a command uses; tests inject buffers.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
}

// System returns the process's standard streams.
func System() *IOStreams { return &IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr} }

// ExitError carries the process exit code of a failed command.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string { return e.Err.Error() }
func (e *ExitError) Unwrap() error { return e.Err }

// BadInput marks err as the user's input being wrong: exit code 2.
func BadInput(err error) error {
	if err == nil {
		return nil
	}
	return &ExitError{Code: 2, Err: err}
}

// BadInputf is BadInput(fmt.Errorf(...)).
func BadInputf(format string, a ...any) error { return BadInput(fmt.Errorf(format, a...)) }

// ExitCode maps an error returned by a command to the process exit code:
// 0 for nil, the ExitError's code, 130 for an interrupt, else 1.
func ExitCode(err error) int {
	var ee *ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.Code
	case errors.Is(err, ErrInterrupted):
		return 130
	}
	return 1
}

// ErrInterrupted is returned by long commands stopped by Ctrl-C or SIGTERM
// after they saved what they had.
var ErrInterrupted = errors.New("interrupted")

// PrintJSON writes v as one JSON object on one line.
func PrintJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// GameFlags name a game (pits, seeds per pit, rule) or a position in it.
type GameFlags struct {
	Pits     int
	Seeds    int
	Rule     string
	Position string
	ToMove   string
}

// AddGameFlags registers --pits, --seeds, --rule and, when withPosition,
// --position and --to-move.
func AddGameFlags(cmd *cobra.Command, f *GameFlags, withPosition bool) {
	cmd.Flags().IntVar(&f.Pits, "pits", 6, "pits per side, m (1-8)")
	cmd.Flags().IntVar(&f.Seeds, "seeds", 4, "seeds per pit at the start, n (2mn at most 255)")
	cmd.Flags().StringVar(&f.Rule, "rule", engine.NoEmptyCapture.String(), "capture convention: no-empty-capture or empty-capture")
	if withPosition {
		cmd.Flags().StringVar(&f.Position, "position", "", "a position: 2m+2 comma-separated counts, South's pits a.., South's store, North's pits A.., North's store (overrides --pits/--seeds)")
		cmd.Flags().StringVar(&f.ToMove, "to-move", "south", "side to move in --position: south or north")
	}
}

// ParseRule parses --rule.
func (f *GameFlags) ParseRule() (engine.Rule, error) {
	c, err := engine.ParseRule(f.Rule)
	return c, BadInput(err)
}

// Resolve returns the rules and the position the flags name: --position
// when given, else the start of Kalah(pits, seeds). Errors are BadInput.
// start reports whether the position is a start position.
func (f *GameFlags) Resolve() (r engine.Variant, p engine.Position, start bool, err error) {
	c, err := f.ParseRule()
	if err != nil {
		return r, p, false, err
	}
	if f.Position != "" {
		return f.ResolvePosition(c, f.Position)
	}
	r, err = engine.NewVariant(f.Pits, c)
	if err != nil {
		return r, p, false, BadInput(err)
	}
	p, err = r.StartPosition(f.Seeds)
	return r, p, true, BadInput(err)
}

// ResolvePosition parses one position text with the flags' --to-move.
func (f *GameFlags) ResolvePosition(c engine.Rule, text string) (r engine.Variant, p engine.Position, start bool, err error) {
	side, err := engine.ParseSide(f.ToMove)
	if err != nil {
		return r, p, false, BadInput(err)
	}
	p, err = engine.ParsePosition(text, side)
	if err != nil {
		return r, p, false, BadInput(err)
	}
	return engine.Variant{Pits: p.Pits, Rule: c}, p, false, nil
}

// Plural counts a noun: "1 run", "2 runs".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
