package playcmd

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/play"
	"golang.org/x/term"
)

// lineReader reads the player's commands, one a line, showing prompt.
type lineReader interface {
	ReadLine(prompt string) (string, error)
}

// plainReader reads lines from a pipe or a file.
type plainReader struct {
	in *bufio.Scanner
	w  io.Writer
}

func (r *plainReader) ReadLine(prompt string) (string, error) {
	fmt.Fprint(r.w, prompt)
	if !r.in.Scan() {
		fmt.Fprintln(r.w)
		if err := r.in.Err(); err != nil {
			return "", err
		}
		return "", io.EOF
	}
	return r.in.Text(), nil
}

// termReader reads lines from a terminal with in-place editing and a
// history (the arrow keys recall earlier commands), by x/term's line
// editor. The terminal is in raw mode only while a line is read, so that
// Ctrl-C still stops a solve; at the prompt Ctrl-C or Ctrl-D ends the game.
type termReader struct {
	fd int
	t  *term.Terminal
}

func (r *termReader) ReadLine(prompt string) (string, error) {
	st, err := term.MakeRaw(r.fd)
	if err != nil {
		return "", err
	}
	defer term.Restore(r.fd, st)
	r.t.SetPrompt(prompt)
	line, err := r.t.ReadLine()
	if err == io.EOF {
		r.t.Write([]byte("\n"))
	}
	return line, err
}

// terminal returns the file descriptor of f when it is a terminal.
func terminal(f any) (int, bool) {
	if file, ok := f.(*os.File); ok && term.IsTerminal(int(file.Fd())) {
		return int(file.Fd()), true
	}
	return 0, false
}

// newLineReader returns a line editor when standard input and output are
// a terminal, a plain reader otherwise; color says whether the board may
// be drawn in colour (a terminal, and $NO_COLOR unset).
func newLineReader(in io.Reader, out io.Writer) (r lineReader, color bool) {
	fd, inTerm := terminal(in)
	_, outTerm := terminal(out)
	if inTerm && outTerm {
		return &termReader{fd: fd, t: term.NewTerminal(struct {
			io.Reader
			io.Writer
		}{in, out}, "")}, os.Getenv("NO_COLOR") == ""
	}
	return &plainReader{in: bufio.NewScanner(in), w: out}, false
}

// ANSI styles of the coloured board.
const (
	styleLast    = "\x1b[1;33m" // the pit sown last: bold yellow
	styleCapture = "\x1b[1;31m" // a capture's two pits: bold red
	styleLegal   = "\x1b[1m"    // the letters of the mover's legal moves: bold
	styleReset   = "\x1b[0m"
)

// colorDiagram is engine.Position.Diagram with the last sowing's pit, a
// capture's pits and the legal moves' letters in colour.
func colorDiagram(p engine.Position, last *play.Step) string {
	m := p.Pits
	h := p.Holes()
	style := map[string]string{} // pit letter -> style of its count
	if last != nil {
		style[last.Move] = styleLast
		if last.CapturedFrom != "" {
			j := int(strings.ToLower(last.CapturedFrom)[0] - 'a')
			style[last.CapturedFrom] = styleCapture
			style[engine.MoveLetter(last.Ply.Side, m-1-j)] = styleCapture
		}
	}
	legal := map[string]bool{}
	if !p.Board.Over() {
		for _, i := range p.Board.MoveList() {
			legal[engine.MoveLetter(p.ToMove, i)] = true
		}
	}
	var sb strings.Builder
	cell := func(v any, st string) {
		s := fmt.Sprint(v)
		sb.WriteString(strings.Repeat(" ", max(0, 4-len(s))))
		if st == "" {
			sb.WriteString(s)
			return
		}
		sb.WriteString(st + s + styleReset)
	}
	letterStyle := func(l string) string {
		if legal[l] {
			return styleLegal
		}
		return ""
	}
	sb.WriteString("     ")
	for i := m - 1; i >= 0; i-- {
		l := engine.MoveLetter(engine.North, i)
		cell(l, letterStyle(l))
	}
	sb.WriteString("\n     ")
	for i := m - 1; i >= 0; i-- {
		cell(h[m+1+i], style[engine.MoveLetter(engine.North, i)])
	}
	fmt.Fprintf(&sb, "\n%4d %s %4d\n     ", h[2*m+1], strings.Repeat("    ", m), h[m])
	for i := 0; i < m; i++ {
		cell(h[i], style[engine.MoveLetter(engine.South, i)])
	}
	sb.WriteString("\n     ")
	for i := 0; i < m; i++ {
		l := engine.MoveLetter(engine.South, i)
		cell(l, letterStyle(l))
	}
	status := p.ToMove.String() + " to move"
	if p.Board.Over() {
		status = "game over"
	}
	fmt.Fprintf(&sb, "\n(%s; North's store left, South's right)\n", status)
	return sb.String()
}
