package results

// The published values the toolkit reproduces, each with its source. They
// are copied from the sources named (see also /work/shared/reference and
// docs/results.md), never computed here.

// Sources.
const (
	SourceIrving   = `Irving, Donkers & Uiterwijk, "Solving Kalah", ICGA Journal 23(3), 2000`
	SourceRawlings = "Mark Rawlings, 2015-2018, reported in Wikipedia's Kalah article and its talk page"
	SourceCMancala = "github.com/LifesLight/CMancala, README"
)

// Published is one published value of a start position.
type Published struct {
	Rule   string
	Pits   int
	Seeds  int
	Result string // "W", "L" or "D" for the first player
	Value  *int   // the margin, when published
	Source string // who published it, and where
}

// PublishedGame is one perfect game of the paper's Table 9, in its notation.
type PublishedGame struct {
	Pits, Seeds, Value int
	Line               string
	// Defect, when not empty, says why the line cannot be replayed as
	// printed; BadTurn is the 1-based turn where it goes wrong.
	Defect  string
	BadTurn int
}

func intp(v int) *int { return &v }

// Table10 is the paper's Table 10, empty-capture: W/L/D of the first player
// for m = 1..6, n = 1..6; "" for (6,6), not solved in the paper.
var Table10 = [6][6]string{
	{"D", "L", "W", "L", "W", "D"},
	{"W", "L", "L", "L", "W", "W"},
	{"D", "W", "W", "W", "W", "L"},
	{"W", "W", "W", "W", "W", "D"},
	{"D", "D", "W", "W", "W", "W"},
	{"W", "W", "W", "W", "W", ""},
}

// Table9 is the paper's Table 9, empty-capture: the exact margin of
// Kalah(4..6, n) and one perfect game each.
var Table9 = []PublishedGame{
	{4, 1, 2, "32-32-1", "", 0},
	{4, 2, 6, "3-3-230-231-1323", "", 0},
	{4, 3, 8, "13-1-032-2-3-0-1320-3-0-2", "", 0},
	{4, 4, 2, "02-2-3-0-2-21-303231-0-32-1-0", "", 0},
	{4, 5, 2, "0-2-1-3-0-2-1-0-32-3-021-2-0-02-2-1-3-3-313032-13031-1-2-2-3", "", 0},
	{4, 6, 0, "1-0-2-3-1330-01-2-2-21-201-2-23-3-23-230-32-32-12-1-0-32",
		"illegal as given: in turn 10 (201) North sows hole 2 (extra turn), then hole 0, whose 5 seeds end on South's side, " +
			"so the turn passes and the final 1 is not North's to play; no one- or two-character change of the line " +
			"(insertion, deletion, substitution or swap of a digit or dash) gives a legal complete game ending 0", 10},
	{5, 1, 0, "43-43-2-2", "", 0},
	{5, 2, 0, "31-32-24-0-0-31-3", "", 0},
	{5, 3, 8, "24-3-3-03-41-1-04342-3-3-2-2-4-414342-3", "", 0},
	{5, 4, 12, "12-04-03-2-20-41-1-42-32-3-2-40-0-1", "", 0},
	{5, 5, 2, "03-2-2-1-1-23-24-2-0-34414340-4240-2-14342", "", 0},
	{5, 6, 2, "2-0-0-3-3-0-2-1-440-4-42-2-121-12-3-1-4-20-0-34-24-324-1-3-3-1-41-43-2-2-3", "", 0},
	{6, 1, 2, "54-54-3-3-2", "", 0},
	{6, 2, 10, "42-42-30-0-1-1-4-5", "", 0},
	{6, 3, 2, "4-5-35-250-2-154-451535452-53-3-54-2", "", 0},
	{6, 4, 10, "25-10-3-3-5153-1-4-5-045-4-535452-53-4-1-3-2-0-54-1-3", "", 0},
	{6, 5, 12, "12-02-05-2-4-51-53-3-45-20-3-2-2-345-5-4-351-0-54-1-52-354-4-254-3-3", "", 0},
}

// PublishedOpening is a published value of one first turn.
type PublishedOpening struct {
	Rule        string
	Pits, Seeds int
	Chain       string // Rawlings' numbering: 1-based pits, "1-2"
	Value       int
	Source      string
}

// Rawlings66 is Rawlings' value of every first turn of Kalah(6,6),
// empty-capture.
var Rawlings66 = []PublishedOpening{
	{"empty-capture", 6, 6, "1-2", 2, SourceRawlings},
	{"empty-capture", 6, 6, "1-3", 2, SourceRawlings},
	{"empty-capture", 6, 6, "1-4", 0, SourceRawlings},
	{"empty-capture", 6, 6, "1-5", 0, SourceRawlings},
	{"empty-capture", 6, 6, "1-6", 0, SourceRawlings},
	{"empty-capture", 6, 6, "2", 2, SourceRawlings},
	{"empty-capture", 6, 6, "3", 0, SourceRawlings},
	{"empty-capture", 6, 6, "4", 0, SourceRawlings},
	{"empty-capture", 6, 6, "5", 0, SourceRawlings},
	{"empty-capture", 6, 6, "6", -2, SourceRawlings},
}

// PublishedValues lists every published value of a start position: the
// paper's Tables 9 and 10 (empty-capture), Rawlings' margins under both
// rules, and CMancala's (no-empty-capture). A cell may appear more than
// once, from different sources.
func PublishedValues() []Published {
	var out []Published
	for m := 1; m <= 6; m++ {
		for n := 1; n <= 6; n++ {
			if r := Table10[m-1][n-1]; r != "" {
				p := Published{Rule: "empty-capture", Pits: m, Seeds: n, Result: r, Source: SourceIrving + ", Table 10"}
				for _, g := range Table9 {
					if g.Pits == m && g.Seeds == n {
						p.Value, p.Source = intp(g.Value), SourceIrving+", Tables 9 and 10"
					}
				}
				out = append(out, p)
			}
		}
	}
	add := func(rule string, m, n, v int, src string) {
		out = append(out, Published{Rule: rule, Pits: m, Seeds: n, Result: Outcome(v), Value: intp(v), Source: src})
	}
	add("empty-capture", 6, 4, 10, SourceRawlings)
	add("empty-capture", 6, 5, 12, SourceRawlings)
	add("empty-capture", 6, 6, 2, SourceRawlings)
	add("no-empty-capture", 6, 3, 2, SourceCMancala)
	add("no-empty-capture", 6, 4, 8, SourceRawlings+"; "+SourceCMancala)
	add("no-empty-capture", 6, 5, 10, SourceRawlings+"; "+SourceCMancala)
	return out
}

// PublishedFor returns the published values of one cell.
func PublishedFor(rule string, m, n int) []Published {
	var out []Published
	for _, p := range PublishedValues() {
		if p.Rule == rule && p.Pits == m && p.Seeds == n {
			out = append(out, p)
		}
	}
	return out
}

// Other published figures of the paper (all empty-capture).
const (
	// PublishedGraph43 is the size of the game graph of Kalah(4,3), Table 3.
	PublishedGraph43 = 4604996
	// PublishedEGDB20 is the number of positions with at most 20 seeds on
	// 6 pits a side and no empty side, Table 8.
	PublishedEGDB20 = 225332381
	// PublishedStateSpace64 is the paper's state-space size of Kalah(6,4),
	// Table 2, as printed (three significant digits).
	PublishedStateSpace64 = "1.31e13"
)

// PublishedTimes are the solving times of section 4 of the paper (an 800
// MHz Athlon with 256 MB), in seconds.
var PublishedTimes = map[[2]int]float64{
	{6, 4}: 35,
	{6, 5}: 4.7 * 3600,
}

// GraphConvention is one way of counting the game graph of Kalah(4,3),
// tried to match the paper's Table 3 (4,604,996 positions); the counts are
// checked by a slow test of package graph against a seed-by-seed reference.
type GraphConvention struct {
	Name         string
	EmptyCapture bool
	Unswept      bool // finished games keep their seeds in the pits (not swept to the stores)
	SkipStart    bool // a sowing of 2m+1 or more seeds skips its start pit
	MoverEnd     bool // the game ends only when the side to move has no seeds
	Positions    int64
}

// GraphConventions43 are the conventions tried, the toolkit's own first.
var GraphConventions43 = []GraphConvention{
	{"empty-capture, the game ends when either side is empty, finished games swept (the toolkit's convention)", true, false, false, false, 4582462},
	{"the same, finished games not swept (each final pit layout a position)", true, true, false, false, 4631150},
	{"the same, but a sowing of 2m+1 or more seeds skips its start pit", true, false, true, false, 4507960},
	{"empty-capture, the game ends only when the side to move has no seeds", true, false, false, true, 4653206},
	{"no-empty-capture, the game ends when either side is empty", false, false, false, false, 5193524},
}
