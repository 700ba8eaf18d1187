package engine

import (
	"strings"
	"testing"
)

// The worked examples of the rule pages, as table tests. Positions are in the
// standard hole order; want is the board after the move.
func TestWorkedExamples(t *testing.T) {
	cases := []struct {
		name    string
		rule    Rule
		pos     string
		toMove  Side
		move    string
		want    string
		next    Side
		extra   bool
		capture bool
		over    bool
	}{
		{"Kalah(6,4) c ends in the store: extra turn", NoEmptyCapture,
			"4,4,4,4,4,4,0,4,4,4,4,4,4,0", South, "c",
			"4,4,0,5,5,5,1,4,4,4,4,4,4,0", South, true, false, false},
		{"North's extra turn skips nothing", EmptyCapture,
			"4,4,4,4,4,4,0,4,4,4,4,4,4,0", North, "C",
			"4,4,4,4,4,4,0,4,4,0,5,5,5,1", North, true, false, false},
		{"13 seeds lap back to the start pit and capture", NoEmptyCapture,
			"0,0,13,0,0,0,0,1,1,1,1,1,1,0", South, "c",
			"1,1,0,1,1,1,4,2,2,2,0,2,2,0", North, false, true, false},
		{"13-seed lap captures under empty-capture too", EmptyCapture,
			"0,0,13,0,0,0,0,1,1,1,1,1,1,0", South, "c",
			"1,1,0,1,1,1,4,2,2,2,0,2,2,0", North, false, true, false},
		{"empty pit, opposite empty: no-empty-capture leaves the seed", NoEmptyCapture,
			"1,0,0,0,0,3,0,2,3,4,5,0,0,0", South, "a",
			"0,1,0,0,0,3,0,2,3,4,5,0,0,0", North, false, false, false},
		{"empty pit, opposite empty: empty-capture banks the seed", EmptyCapture,
			"1,0,0,0,0,3,0,2,3,4,5,0,0,0", South, "a",
			"0,0,0,0,0,3,1,2,3,4,5,0,0,0", North, false, true, false},
		{"empty pit, opposite full: both rules capture", NoEmptyCapture,
			"1,0,0,0,0,3,0,2,3,4,5,6,0,0", South, "a",
			"0,0,0,0,0,3,7,2,3,4,5,0,0,0", North, false, true, false},
		{"emptying the mover's side ends the game and sweeps", NoEmptyCapture,
			"0,0,0,0,0,2,10,1,2,3,0,0,0,5", South, "f",
			"0,0,0,0,0,0,11,0,0,0,0,0,0,12", South, false, false, true},
		{"a capture that empties the opponent's side ends the game", EmptyCapture,
			"1,0,0,0,0,0,3,0,0,0,0,5,0,4", South, "a",
			"0,0,0,0,0,0,9,0,0,0,0,0,0,4", South, false, true, true},
		{"an extra-turn move that empties the mover's side ends the game", NoEmptyCapture,
			"0,0,0,0,0,1,20,3,3,3,3,3,3,5", South, "f",
			"0,0,0,0,0,0,21,0,0,0,0,0,0,23", South, false, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := ParsePosition(c.pos, c.toMove)
			if err != nil {
				t.Fatal(err)
			}
			r := Variant{Pits: p.Pits, Rule: c.rule}
			i, err := ParseMove(p, c.move)
			if err != nil {
				t.Fatal(err)
			}
			next, res := r.PlayPosition(p, i)
			if got := next.String(); got != c.want {
				t.Errorf("board %s, want %s", got, c.want)
			}
			if !c.over && next.ToMove != c.next {
				t.Errorf("next to move %v, want %v", next.ToMove, c.next)
			}
			if res.Extra() != c.extra || res.Capture() != c.capture || res.Over() != c.over {
				t.Errorf("extra=%v capture=%v over=%v, want %v %v %v", res.Extra(), res.Capture(), res.Over(), c.extra, c.capture, c.over)
			}
			checkAgainstReference(t, r, p, i)
		})
	}
}

func TestParsePositionErrors(t *testing.T) {
	bad := []struct{ in, want string }{
		{"4,4,4", "3 numbers"},
		{"4,4,x,4,4,4,0,4,4,4,4,4,4,0", `field 3 is "x"`},
		{"4,4,-1,4,4,4,0,4,4,4,4,4,4,0", "cannot be negative"},
		{"0,0,0,0,0,0,0,4,4,4,4,4,4,0", "South's pits are all empty"},
		{"100,100,100,0,0,0,0,4,4,4,4,4,4,0", "more than 255"},
		{"0,0,0,0", "no seeds"},
		{"1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1", "20 numbers"},
	}
	for _, c := range bad {
		_, err := ParsePosition(c.in, South)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParsePosition(%q) = %v, want an error mentioning %q", c.in, err, c.want)
		}
	}
	p, _ := ParsePosition("4,4,0,4,4,4,0,4,4,4,4,4,4,0", South)
	for in, want := range map[string]string{"c": "is empty", "A": "North's pit", "9": "1..6", "zz": "pit letter"} {
		if _, err := ParseMove(p, in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseMove(%q) = %v, want %q", in, err, want)
		}
	}
	if i, err := ParseMove(p, "4"); err != nil || i != 3 {
		t.Errorf("ParseMove(4) = %d, %v", i, err)
	}
}
