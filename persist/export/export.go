// Package export writes the cache's proven entries (package
// persist) as a table, one row per entry in key order, as JSON lines or
// Parquet. It stands apart from persist so that only the programs that
// export link the Parquet writer.
//
// The columns:
//
//	rule      the capture convention
//	pits      m
//	position  the 2m+2 hole counts in the standard order, stores 0: an entry
//	          does not depend on the stores, and is seen from the mover
//	to_move   always "south"
//	lower     the proven lower bound on the mover's final store difference
//	upper     the proven upper bound (equal to lower when exact)
//	move      the best move found, a letter
//
// A bound the entry does not hold is the one the seeds on the board give.
// Parquet is zstd-compressed, with the key-value metadata kalah.cache =
// the cache's directory (and kalah.store, its deprecated name, the same
// until v0.3.0).
package export

import (
	"bufio"
	"fmt"
	"io"
	"strconv"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/persist"
	"github.com/kalah-solver/kalah/tt"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

// Formats are the formats Entries takes.
var Formats = []string{"jsonl", "parquet"}

// Row is one row of an export.
type Row struct {
	Rule     string `parquet:"rule,dict"`
	Pits     int32  `parquet:"pits"`
	Position string `parquet:"position"`
	ToMove   string `parquet:"to_move,dict"`
	Lower    int32  `parquet:"lower"`
	Upper    int32  `parquet:"upper"`
	Move     string `parquet:"move,dict"`
}

// Filter picks the entries to export: Pits 0 and a nil Rule take all.
type Filter struct {
	Pits int
	Rule *engine.Rule
}

func (f Filter) keep(r engine.Variant) bool {
	return (f.Pits == 0 || r.Pits == f.Pits) && (f.Rule == nil || r.Rule == *f.Rule)
}

// RowOf is the row of one entry.
func RowOf(r engine.Variant, k engine.Key, e tt.Entry) Row {
	p := engine.Position{Pits: r.Pits, Board: engine.Board{Own: k.Own, Opp: k.Opp}, ToMove: engine.South}
	s := p.Board.Seeds()
	lo, hi := e.Lower(), e.Upper()
	if lo == tt.NoLower {
		lo = -s
	}
	if hi == tt.NoUpper {
		hi = s
	}
	return Row{Rule: r.Rule.String(), Pits: int32(r.Pits), Position: p.String(), ToMove: "south",
		Lower: int32(lo), Upper: int32(hi), Move: engine.MoveLetter(engine.South, e.Move())}
}

// Entries writes the entries of c that f keeps to w in format, streaming:
// memory does not grow with the cache.
func Entries(w io.Writer, format string, c *persist.Cache, f Filter) error {
	var rules *engine.Variant
	if f.Pits != 0 && f.Rule != nil {
		rules = &engine.Variant{Pits: f.Pits, Rule: *f.Rule}
	}
	switch format {
	case "parquet":
		pw := parquet.NewGenericWriter[Row](w, parquet.Compression(&zstd.Codec{}), parquet.KeyValueMetadata("kalah.cache", c.Dir()),
			// Deprecated: the old key of kalah.cache, removed in v0.3.0.
			parquet.KeyValueMetadata("kalah.store", c.Dir()))
		batch := make([]Row, 0, 4096)
		flush := func() error {
			_, err := pw.Write(batch)
			batch = batch[:0]
			return err
		}
		err := c.Range(rules, func(r engine.Variant, k engine.Key, e tt.Entry) error {
			if !f.keep(r) {
				return nil
			}
			batch = append(batch, RowOf(r, k, e))
			if len(batch) == cap(batch) {
				return flush()
			}
			return nil
		})
		if err == nil {
			err = flush()
		}
		if err != nil {
			return fmt.Errorf("export: %w", err)
		}
		return pw.Close()
	case "jsonl":
		bw := bufio.NewWriterSize(w, 1<<16)
		var line []byte
		err := c.Range(rules, func(r engine.Variant, k engine.Key, e tt.Entry) error {
			if !f.keep(r) {
				return nil
			}
			x := RowOf(r, k, e)
			line = append(line[:0], `{"rule":"`...)
			line = append(line, x.Rule...)
			line = append(line, `","pits":`...)
			line = strconv.AppendInt(line, int64(x.Pits), 10)
			line = append(line, `,"position":"`...)
			line = append(line, x.Position...)
			line = append(line, `","to_move":"south","lower":`...)
			line = strconv.AppendInt(line, int64(x.Lower), 10)
			line = append(line, `,"upper":`...)
			line = strconv.AppendInt(line, int64(x.Upper), 10)
			line = append(line, `,"move":"`...)
			line = append(line, x.Move...)
			line = append(line, "\"}\n"...)
			_, err := bw.Write(line)
			return err
		})
		if err != nil {
			return fmt.Errorf("export: %w", err)
		}
		return bw.Flush()
	}
	return fmt.Errorf("format %q: want jsonl or parquet", format)
}
