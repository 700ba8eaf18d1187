package results

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kalah-solver/kalah/engine"
)

func start(t *testing.T, c engine.Capture, m, n int) (engine.Rules, engine.Position) {
	t.Helper()
	r := engine.Rules{Pits: m, Capture: c}
	p, err := r.StartPosition(n)
	if err != nil {
		t.Fatal(err)
	}
	return r, p
}

// Every perfect game of the paper's Table 9 is a legal complete game under
// empty-capture that ends with the published margin, and reads back the
// same in both notations.
func TestTable9GamesReplay(t *testing.T) {
	for _, g := range Table9 {
		r, p := start(t, engine.EmptyCapture, g.Pits, g.Seeds)
		l, err := ParsePaper(r, p, g.Line)
		if g.Defect != "" {
			if want := fmt.Sprintf("turn %d ", g.BadTurn); err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("Kalah(%d,%d) has a known defect at turn %d, but parsing gives %v", g.Pits, g.Seeds, g.BadTurn, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Kalah(%d,%d): %v", g.Pits, g.Seeds, err)
			continue
		}
		end := l.End()
		if !end.Board.Over() || end.SouthDiff() != g.Value {
			t.Errorf("Kalah(%d,%d): game over %v, margin %d, want %d", g.Pits, g.Seeds, end.Board.Over(), end.SouthDiff(), g.Value)
		}
		if got := l.FormatPaper(); got != g.Line {
			t.Errorf("Kalah(%d,%d): formats as %q", g.Pits, g.Seeds, got)
		}
		l2, err := ParseLetters(r, p, l.FormatLetters())
		if err != nil || l2.FormatPaper() != g.Line {
			t.Errorf("Kalah(%d,%d): letters %q read back as %q, %v", g.Pits, g.Seeds, l.FormatLetters(), l2.FormatPaper(), err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	r, p := start(t, engine.EmptyCapture, 6, 1)
	cases := map[string]string{
		"5-4":    "extra turn",    // 5 earns an extra turn; the dash is wrong
		"45":     "no extra turn", // 4 passes the turn; a dash is missing
		"54--3":  "empty",
		"7":      "not a pit",
		"54-54-": "empty",
		"x":      "not a pit",
	}
	for line, want := range cases {
		if _, err := ParsePaper(r, p, line); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want one containing %q", line, err, want)
		}
	}
	if _, err := ParseLetters(r, p, "fe-e"); err == nil || !strings.Contains(err.Error(), "not a pit of north") {
		t.Errorf("lower case for North: %v", err)
	}
	// A line may stop in the middle of a turn.
	if l, err := ParsePaper(r, p, "5"); err != nil || len(l.Plies) != 1 || l.End().ToMove != engine.South {
		t.Errorf("partial turn: %v %v", l, err)
	}
	if l, err := ParsePaper(r, p, " 54 - 5 4 "); err != nil || len(l.Plies) != 4 {
		t.Errorf("spaces: %v", err)
	}
}

func TestOpeningChains(t *testing.T) {
	// Kalah(6,6): pit 1 (index 0) reaches the store and earns an extra
	// turn; Rawlings lists 1-2 .. 1-6 and 2 .. 6.
	r, p := start(t, engine.EmptyCapture, 6, 6)
	var got []string
	for _, c := range OpeningChains(r, p) {
		got = append(got, FormatChain(c))
	}
	var want []string
	for _, o := range Rawlings66 {
		want = append(want, o.Chain)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("Kalah(6,6) openings %v, want %v", got, want)
	}
	// Kalah(6,1): f earns an extra turn, then e lands in empty f: the
	// chains are 1..5 and 6-1..6-5.
	r, p = start(t, engine.EmptyCapture, 6, 1)
	got = nil
	for _, c := range OpeningChains(r, p) {
		got = append(got, FormatChain(c))
	}
	if strings.Join(got, " ") != "1 2 3 4 5 6-1 6-2 6-3 6-4 6-5" {
		t.Errorf("Kalah(6,1) openings %v", got)
	}
}

func TestChainRoundTrip(t *testing.T) {
	pits, err := ChainPits("1-6-3", 6)
	if err != nil || FormatChain(pits) != "1-6-3" || pits[1] != 5 {
		t.Errorf("%v %v", pits, err)
	}
	for _, bad := range []string{"0", "7", "1--2", "a"} {
		if _, err := ChainPits(bad, 6); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// edits returns every string one insertion, deletion, substitution or swap
// of a character of alphabet away from s.
func edits(s, alphabet string) []string {
	var out []string
	for i := 0; i <= len(s); i++ {
		for _, a := range alphabet {
			out = append(out, s[:i]+string(a)+s[i:])
		}
		if i < len(s) {
			out = append(out, s[:i]+s[i+1:])
			for _, a := range alphabet {
				out = append(out, s[:i]+string(a)+s[i+1:])
			}
			if i+1 < len(s) {
				b := []byte(s)
				b[i], b[i+1] = b[i+1], b[i]
				out = append(out, string(b))
			}
		}
	}
	return out
}

// The defect recorded for Table 9's 4(6) game holds: no line one or two
// edits away is a legal complete game with the published margin.
func TestTable9DefectNoNearbyRepair(t *testing.T) {
	if testing.Short() {
		t.Skip("searches every line two edits away")
	}
	for _, g := range Table9 {
		if g.Defect == "" {
			continue
		}
		r, p := start(t, engine.EmptyCapture, g.Pits, g.Seeds)
		alphabet := "-"
		for i := 0; i < g.Pits; i++ {
			alphabet += string(rune('0' + i))
		}
		seen := map[string]bool{}
		for _, a := range edits(g.Line, alphabet) {
			for _, b := range edits(a, alphabet) {
				if seen[b] {
					continue
				}
				seen[b] = true
				if l, err := ParsePaper(r, p, b); err == nil && l.End().Board.Over() && l.End().SouthDiff() == g.Value {
					t.Errorf("Kalah(%d,%d): %q is a legal game ending %d, two edits from the printed line", g.Pits, g.Seeds, b, g.Value)
				}
			}
		}
	}
}

// This package's parser (which keeps the legal part of an illegal line and
// every position) agrees with engine/line.go's: the same plies for every
// Table 9 game, the same verdict on bad lines, the same formatting.
func TestAgreesWithEngineLine(t *testing.T) {
	lines := map[[2]int][]string{{6, 1}: {"5-4", "45", "54--3", "7", "54-54-", "x", "5", " 54 - 5 4 ", ""}}
	for _, g := range Table9 {
		k := [2]int{g.Pits, g.Seeds}
		lines[k] = append(lines[k], g.Line)
	}
	for mn, ls := range lines {
		r, p := start(t, engine.EmptyCapture, mn[0], mn[1])
		for _, text := range ls {
			mine, err1 := ParsePaper(r, p, text)
			theirs, err2 := r.ParsePaper(p, text)
			if (err1 == nil) != (err2 == nil) {
				t.Errorf("Kalah(%d,%d) %q: errors %v and %v", mn[0], mn[1], text, err1, err2)
				continue
			}
			if err1 != nil {
				continue
			}
			if len(mine.Plies) != len(theirs) {
				t.Errorf("Kalah(%d,%d) %q: %d and %d plies", mn[0], mn[1], text, len(mine.Plies), len(theirs))
				continue
			}
			for i, pl := range theirs {
				if mine.Plies[i].Side != pl.Side || mine.Plies[i].Pit != pl.Pit {
					t.Errorf("Kalah(%d,%d) %q: ply %d differs", mn[0], mn[1], text, i+1)
				}
			}
			if mine.FormatPaper() != engine.FormatPaper(theirs) || mine.FormatLetters() != engine.FormatLetters(theirs) {
				t.Errorf("Kalah(%d,%d) %q: formats %q %q vs %q %q", mn[0], mn[1], text,
					mine.FormatPaper(), mine.FormatLetters(), engine.FormatPaper(theirs), engine.FormatLetters(theirs))
			}
		}
	}
}
