package kalah

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kalah-solver/kalah/engine"
)

// TestParseGameForms: a random game written in every form reads back as
// the same moves: letters and digits with dashes, letters with spaces,
// JSON with moves, line or actions, and OpenSpiel actions, by format and
// detected.
func TestParseGameForms(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for range 30 {
		g := randomGame(rng, 6, 4, NoEmptyCapture, rng.IntN(40))
		def := Game{Pits: 6, Seeds: 4}
		var letters, acts []string
		for _, pl := range g.Moves {
			letters = append(letters, engine.MoveLetter(pl.Side, pl.Pit))
		}
		for _, a := range g.Actions() {
			acts = append(acts, strconv.Itoa(a))
		}
		forms := map[string]Format{
			engine.FormatLetters(g.Moves):                    FormatNotation,
			engine.FormatPaper(g.Moves):                      FormatNotation,
			`{"moves":` + jsonOf(letters) + `}`:              FormatJSON,
			`{"line":"` + engine.FormatPaper(g.Moves) + `"}`: FormatJSON,
			`{"pits":6,"seeds":4,"rule":"no-empty-capture","actions":[` + strings.Join(acts, ",") + `]}`: FormatJSON,
			"[" + strings.Join(acts, ", ") + "]": FormatOpenSpiel,
		}
		if len(g.Moves) > 1 {
			forms[strings.Join(letters, " ")] = FormatNotation
			forms[strings.Join(acts, " ")] = FormatOpenSpiel
		}
		for text, f := range forms {
			for _, ff := range []Format{f, FormatAuto} {
				got, err := ParseGame(text, ff, def)
				if err != nil {
					t.Fatalf("%q (%q): %v", text, ff, err)
				}
				if !slices.Equal(got.Moves, g.Moves) || got.Pits != 6 || got.Seeds != 4 || got.Rule != NoEmptyCapture {
					t.Fatalf("%q (%q): %+v, want %v", text, ff, got, g.Moves)
				}
			}
		}
		b, err := g.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		got, err := ParseGameJSON(b, Game{})
		if err != nil || !slices.Equal(got.Moves, g.Moves) {
			t.Fatalf("%s: %v", b, err)
		}
	}
}

// TestParseGameErrors: a bad move is named by its place and text.
func TestParseGameErrors(t *testing.T) {
	def := Game{Pits: 6, Seeds: 4}
	for _, c := range []struct {
		text  string
		f     Format
		index int
		move  string
	}{
		{"cx", FormatNotation, 1, "x"},
		{"cf-x", FormatNotation, 2, "x"},
		{"c-B", FormatNotation, 0, "c"},      // c earns an extra turn: no dash after it
		{"cB", FormatNotation, 1, "B"},       // c earns an extra turn: South again
		{"fa", FormatNotation, 0, "f"},       // f passes the turn: a dash is missing
		{"f-Bb", FormatNotation, 2, "b"},     // B earns an extra turn: North again
		{"28", FormatNotation, 1, "8"},       // no pit 8
		{"3 10 3", FormatOpenSpiel, 1, "10"}, // 3 (c) earns an extra turn
		{"[1, 7]", FormatOpenSpiel, 1, "7"},  // a store
		{"1 x", FormatOpenSpiel, 1, "x"},     // not a number
		{"1 20", FormatOpenSpiel, 1, "20"},   // off the board
		{"8", FormatOpenSpiel, 0, "8"},       // North's pit, South to move
		{`{"moves":["c","c"]}`, FormatJSON, 1, "c"},
		{`{"moves":["c",{}]}`, FormatJSON, 1, "{}"},
		{`{"actions":[3,3]}`, FormatJSON, 1, "3"},
		{`{"line":"c-B"}`, FormatJSON, 0, "c"},
	} {
		_, err := ParseGame(c.text, c.f, def)
		var me *MoveError
		if !errors.As(err, &me) {
			t.Errorf("%q: %v, want a move error", c.text, err)
			continue
		}
		if me.Index != c.index || me.Move != c.move {
			t.Errorf("%q: %v, want move %d (%s)", c.text, err, c.index+1, c.move)
		}
	}
	for _, text := range []string{`{"pits":6`, `{"moves":["c"],"line":"c"}`, `{"rule":"x"}`, `{"bogus":1}`, "c1", "c-", "-c", "c--f", "a*b"} {
		if _, err := ParseGame(text, FormatAuto, def); err == nil {
			t.Errorf("%q was read", text)
		}
	}
}

// TestParseGames: headers set the variant and format of the lines after
// them, and a bad line is named.
func TestParseGames(t *testing.T) {
	text := "# a comment\n\ncf-B\n# Kalah(4,3) empty-capture\na-A\n# format=openspiel\n1 6\n"
	gs, err := ParseGames(text, FormatAuto, Game{})
	if err != nil {
		t.Fatal(err)
	}
	if len(gs) != 3 || gs[0].Pits != 6 || gs[1].Pits != 4 || gs[1].Seeds != 3 || gs[1].Rule != EmptyCapture || gs[2].Pits != 4 || len(gs[2].Moves) != 2 {
		t.Fatalf("%+v", gs)
	}
	_, err = ParseGames("cf-B\n\nzz\n", FormatAuto, Game{})
	var le *LineError
	var me *MoveError
	if !errors.As(err, &le) || le.Line != 3 || !errors.As(err, &me) || me.Index != 0 {
		t.Errorf("a bad third line: %v", err)
	}
	if _, err := ParseGames("# Kalah(x,4)\n", FormatAuto, Game{}); err == nil {
		t.Error("a bad header was read")
	}
}

func jsonOf(v []string) string {
	if v == nil {
		v = []string{}
	}
	b, _ := json.Marshal(v)
	return string(b)
}
