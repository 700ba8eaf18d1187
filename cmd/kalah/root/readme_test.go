package root

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/spf13/cobra"
)

// TestREADMECommandsExist: every kalah command line that README.md shows
// (in a code span or a code block: `kalah cmd ...`, `./kalah cmd ...`,
// `go run ./cmd/kalah cmd ...`) names a command of the tree, and its
// subcommand when the next word is one, and its --flags are the command's.
// Hidden or deprecated commands, aliases and flags do not count: the
// README shows the current names.
func TestREADMECommandsExist(t *testing.T) {
	b, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	io, _, _ := cmdutil.Test()
	root := NewCmdRoot(io)
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	seen := 0
	for _, c := range commandLines(string(b)) {
		seen++
		if msg := checkCommandLine(root, c.words); msg != "" {
			t.Errorf("README.md:%d: %q: %s", c.line, c.text, msg)
		}
	}
	if seen == 0 {
		t.Error("README.md shows no kalah command line; the parser has lost them")
	}
}

// shownCommand is one kalah command line in a Markdown file.
type shownCommand struct {
	line  int      // 1-based
	text  string   // the command line, from kalah on
	words []string // the words after kalah, flags and all
}

// kalahAt finds "kalah", "./kalah" or "go run ./cmd/kalah" where a command
// starts: at the start of a code span or line (after a shell prompt), or
// after a shell operator. A "|" between two words without spaces
// ("show|move") gives alternatives; "| " is a pipe and ends the line.
var kalahAt = regexp.MustCompile(`(?:^|[;&|(]\s*|\$\s+)(?:go run \./cmd/kalah|\./kalah|kalah)(\s+(?:[^;&()|]|\|[^\s|])*|$)`)

// commandLines returns the kalah command lines in the code spans and the
// shell code blocks (fenced with sh, bash, shell, console, zsh or nothing)
// of a Markdown text.
func commandLines(md string) []shownCommand {
	var out []shownCommand
	add := func(line int, code string) {
		code = strings.TrimSpace(code)
		for _, m := range kalahAt.FindAllStringSubmatch(code, -1) {
			rest := strings.TrimSpace(m[1])
			text := strings.Join(strings.Fields(strings.TrimLeft(m[0], ";&|($ \t")), " ")
			out = append(out, shownCommand{line: line, text: text, words: strings.Fields(rest)})
		}
	}
	lines := strings.Split(md, "\n")
	fence, shell := "", false
	var para strings.Builder // a paragraph's text, for spans that wrap lines
	paraStart := 0
	flush := func() {
		for _, s := range codeSpans(para.String()) {
			add(paraStart+strings.Count(para.String()[:s[0]], "\n"), para.String()[s[0]:s[1]])
		}
		para.Reset()
	}
	for i, l := range lines {
		trim := strings.TrimSpace(l)
		if fence != "" {
			if strings.HasPrefix(trim, fence) {
				fence = ""
				continue
			}
			if shell {
				add(i+1, l)
			}
			continue
		}
		if strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~") {
			flush()
			fence = trim[:3]
			switch info, _, _ := strings.Cut(strings.TrimLeft(trim, "`~ "), " "); info {
			case "", "sh", "bash", "shell", "console", "zsh":
				shell = true
			default:
				shell = false // Go, JSON, a program's output: no command lines
			}
			continue
		}
		if trim == "" {
			flush()
			continue
		}
		if para.Len() == 0 {
			paraStart = i + 1
		} else {
			para.WriteByte('\n')
		}
		para.WriteString(l)
	}
	flush()
	return out
}

// codeSpans returns the [start, end) offsets of the contents of the code
// spans of a paragraph.
func codeSpans(s string) [][2]int {
	var spans [][2]int
	for i := 0; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		n := 0
		for i+n < len(s) && s[i+n] == '`' {
			n++
		}
		tick := strings.Repeat("`", n)
		start := i + n
		end := -1
		for j := start; j < len(s); {
			k := strings.Index(s[j:], tick)
			if k < 0 {
				break
			}
			k += j
			m := 0
			for k+m < len(s) && s[k+m] == '`' {
				m++
			}
			if m == n {
				end = k
				break
			}
			j = k + m
		}
		if end < 0 {
			i = start
			continue
		}
		spans = append(spans, [2]int{start, end})
		i = end + n
	}
	return spans
}

// word is a command name, or alternatives of one ("show|move").
var word = regexp.MustCompile(`^[a-z][a-z0-9-]*(\|[a-z][a-z0-9-]*)*$`)

// checkCommandLine walks words down the tree from root: the first word
// must be a current command (a flag first is fine: `kalah --help`), each
// next word a current subcommand when it names one; a command that only
// groups subcommands takes no other word (one that its Args refuse). Every --flag after must be a
// current flag of the command named. It returns what is wrong, or "".
func checkCommandLine(root *cobra.Command, words []string) string {
	cmds := []*cobra.Command{root}
	i := 0
	for ; i < len(words) && word.MatchString(words[i]); i++ {
		var next []*cobra.Command
		for _, c := range cmds {
			for _, alt := range strings.Split(words[i], "|") {
				sub, kind := child(c, alt)
				switch {
				case sub != nil:
					next = append(next, sub)
				case kind != "":
					return c.CommandPath() + " " + alt + ": " + kind + "; show the current name"
				case i == 0 || len(c.Commands()) > 0 && (!c.Runnable() || c.ValidateArgs([]string{alt}) != nil):
					return c.CommandPath() + " has no command " + alt
				}
			}
		}
		if len(next) == 0 {
			break // an argument of a runnable command
		}
		cmds = next
	}
	for _, w := range words[i:] {
		if !strings.HasPrefix(w, "--") || len(w) == 2 {
			continue
		}
		name, _, _ := strings.Cut(w[2:], "=")
		for _, c := range cmds {
			f := c.Flag(name)
			if f == nil && name == "help" {
				continue
			}
			switch {
			case f == nil:
				return c.CommandPath() + " has no flag --" + name
			case f.Deprecated != "":
				return c.CommandPath() + " --" + name + ": deprecated (" + f.Deprecated + "); show the current name"
			case f.Hidden:
				return c.CommandPath() + " --" + name + ": a hidden flag; show the current name"
			}
		}
	}
	return ""
}

// child returns c's current subcommand of that name, or nil and why a
// subcommand that answers to the name does not count.
func child(c *cobra.Command, name string) (*cobra.Command, string) {
	for _, sub := range c.Commands() {
		switch {
		case sub.Name() == name && sub.Deprecated != "":
			return nil, "deprecated (" + sub.Deprecated + ")"
		case sub.Name() == name && sub.Hidden:
			return nil, "a hidden command"
		case sub.Name() == name:
			return sub, ""
		case sub.HasAlias(name):
			return nil, "an alias of " + sub.CommandPath()
		}
	}
	return nil, ""
}

// TestCheckCommandLine: the README check finds what it should.
func TestCheckCommandLine(t *testing.T) {
	io, _, _ := cmdutil.Test()
	root := NewCmdRoot(io)
	root.InitDefaultHelpCmd()
	for _, c := range []struct {
		line string
		ok   bool
	}{
		{"kalah --help", true},
		{"kalah solve --pits 6 --seeds 5 --value-only", true},
		{"kalah move c f", true},
		{"kalah show|move|perft|solve --players 3|4", true},
		{"kalah cache stats --json", true},
		{"kalah campaign start k63 --pits 6 --seeds 3 --local 2", true},
		{"kalah help solve", true},
		{"kalah frobnicate", false},
		{"kalah show|frobnicate", false},
		{"kalah campaign frobnicate", false},
		{"kalah store stats", false},
		{"kalah table --pits 1-4", false},
		{"kalah campaign start k --no-shared-table", false},
		{"kalah solve --frobnicate", false},
	} {
		msg := checkCommandLine(root, strings.Fields(c.line)[1:])
		if (msg == "") != c.ok {
			t.Errorf("%q: %q, want ok %v", c.line, msg, c.ok)
		}
	}
	got := commandLines("Run `go run ./cmd/kalah solve`, then\n`kalah cache\npath`.\n\n```sh\n$ kalah sweep --pits 1-4 | tee out\nkalah computes values\n```\n\n```text\nkalah computes\n```\n")
	var texts []string
	for _, c := range got {
		texts = append(texts, fmt.Sprintf("%d %s", c.line, c.text))
	}
	want := []string{"1 go run ./cmd/kalah solve", "2 kalah cache path", "6 kalah sweep --pits 1-4", "7 kalah computes values"}
	if strings.Join(texts, "|") != strings.Join(want, "|") {
		t.Errorf("commandLines: %q, want %q", texts, want)
	}
}
