package kalah

import (
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// Checks that keep the documentation honest. They read the files of the
// repository, relative to this package's directory (the module root).

// docFiles returns README.md and every Markdown file under docs/, and
// CHANGELOG.md too when withChangelog.
func docFiles(t *testing.T, withChangelog bool) []string {
	t.Helper()
	files := []string{"README.md"}
	if withChangelog {
		files = append(files, "CHANGELOG.md")
	}
	err := filepath.WalkDir("docs", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".md") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// goFiles returns every .go file of the module: not under .git, testdata
// or a directory of another module.
func goFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path == "." {
				return nil
			}
			name := d.Name()
			if strings.HasPrefix(name, ".") || name == "testdata" || name == "vendor" || name == "node_modules" {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// diaryPatterns are phrases of a work diary: the number of a working
// session or of a tracker's ticket. A reader has neither; the text should
// say what is, and the commit history what happened when. Each pattern is
// built from two pieces so that this file's own source does not match it.
var diaryPatterns = []*regexp.Regexp{
	regexp.MustCompile(`(?i)\bsess` + `ions?[ -]#?\d`),
	regexp.MustCompile(`(?i)\biss` + `ues? #?\d`),
}

// proseDiaryPattern is a reference to a working session before or after,
// looked for in the Markdown only: in the Go sources a session is a
// kalah.Session (docs/architecture.md, "Glossary"), and "closes this
// session" says what the code does.
var proseDiaryPattern = regexp.MustCompile(`(?i)\b(last|previous|this|earlier|next) sess` + `ion\b`)

// TestNoWorkDiary: README.md, docs/ and the Go sources speak to a reader,
// not of the work sessions that made them, and the hand-written pages tell
// no dated story (datedNarrative, outside code blocks; the generated pages
// date their records). CHANGELOG.md is exempt.
func TestNoWorkDiary(t *testing.T) {
	for name, md := range handWritten(t) {
		for _, l := range proseLines(md) {
			for _, re := range datedNarrative {
				if m := re.FindString(l.text); m != "" {
					t.Errorf("%s:%d: %q is dated narrative: say how things are, and put the figure in a record (docs/formats.md, \"Benchmark records\")", filepath.ToSlash(name), l.n, m)
				}
			}
		}
	}
	files := append(docFiles(t, false), goFiles(t)...)
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		patterns := diaryPatterns
		if strings.HasSuffix(name, ".md") {
			patterns = append(patterns[:len(patterns):len(patterns)], proseDiaryPattern)
		}
		for i, line := range strings.Split(string(b), "\n") {
			for _, re := range patterns {
				if m := re.FindString(line); m != "" {
					t.Errorf("%s:%d: %q reads as a work diary: say what is, without it", filepath.ToSlash(name), i+1, m)
				}
			}
		}
	}
}

// mdLink is a Markdown link or image target: "](target)", with an optional
// title after it, or an HTML src or href.
var (
	mdLink   = regexp.MustCompile(`\]\(\s*(<[^>]*>|[^)\s]*)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)`)
	mdRef    = regexp.MustCompile(`^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)`)
	htmlLink = regexp.MustCompile(`(?i)\b(?:src|href)\s*=\s*"([^"]*)"`)
	scheme   = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// mdLine is one line of a Markdown file outside code blocks, its code
// spans blanked out.
type mdLine struct {
	n    int // 1-based
	text string
}

// proseLines returns the lines of md outside fenced code blocks, with the
// contents of code spans blanked (links in code do not count).
func proseLines(md string) []mdLine {
	var out []mdLine
	fence := ""
	for i, l := range strings.Split(md, "\n") {
		trim := strings.TrimSpace(l)
		if fence != "" {
			if strings.HasPrefix(trim, fence) && strings.Trim(trim, fence[:1]) == "" {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~") {
			fence = trim[:3]
			continue
		}
		out = append(out, mdLine{i + 1, blankCodeSpans(l)})
	}
	return out
}

// blankCodeSpans replaces the contents of the code spans of a line with
// spaces. A span that does not close on its line is left as it is.
func blankCodeSpans(l string) string {
	b := []byte(l)
	for i := 0; i < len(b); {
		if b[i] != '`' {
			i++
			continue
		}
		n := 0
		for i+n < len(b) && b[i+n] == '`' {
			n++
		}
		tick := strings.Repeat("`", n)
		end := strings.Index(string(b[i+n:]), tick)
		if end < 0 {
			i += n
			continue
		}
		for j := i + n; j < i+n+end; j++ {
			b[j] = ' '
		}
		i += 2*n + end
	}
	return string(b)
}

// headingSlugs returns the anchors GitHub gives the headings of a Markdown
// file (and any explicit <a id/name> anchors).
func headingSlugs(md string) map[string]bool {
	slugs := map[string]bool{}
	count := map[string]int{}
	atx := regexp.MustCompile(`^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$`)
	anchor := regexp.MustCompile(`(?i)<a\s+(?:id|name)\s*=\s*"([^"]+)"`)
	fence := ""
	for _, l := range strings.Split(md, "\n") {
		trim := strings.TrimSpace(l)
		if fence != "" {
			if strings.HasPrefix(trim, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~") {
			fence = trim[:3]
			continue
		}
		for _, m := range anchor.FindAllStringSubmatch(l, -1) {
			slugs[m[1]] = true
		}
		m := atx.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		s := githubSlug(m[1])
		if n := count[s]; n > 0 {
			slugs[fmt.Sprintf("%s-%d", s, n)] = true
		} else {
			slugs[s] = true
		}
		count[s]++
	}
	return slugs
}

// githubSlug is GitHub's anchor of a heading: the text as rendered (links
// reduced to their text, code marks, emphasis and HTML tags dropped),
// lowercased, every character but letters, digits, spaces, hyphens and
// underscores dropped, and spaces made hyphens.
func githubSlug(heading string) string {
	heading = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`).ReplaceAllString(heading, "$1")
	heading = regexp.MustCompile(`<[^>]+>`).ReplaceAllString(heading, "")
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestRelativeLinks: every relative link and image of README.md,
// CHANGELOG.md and docs/ names a file that exists, and its #fragment a
// heading of that file.
func TestRelativeLinks(t *testing.T) {
	slugCache := map[string]map[string]bool{}
	slugsOf := func(path string) (map[string]bool, error) {
		if s, ok := slugCache[path]; ok {
			return s, nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		slugCache[path] = headingSlugs(string(b))
		return slugCache[path], nil
	}
	checked := 0
	for _, name := range docFiles(t, true) {
		b, err := os.ReadFile(name)
		if err != nil {
			if name == "CHANGELOG.md" && os.IsNotExist(err) {
				t.Errorf("%s: missing", name)
				continue
			}
			t.Fatal(err)
		}
		for _, l := range proseLines(string(b)) {
			var targets []string
			for _, m := range mdLink.FindAllStringSubmatch(l.text, -1) {
				targets = append(targets, strings.Trim(m[1], "<>"))
			}
			if m := mdRef.FindStringSubmatch(l.text); m != nil {
				targets = append(targets, strings.Trim(m[1], "<>"))
			}
			for _, m := range htmlLink.FindAllStringSubmatch(l.text, -1) {
				targets = append(targets, m[1])
			}
			for _, target := range targets {
				if target == "" || scheme.MatchString(target) || strings.HasPrefix(target, "//") {
					continue
				}
				checked++
				where := fmt.Sprintf("%s:%d: link %q", filepath.ToSlash(name), l.n, target)
				p, frag, _ := strings.Cut(target, "#")
				if q := strings.IndexByte(p, '?'); q >= 0 {
					p = p[:q]
				}
				if u, err := url.PathUnescape(p); err == nil {
					p = u
				}
				path := name
				switch {
				case strings.HasPrefix(p, "/"):
					path = filepath.FromSlash(strings.TrimPrefix(p, "/"))
				case p != "":
					path = filepath.Join(filepath.Dir(name), filepath.FromSlash(p))
				}
				if _, err := os.Stat(path); err != nil {
					t.Errorf("%s: no file %s", where, filepath.ToSlash(path))
					continue
				}
				if frag == "" || !strings.HasSuffix(path, ".md") {
					continue
				}
				slugs, err := slugsOf(path)
				if err != nil {
					t.Errorf("%s: %v", where, err)
					continue
				}
				if !slugs[frag] {
					t.Errorf("%s: %s has no heading #%s", where, filepath.ToSlash(path), frag)
				}
			}
		}
	}
	if checked == 0 {
		t.Error("no relative link found; the parser has lost them")
	}
}
