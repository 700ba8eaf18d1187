package root

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// CLIDocCommand is the command that regenerates docs/cli.md; the page
// names it in its first lines.
const CLIDocCommand = "go test ./cmd/kalah/root -run TestCLIDoc -update"

// machineFigures are the parts of a flag's help that describe this
// machine (its cores, its memory): the page, the same on every machine,
// leaves them out.
var machineFigures = []struct {
	re   *regexp.Regexp
	repl string
}{
	{regexp.MustCompile(`\(default all cores, \d+\)`), "(default all cores)"},
	{regexp.MustCompile(` \([^()]* here\)`), ""},
}

// WriteCLIDoc writes the Markdown reference of the command tree under
// root: for each visible command its description, usage, examples, flags
// and subcommands, then the deprecated commands and flags. It is
// docs/cli.md; the help of each command is the same text.
func WriteCLIDoc(w io.Writer, root *cobra.Command) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# The kalah command line\n\n")
	fmt.Fprintf(&b, "<!-- Generated from the command tree by `%s`; do not edit. -->\n\n", CLIDocCommand)
	fmt.Fprintf(&b, "`kalah COMMAND [flags]`; `kalah COMMAND --help` prints the section of a\n"+
		"command below. What every command shares (exit codes, output, JSON\n"+
		"fields, the game and search flags, the global flags of [kalah](#kalah))\n"+
		"is in "+
		"[formats.md](formats.md#command-output); the rules and the notation in\n"+
		"[rules.md](rules.md).\n\n")
	fmt.Fprintf(&b, "| command | what it does |\n|---|---|\n")
	cmds := visible(root)
	for _, c := range cmds {
		fmt.Fprintf(&b, "| [%s](#%s) | %s |\n", strings.TrimPrefix(c.CommandPath(), root.Name()+" "), anchor(c), cell(c.Short))
	}
	b.WriteString("\n")
	writeCommand(&b, root, 2)
	for _, c := range cmds {
		writeCommand(&b, c, 2)
	}
	writeDeprecated(&b, root)
	_, err := w.Write(b.Bytes())
	return err
}

// visible returns the commands under c that the help lists, depth first.
func visible(c *cobra.Command) []*cobra.Command {
	var out []*cobra.Command
	for _, sub := range c.Commands() {
		if !sub.IsAvailableCommand() || sub.Name() == "help" || sub.Name() == "completion" {
			continue
		}
		out = append(out, sub)
		out = append(out, visible(sub)...)
	}
	return out
}

// anchor is the heading anchor of a command's section.
func anchor(c *cobra.Command) string {
	return strings.ReplaceAll(c.CommandPath(), " ", "-")
}

func writeCommand(b *bytes.Buffer, c *cobra.Command, level int) {
	fmt.Fprintf(b, "%s %s\n\n", strings.Repeat("#", level), c.CommandPath())
	long := c.Long
	if long == "" {
		long = c.Short
	}
	writeProse(b, long)
	fmt.Fprintf(b, "```\n%s\n```\n\n", c.UseLine())
	if c.Example != "" {
		fmt.Fprintf(b, "Examples:\n\n```\n%s\n```\n\n", strings.TrimRight(c.Example, "\n"))
	}
	if c.HasAvailableLocalFlags() {
		fmt.Fprintf(b, "Flags:\n\n```\n%s```\n\n", flagText(c.LocalFlags()))
	}
	var subs []string
	for _, sub := range c.Commands() {
		if sub.IsAvailableCommand() && sub.Name() != "help" && sub.Name() != "completion" {
			subs = append(subs, fmt.Sprintf("[%s](#%s)", sub.Name(), anchor(sub)))
		}
	}
	if len(subs) > 0 {
		fmt.Fprintf(b, "Subcommands: %s.\n\n", strings.Join(subs, ", "))
	}
}

// writeProse writes a description: its paragraphs as Markdown text, a
// paragraph with an indented line (a list, a table) as a code block.
func writeProse(b *bytes.Buffer, text string) {
	for _, p := range strings.Split(strings.TrimSpace(text), "\n\n") {
		p = strings.Trim(p, "\n")
		indented := false
		for _, l := range strings.Split(p, "\n") {
			if strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t") {
				indented = true
			}
		}
		if indented {
			fmt.Fprintf(b, "```\n%s\n```\n\n", p)
		} else {
			fmt.Fprintf(b, "%s\n\n", p)
		}
	}
}

// flagText is the flag list as the help prints it, less this machine's
// figures.
func flagText(fs *pflag.FlagSet) string {
	s := fs.FlagUsagesWrapped(helpWidth)
	for _, m := range machineFigures {
		s = m.re.ReplaceAllString(s, m.repl)
	}
	return s
}

// writeDeprecated lists the hidden old names of commands and flags, with
// what replaces each.
func writeDeprecated(b *bytes.Buffer, root *cobra.Command) {
	var rows []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Deprecated != "" && (c.Parent() == nil || c.Parent().Deprecated == "") {
			rows = append(rows, fmt.Sprintf("| `%s` | %s |", c.CommandPath(), cell(c.Deprecated)))
		}
		if c.Deprecated == "" {
			c.LocalFlags().VisitAll(func(f *pflag.Flag) {
				if f.Deprecated != "" {
					rows = append(rows, fmt.Sprintf("| `%s --%s` | %s |", c.CommandPath(), f.Name, cell(f.Deprecated)))
				}
			})
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	if len(rows) == 0 {
		return
	}
	sort.Strings(rows)
	fmt.Fprintf(b, "## Deprecated names\n\n")
	fmt.Fprintf(b, "Accepted until v0.3.0, which removes them; each works as what replaces\n"+
		"it, with a warning on standard error.\n\n")
	fmt.Fprintf(b, "| deprecated | instead |\n|---|---|\n%s\n", strings.Join(rows, "\n"))
}

// cell escapes the pipes of a table cell.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
