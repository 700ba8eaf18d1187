package export

import (
	"fmt"
	"io"

	"github.com/kalah-solver/kalah/egdb"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

// writeParquet writes the positions of c (m pits, s seeds, entries data),
// in batches of 4096 rows.
func writeParquet(out io.Writer, m, s int, c *egdb.Cursor, data []byte) error {
	w := parquet.NewGenericWriter[Row](out, parquet.MaxRowsPerRowGroup(1<<20), parquet.Compression(&zstd.Codec{}),
		parquet.KeyValueMetadata("kalah.egdb", fmt.Sprintf("pits=%d seeds=%d", m, s)))
	batch := make([]Row, 0, 4096)
	var buf []byte
	flush := func() error {
		_, err := w.Write(batch)
		batch = batch[:0]
		return err
	}
	for c.Next() {
		g := int32(data[c.Rank])
		buf = appendPosition(buf[:0], m, c.Own, c.Opp)
		batch = append(batch, Row{Rank: c.Rank, Position: string(buf), ToMove: "south", Seeds: int32(s), Gain: g, Margin: 2*g - int32(s)})
		if len(batch) == cap(batch) {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	return w.Close()
}
