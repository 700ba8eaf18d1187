// Package export writes a slice of an endgame database (package egdb) as
// a table, one row per position in rank order, as CSV, JSON lines or
// Parquet. It stands apart from egdb so that only the programs that export
// link the Parquet writer.
//
// The columns, in this order:
//
//	rank      the position's rank in the slice (0, 1, ...)
//	position  the 2m+2 hole counts in the standard order, stores 0
//	to_move   always "south": a database position is seen from the mover
//	seeds     s, the seeds in the pits
//	gain      g, the seeds the mover banks under perfect play
//	margin    2g - s, the mover's final store minus the opponent's
//
// CSV has a header line and quotes the position; JSON lines are one object
// a row with these keys; Parquet is zstd-compressed, in row groups of 2^20
// rows, with the key-value metadata kalah.egdb = "pits=m seeds=s". Rows
// are streamed: memory does not grow with the slice.
package export

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"

	"github.com/kalah-solver/kalah/egdb"
	"github.com/kalah-solver/kalah/engine"
)

// Formats are the formats Write takes.
var Formats = []string{"csv", "jsonl", "parquet"}

// Row is one row of a Parquet export (and of the other formats, spelled
// out).
type Row struct {
	Rank     int64  `parquet:"rank"`
	Position string `parquet:"position"`
	ToMove   string `parquet:"to_move,dict"`
	Seeds    int32  `parquet:"seeds"`
	Gain     int32  `parquet:"gain"`
	Margin   int32  `parquet:"margin"`
}

// Slice writes slice s of the database of rules in dir to w in format (one
// of Formats). The slice's file alone is loaded, with every check of
// egdb.OpenSlice; a slice not built is an error that says how to build it.
func Slice(w io.Writer, format, dir string, rules engine.Variant, s int) error {
	if err := checkFormat(format); err != nil {
		return err
	}
	data, release, err := egdb.OpenSlice(dir, rules, s)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("slice %d of the %v database is not built in %s (build it with: kalah egdb build --pits %d --rule %v --max-seeds %d)",
			s, rules, egdb.RuleDir(dir, rules), rules.Pits, rules.Rule, s)
	}
	if err != nil {
		return err
	}
	defer release()
	return Write(w, format, rules.Pits, s, data)
}

// Write writes the entries data of slice s of m pits a side (the slice's
// payload, egdb.OpenSlice or egdb.DB.Slice) to w in format (one of
// Formats).
func Write(w io.Writer, format string, m, s int, data []byte) error {
	if err := checkFormat(format); err != nil {
		return err
	}
	x, err := egdb.NewIndex(m, s)
	if err != nil {
		return err
	}
	if int64(len(data)) != x.Size(s) {
		return fmt.Errorf("slice %d of %d pits has %d positions, got %d entries", s, m, x.Size(s), len(data))
	}
	c := x.Cursor(s, 0, x.Size(s))
	switch format {
	case "csv":
		return writeLines(w, &c, m, s, data, csvRow, "rank,position,to_move,seeds,gain,margin\n")
	case "jsonl":
		return writeLines(w, &c, m, s, data, jsonRow, "")
	}
	return writeParquet(w, m, s, &c, data)
}

func checkFormat(format string) error {
	for _, f := range Formats {
		if f == format {
			return nil
		}
	}
	return fmt.Errorf("unknown export format %q: want csv, jsonl or parquet", format)
}

// appendPosition appends the position's standard notation with South to
// move and empty stores, as engine.Position.String writes it.
func appendPosition(b []byte, m int, own, opp uint64) []byte {
	for i := 0; i < m; i++ {
		b = strconv.AppendUint(b, own>>(8*uint(i))&0xff, 10)
		b = append(b, ',')
	}
	b = append(b, "0,"...)
	for i := 0; i < m; i++ {
		b = strconv.AppendUint(b, opp>>(8*uint(i))&0xff, 10)
		b = append(b, ',')
	}
	return append(b, '0')
}
