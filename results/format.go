package results

import "strconv"

// The toolkit's number formats, one of each, for reports and commands.

// Signed writes a value with its sign: "+10", "0", "-2".
func Signed(v int) string {
	if v > 0 {
		return "+" + strconv.Itoa(v)
	}
	return strconv.Itoa(v)
}

// Outcome is "W", "L" or "D": the sign of a value for the side it is
// counted for.
func Outcome(v int) string {
	switch {
	case v > 0:
		return "W"
	case v < 0:
		return "L"
	}
	return "D"
}

// Group writes n with thousands separators: 1,234,567.
func Group(n int64) string {
	if n < 0 {
		return "-" + Group(-n)
	}
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Winner names the winner from South's final store minus North's:
// "south", "north" or "draw".
func Winner(southDiff int) string {
	switch {
	case southDiff > 0:
		return "south"
	case southDiff < 0:
		return "north"
	}
	return "draw"
}
