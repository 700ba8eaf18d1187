package engine

// Values and the sign rule.
//
// A value is relative to the stores: the mover's final store difference
// minus the current one, i.e. what the mover gains from the seeds still on
// the board minus what the opponent gains. With s seeds on the board it lies
// in [-s, s]. A child is valued from its own mover's side, so the value of a
// move that changed the store difference by gain is
//
//	extra turn (same mover):     gain + child
//	turn passes (other mover):   gain - child
//	game over:                   gain (the child has no value: it is 0)
//
// For a window or an interval: an extra turn keeps the sign and the order,
// shifted by gain; a normal move negates both, so the bounds swap. These
// functions are that rule, once; every search, driver and database build
// goes through them.

// MoveValue returns the value of a move for its mover, from the value of
// the child it leads to (seen from the child's mover). gain is the change
// of the store difference the move made; res is the sowing's result.
func MoveValue(res Result, gain, child int) int {
	if res&ResExtra != 0 {
		return gain + child
	}
	return gain - child
}

// MoveBounds is MoveValue over an interval: the move's value interval for
// its mover when the child's value lies in [lo, hi].
func MoveBounds(res Result, gain, lo, hi int) (int, int) {
	if res&ResExtra != 0 {
		return gain + lo, gain + hi
	}
	return gain - hi, gain - lo
}

// ChildWindow is MoveBounds backwards: the window on the child's value
// (seen from the child's mover) that the window (alpha, beta) on the move's
// value asks for. With alpha == beta it maps a target value.
func ChildWindow(res Result, gain, alpha, beta int) (int, int) {
	if res&ResExtra != 0 {
		return alpha - gain, beta - gain
	}
	return gain - beta, gain - alpha
}

// MoveGain is MoveValue in the endgame database's unit: seeds banked from
// now on rather than the store difference. A move that banked k of the
// board's seeds and left childSeeds of which the child's mover banks
// childGain is worth k + childGain with an extra turn and
// k + (childSeeds - childGain) when the turn passes. (A value v of a board
// with s seeds is 2g - s in this unit; the store difference changed by k,
// since the opponent's store is untouched until the game ends.)
func MoveGain(res Result, k, childSeeds, childGain int) int {
	return k + (childSeeds+MoveValue(res, 0, 2*childGain-childSeeds))/2
}
