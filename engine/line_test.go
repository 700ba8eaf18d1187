package engine

import (
	"reflect"
	"strings"
	"testing"
)

// published are the perfect games of Irving, Donkers & Uiterwijk (2000),
// table 9, under empty-capture, with their values (South's final store
// minus North's): the lines are independent data for the parser and the
// rules.
var published = []struct {
	m, n  int
	value int
	line  string
}{
	{4, 1, 2, "32-32-1"},
	{4, 2, 6, "3-3-230-231-1323"},
	{4, 3, 8, "13-1-032-2-3-0-1320-3-0-2"},
	{4, 4, 2, "02-2-3-0-2-21-303231-0-32-1-0"},
	{5, 1, 0, "43-43-2-2"},
	{5, 4, 12, "12-04-03-2-20-41-1-42-32-3-2-40-0-1"},
	{6, 1, 2, "54-54-3-3-2"},
	{6, 2, 10, "42-42-30-0-1-1-4-5"},
	{6, 4, 10, "25-10-3-3-5153-1-4-5-045-4-535452-53-4-1-3-2-0-54-1-3"},
	{6, 5, 12, "12-02-05-2-4-51-53-3-45-20-3-2-2-345-5-4-351-0-54-1-52-354-4-254-3-3"},
}

func TestPublishedLines(t *testing.T) {
	for _, c := range published {
		r := Variant{Pits: c.m, Rule: EmptyCapture}
		start, _ := r.StartPosition(c.n)
		line, err := r.ParsePaper(start, c.line)
		if err != nil {
			t.Fatalf("Kalah(%d,%d): %v", c.m, c.n, err)
		}
		end, err := r.PlayLine(start, line)
		if err != nil {
			t.Fatalf("Kalah(%d,%d): %v", c.m, c.n, err)
		}
		if !end.Board.Over() || end.SouthDiff() != c.value {
			t.Errorf("Kalah(%d,%d): line ends at %v (over %v) with %+d, published %+d", c.m, c.n, end, end.Board.Over(), end.SouthDiff(), c.value)
		}
		if got := FormatPaper(line); got != c.line {
			t.Errorf("Kalah(%d,%d): FormatPaper = %q, want %q", c.m, c.n, got, c.line)
		}
		letters := FormatLetters(line)
		back, err := r.ParseLetters(start, letters)
		if err != nil || !reflect.DeepEqual(back, line) {
			t.Errorf("Kalah(%d,%d): letters %q read back as %v, %v", c.m, c.n, letters, back, err)
		}
	}
}

func TestFormatLetters(t *testing.T) {
	line := []Ply{{South, 2}, {South, 5}, {North, 1}, {South, 0}}
	if got := FormatLetters(line); got != "cf-B-a" {
		t.Errorf("FormatLetters = %q", got)
	}
	if got := FormatPaper(line); got != "25-1-0" {
		t.Errorf("FormatPaper = %q", got)
	}
	if FormatLetters(nil) != "" || FormatPaper(nil) != "" {
		t.Error("empty line not empty")
	}
}

func TestParseLineErrors(t *testing.T) {
	r := Variant{Pits: 4, Rule: EmptyCapture}
	start, _ := r.StartPosition(1)
	cases := []struct {
		line, want string
	}{
		{"3-2", "no dash after it"},    // 3 earns an extra turn: South moves again
		{"312", "no extra turn"},       // 1 passes the turn: a dash is missing
		{"4", "not a pit"},             // holes run 0..3
		{"x", "not a pit"},             //
		{"32--3", "empty"},             //
		{"32-32-1-0", "after the end"}, // the published game is over after 1
		{"32-32-1-", "empty"},          //
		{"32-32-3", "pit d is empty"},  // South played d in the first turn
	}
	for _, c := range cases {
		if _, err := r.ParsePaper(start, c.line); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err %v, want %q", c.line, err, c.want)
		}
	}
	if _, err := r.ParseLetters(start, "dc-D"); err != nil {
		t.Errorf("dc-D: %v", err)
	}
	if _, err := r.ParseLetters(start, "D"); err == nil || !strings.Contains(err.Error(), "not a pit of south") {
		t.Errorf("D at the start: %v", err)
	}
}
