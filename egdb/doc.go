// Package egdb holds Kalah endgame databases: for one pit count m and one
// capture rule, the exact value of every position with at most S seeds in
// the pits, whoever's stores hold the rest (values are "what the mover
// still banks from the seeds on the board", so the stores stay out of every
// key).
//
// A database is split, like a tablebase, into slices by seed count: slice
// s ranks every position with exactly s seeds in the pits combinatorially
// (index.go, Index) and stores, per position, the seeds g the mover banks
// under perfect play (the margin is 2g-s): packed, four bits relative to
// a base per 126 positions with an exception list (pack.go, format
// version 2, the default), or one byte each (version 1). The parts:
//
//   - build (build.go, dir.go: Build, BuildDir): slice by slice, each from
//     the slices below it, resumable, every file written atomically; a
//     large slice in parts (parts.go), resumable part by part;
//   - files (file.go): a 64-byte header with magic, format version, rule,
//     pits, seed count and checksums, and a payload that is memory-mapped;
//     a bad file is an error (ErrCorrupt, ErrMismatch), never a guess;
//   - probe (db.go: Open, DB.Probe, DB.MoveGain), safe for any number of
//     goroutines, which is how the solver uses it (solver.Database);
//   - verify (verify.go, verifydir.go: DB.Verify, VerifyDir): recompute
//     entries from the recurrence and check every file's checksums;
//   - convert (convert.go: Convert): rewrite a database's files from one
//     encoding to the other, slice by slice;
//   - stats and sizes (stats.go, size.go), and the exporters in the
//     sub-package egdb/export (CSV, JSON lines, Parquet).
//
// The default directory is $XDG_DATA_HOME/kalah/egdb (DefaultDir);
// docs/egdb.md gives the sizes and build times, docs/formats.md the file
// layout.
package egdb
