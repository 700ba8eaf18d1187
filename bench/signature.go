package bench

// The signature of the search.
//
// With one thread, a DefaultTableSize table and no endgame database the
// search is deterministic, so the node count of a fixed set of positions
// fingerprints its behaviour (Stockfish's "Bench:" line). TestSignature
// checks the two counts below.
//
// A change that alters the search (solver/, tt/: move ordering, cut-offs,
// bounds, table layout or replacement) changes these counts. Such a change
// must update both constants in the same commit and say so in the commit
// message, e.g. "bench: signature 825806 -> 811230". A change that is
// not meant to alter the search must leave them alone: if the test fails,
// the change did alter it.
//
// TestSignature prints the new counts when they differ.

// SignatureCases are the positions of the reduced suite that Signature
// counts: one of each game and rule of the quick suite.
var SignatureCases = []string{"6x4-n-01", "6x4-e-02", "6x5-n-03", "6x5-e-01", "6x6-n-05", "6x6-e-03"}

// Signature is the total node count of SignatureCases.
const Signature int64 = 431660

// QuickSignature is the total node count of the quick suite: the number
// "kalah bench" prints on its "Bench:" line with its defaults.
const QuickSignature int64 = 1996253
