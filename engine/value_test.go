package engine

import "testing"

// TestSignRule checks the value helpers against each other: the interval
// map is the value map applied to both ends, ChildWindow inverts it, and
// MoveGain is MoveValue in seeds banked.
func TestSignRule(t *testing.T) {
	for _, res := range []Result{0, ResCapture, ResExtra} {
		for gain := -3; gain <= 5; gain++ {
			for lo := -4; lo <= 4; lo++ {
				for hi := lo; hi <= 4; hi++ {
					a, b := MoveValue(res, gain, lo), MoveValue(res, gain, hi)
					mlo, mhi := MoveBounds(res, gain, lo, hi)
					if mlo != min(a, b) || mhi != max(a, b) {
						t.Fatalf("res %d gain %d: MoveBounds(%d, %d) = [%d, %d], values %d %d", res, gain, lo, hi, mlo, mhi, a, b)
					}
					// Every child value c lies in the child window of
					// [lo, hi] exactly when the move's value lies in [lo, hi].
					clo, chi := ChildWindow(res, gain, lo, hi)
					for c := -12; c <= 12; c++ {
						v := MoveValue(res, gain, c)
						if (clo <= c && c <= chi) != (lo <= v && v <= hi) {
							t.Fatalf("res %d gain %d: child %d (move %d) against window [%d, %d] -> [%d, %d]", res, gain, c, v, lo, hi, clo, chi)
						}
					}
				}
			}
		}
	}
	for _, res := range []Result{0, ResExtra} {
		for k := 0; k <= 6; k++ {
			for cs := 0; cs <= 8; cs++ {
				for cg := 0; cg <= cs; cg++ {
					g := MoveGain(res, k, cs, cg)
					if v := MoveValue(res, k, 2*cg-cs); 2*g-(k+cs) != v {
						t.Fatalf("res %d: MoveGain(%d, %d, %d) = %d, value %d", res, k, cs, cg, g, v)
					}
				}
			}
		}
	}
}

// TestSignRuleOnPlay checks MoveValue on real moves: the final store
// difference of a game played to its end by fixed moves is the same
// whether counted directly or built up move by move with MoveValue.
func TestSignRuleOnPlay(t *testing.T) {
	for _, c := range AllRules {
		r := Variant{Pits: 4, Rule: c}
		for first := 0; first < 4; first++ {
			b, _ := r.Start(3)
			start := b.StoreDiff()
			// play returns the value of b (relative to its stores) along
			// the line "first move, then always the lowest pit".
			var play func(b Board, i int) int
			play = func(b Board, i int) int {
				c, res := r.Play(b, i)
				if res.Over() {
					return c.StoreDiff() - b.StoreDiff()
				}
				gain := c.StoreDiff() - b.StoreDiff()
				if !res.Extra() {
					gain = -c.StoreDiff() - b.StoreDiff()
				}
				return MoveValue(res, gain, play(c, bitIndex(c.Moves())))
			}
			v := play(b, first)
			// The same line, tracking the sides directly.
			p, _ := r.StartPosition(3)
			for i := first; ; {
				next, res := r.PlayPosition(p, i)
				p = next
				if res.Over() {
					break
				}
				i = bitIndex(p.Board.Moves())
			}
			if got := p.SouthDiff() - start; got != v {
				t.Fatalf("%v first move %d: MoveValue built %d, the game ended %+d", r, first, v, got)
			}
		}
	}
}
