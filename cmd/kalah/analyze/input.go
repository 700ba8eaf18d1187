package analyzecmd

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
)

// input is one game read, with where it was read: a file and its line,
// or the command line (line 0).
type input struct {
	game kalah.Game
	file string
	line int
}

// where names where the game was read.
func (in input) where() string {
	if in.line == 0 {
		return in.file
	}
	return fmt.Sprintf("%s line %d", in.file, in.line)
}

// commandLine is where verify-line's game is read.
const commandLine = "the command line"

// readGames reads the game on the command line (verify-line) or every
// file's games; a bad line is bad input naming the file and the line.
func readGames(opts *Options) ([]input, error) {
	format, err := kalah.ParseFormat(opts.Format)
	if err != nil {
		return nil, cmdutil.BadInput(err)
	}
	def, err := defaultGame(opts)
	if err != nil {
		return nil, err
	}
	if opts.Line != "" {
		g, err := kalah.ParseGame(opts.Line, format, def)
		if err != nil {
			return nil, cmdutil.BadInputf("%s: %v", commandLine, err)
		}
		return []input{{game: g, file: commandLine}}, nil
	}
	files := opts.Files
	if len(files) == 0 {
		files = []string{"-"}
	}
	var out []input
	for _, name := range files {
		var b []byte
		if name == "-" || name == "" {
			name = "standard input"
			b, err = io.ReadAll(opts.IO.In)
		} else {
			b, err = os.ReadFile(name)
		}
		if err != nil {
			return nil, err
		}
		gs, lines, err := parseLines(string(b), format, def)
		if err != nil {
			return nil, cmdutil.BadInputf("%s: %v", name, err)
		}
		for i, g := range gs {
			out = append(out, input{game: g, file: name, line: lines[i]})
		}
	}
	if len(out) == 0 {
		return nil, cmdutil.BadInputf("no games to analyse")
	}
	return out, nil
}

// defaultGame is the board, rule and start the flags give the games that
// do not name their own.
func defaultGame(opts *Options) (kalah.Game, error) {
	rule, err := opts.Game.ParseRule()
	if err != nil {
		return kalah.Game{}, err
	}
	def := kalah.Game{Pits: opts.Game.Pits, Seeds: opts.Game.Seeds, Rule: rule}
	if opts.Game.Position != "" {
		_, p, _, err := opts.Game.ResolvePosition(rule, opts.Game.Position)
		if err != nil {
			return kalah.Game{}, err
		}
		def.Pits, def.Seeds, def.Position = p.Pits, 0, &p
	}
	return def, nil
}

// parseLines is kalah.ParseGames that also says on which line each game
// stands.
func parseLines(text string, f kalah.Format, def kalah.Game) ([]kalah.Game, []int, error) {
	gs, err := kalah.ParseGames(text, f, def)
	if err != nil {
		return nil, nil, err
	}
	var lines []int
	for i, l := range splitLines(text) {
		if l != "" && l[0] != '#' {
			lines = append(lines, i+1)
		}
	}
	return gs, lines, nil
}

// splitLines splits a text into its lines, trimmed, as kalah.ParseGames
// reads them.
func splitLines(text string) []string {
	ls := strings.Split(text, "\n")
	for i, l := range ls {
		ls[i] = strings.TrimSpace(l)
	}
	return ls
}
