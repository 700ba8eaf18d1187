package results

// PlyCheck is the verdict on one sowing of a line. Values are South's
// final store minus North's under perfect play from then on.
type PlyCheck struct {
	Ply     int    `json:"ply"`  // 1-based
	Side    string `json:"side"` // "south" or "north"
	Hole    int    `json:"hole"` // the paper's number: 0-based from the mover's left
	Move    string `json:"move"` // the pit letter
	Before  int    `json:"before"`
	After   int    `json:"after"`
	Optimal bool   `json:"optimal"` // After equals Before: the move keeps the position's value
	// Best lists the optimal moves (letters) where the move played is not
	// one of them.
	Best []string `json:"best,omitempty"`
}

// PositionValue is the value of p for South: South's final store minus
// North's under perfect play.
