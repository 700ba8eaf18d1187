package results

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func rec(rule string, m, n, v int) Record {
	return Record{Rule: rule, Pits: m, Seeds: n, Value: v, Result: Outcome(v), Openings: []Opening{{"1", v}},
		Threads: 1, TableSize: 1 << 20, EGDBSeeds: -1, Date: "2026-01-01"}
}

func TestArchiveRoundTripAndMerge(t *testing.T) {
	s := Archive{Dir: filepath.Join(t.TempDir(), "data")}
	if recs, err := s.Load("empty-capture"); err != nil || recs != nil {
		t.Fatalf("missing file: %v %v", recs, err)
	}
	if err := s.Put(rec("empty-capture", 4, 3, 8), rec("empty-capture", 1, 2, -2), rec("no-empty-capture", 4, 3, 6)); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(rec("empty-capture", 4, 1, 2), rec("empty-capture", 4, 3, 8)); err != nil {
		t.Fatal(err)
	}
	recs, err := s.Load("empty-capture")
	if err != nil {
		t.Fatal(err)
	}
	var cells []string
	for _, r := range recs {
		cells = append(cells, r.Name())
	}
	if got := strings.Join(cells, "; "); got != "Kalah(1,2) empty-capture; Kalah(4,1) empty-capture; Kalah(4,3) empty-capture" {
		t.Errorf("cells %s", got)
	}
	// Deterministic: writing what was read gives the same bytes.
	before, _ := os.ReadFile(s.Path("empty-capture"))
	if err := WriteFile(s.Path("empty-capture"), recs); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(s.Path("empty-capture"))
	if string(before) != string(after) || strings.Count(string(after), "\n") != 3 {
		t.Errorf("rewrite changed the file:\n%s\n%s", before, after)
	}
	if r, _ := s.Get("no-empty-capture", 4, 3); r == nil || r.Value != 6 {
		t.Errorf("Get: %+v", r)
	}
	entries, _ := os.ReadDir(s.Dir)
	if len(entries) != 2 {
		t.Errorf("files left: %v", entries)
	}
}

func TestArchiveRefusesBadFiles(t *testing.T) {
	dir := t.TempDir()
	s := Archive{Dir: dir}
	os.WriteFile(s.Path("empty-capture"), []byte(`{"rule":"empty-capture","pits":1,"seeds":1,"valu":0}`+"\n"), 0o644)
	if _, err := s.Load("empty-capture"); err == nil || !strings.Contains(err.Error(), ":1:") {
		t.Errorf("unknown field: %v", err)
	}
	os.WriteFile(s.Path("empty-capture"), []byte(`{"rule":"no-empty-capture","pits":1,"seeds":1}`+"\n"), 0o644)
	if _, err := s.Load("empty-capture"); err == nil {
		t.Error("a record of the other rule was accepted")
	}
}

func TestBounds(t *testing.T) {
	cases := []struct {
		lo, hi int
		want   string
	}{{4, 48, ">= +4"}, {-48, -2, "<= -2"}, {2, 8, "+2..+8"}, {6, 6, "= +6"}, {-48, 48, "?"}}
	for _, c := range cases {
		cell := Cell{Pits: 6, Seeds: 4, Lower: c.lo, Upper: c.hi}
		if got := cell.Bounds(); got != c.want {
			t.Errorf("[%d, %d]: %q, want %q", c.lo, c.hi, got, c.want)
		}
	}
}
