package export

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/kalah-solver/kalah/egdb"
	"github.com/kalah-solver/kalah/engine"
	"github.com/parquet-go/parquet-go"
)

// Every format writes every position of the slice, in rank order, with the
// position as engine.Position.String writes it and the stored gain.
func TestFormats(t *testing.T) {
	const m, s = 3, 6
	db, err := egdb.Build(context.Background(), engine.Variant{Pits: m}, s, egdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	data := db.Slice(s)
	want := make([]Row, len(data))
	for r := range want {
		own, opp := db.Index().Unrank(s, int64(r))
		g := int32(data[r])
		want[r] = Row{Rank: int64(r), Position: engine.Position{Pits: m, Board: engine.Board{Own: own, Opp: opp}}.String(),
			ToMove: "south", Seeds: s, Gain: g, Margin: 2*g - s}
	}
	var out bytes.Buffer
	if err := Write(&out, "csv", m, s, data); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != len(data)+1 || lines[0] != "rank,position,to_move,seeds,gain,margin" {
		t.Fatalf("csv: %d lines, header %q", len(lines), lines[0])
	}
	for r, w := range want {
		if l := lines[r+1]; l != strconv.Itoa(r)+`,"`+w.Position+`",south,6,`+strconv.Itoa(int(w.Gain))+","+strconv.Itoa(int(w.Margin)) {
			t.Fatalf("csv row %d: %q, want %+v", r, l, w)
		}
	}
	out.Reset()
	if err := Write(&out, "jsonl", m, s, data); err != nil {
		t.Fatal(err)
	}
	for r, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		var got struct {
			Rank                int64
			Position            string
			ToMove              string `json:"to_move"`
			Seeds, Gain, Margin int32
		}
		if err := json.Unmarshal([]byte(l), &got); err != nil {
			t.Fatal(err)
		}
		if (Row{got.Rank, got.Position, got.ToMove, got.Seeds, got.Gain, got.Margin}) != want[r] {
			t.Fatalf("jsonl row %d: %s, want %+v", r, l, want[r])
		}
	}
	out.Reset()
	if err := Write(&out, "parquet", m, s, data); err != nil {
		t.Fatal(err)
	}
	got, err := parquet.Read[Row](bytes.NewReader(out.Bytes()), int64(out.Len()))
	if err != nil || len(got) != len(want) {
		t.Fatalf("parquet: %v, %d rows", err, len(got))
	}
	for r := range want {
		if got[r] != want[r] {
			t.Fatalf("parquet row %d: %+v, want %+v", r, got[r], want[r])
		}
	}
}

func TestBadInput(t *testing.T) {
	if err := Write(&bytes.Buffer{}, "xml", 3, 2, make([]byte, 4)); err == nil || !strings.Contains(err.Error(), "xml") {
		t.Errorf("format xml: %v", err)
	}
	if err := Write(&bytes.Buffer{}, "csv", 3, 2, make([]byte, 5)); err == nil {
		t.Error("5 entries for a slice of 9 positions: no error")
	}
	if err := Slice(&bytes.Buffer{}, "csv", t.TempDir(), engine.Variant{Pits: 3}, 4); err == nil || !strings.Contains(err.Error(), "not built") {
		t.Errorf("missing slice: %v", err)
	}
}
