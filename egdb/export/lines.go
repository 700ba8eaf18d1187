package export

import (
	"bufio"
	"io"
	"strconv"

	"github.com/kalah-solver/kalah/egdb"
)

// A text row is appended byte by byte, without fmt or encoding/json: a
// slice of twenty seeds has 85 million rows.

// rowFunc appends one row (rank r, position (own, opp), s seeds, gain g)
// without its newline.
type rowFunc func(b []byte, m int, r int64, own, opp uint64, s, g int) []byte

func csvRow(b []byte, m int, r int64, own, opp uint64, s, g int) []byte {
	b = strconv.AppendInt(b, r, 10)
	b = append(b, ",\""...)
	b = appendPosition(b, m, own, opp)
	b = append(b, "\",south,"...)
	b = strconv.AppendInt(b, int64(s), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(g), 10)
	b = append(b, ',')
	return strconv.AppendInt(b, int64(2*g-s), 10)
}

func jsonRow(b []byte, m int, r int64, own, opp uint64, s, g int) []byte {
	b = append(b, `{"rank":`...)
	b = strconv.AppendInt(b, r, 10)
	b = append(b, `,"position":"`...)
	b = appendPosition(b, m, own, opp)
	b = append(b, `","to_move":"south","seeds":`...)
	b = strconv.AppendInt(b, int64(s), 10)
	b = append(b, `,"gain":`...)
	b = strconv.AppendInt(b, int64(g), 10)
	b = append(b, `,"margin":`...)
	b = strconv.AppendInt(b, int64(2*g-s), 10)
	return append(b, '}')
}

// writeLines writes header, then one line per position of c (m pits, s
// seeds, entries data).
func writeLines(w io.Writer, c *egdb.Cursor, m, s int, data []byte, row rowFunc, header string) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString(header)
	var line []byte
	for c.Next() {
		line = row(line[:0], m, c.Rank, c.Own, c.Opp, s, int(data[c.Rank]))
		line = append(line, '\n')
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return bw.Flush()
}
