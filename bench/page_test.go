package bench

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/benchmarks.md from the records")

// TestBenchmarksPage: every record in bench/data loads and checks, and
// docs/benchmarks.md is what Page makes of them. With -update it rewrites
// the page.
func TestBenchmarksPage(t *testing.T) {
	root := filepath.Join("..")
	recs, err := Load(filepath.Join(root, DataDir))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) == 0 {
		t.Fatal("no records in bench/data")
	}
	page := Page(recs)
	name := filepath.Join(root, PageFile)
	if *update {
		if err := os.WriteFile(name, page, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	old, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(old, page) {
		t.Errorf("%s is stale: the records in %s changed; regenerate it with\n\t%s", PageFile, DataDir, PageCommand)
	}
}

func f(v float64) *float64 { return &v }

// TestPageNewestPerConfig: a topic shows the newest record of each
// configuration and links to it; an older one stays off the page.
func TestPageNewestPerConfig(t *testing.T) {
	rec := func(id, config, date string, v float64) Record {
		return Record{ID: id, Topic: "engine", Config: config, What: "w", Command: "c", Revision: "abcdef0",
			Machine: "epyc-2c", Date: date, Load: "quiet", Metrics: []Metric{{Name: "wall s", Value: f(v)}}}
	}
	page := string(Page([]Record{
		rec("old", "perft 10", "2026-11-30", 1.5),
		rec("new", "perft 10", "2026-12-06", 2.5),
		rec("other", "perft 12", "unknown", 7),
	}))
	for _, want := range []string{"[new](#new)", `<a id="new">`, "wall s 2.5", "[other](#other)"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for _, gone := range []string{"(#old)", "1.5"} {
		if strings.Contains(page, gone) {
			t.Errorf("page shows the older record's %q", gone)
		}
	}
}

// TestCheck: Check refuses records that are missing what a reader needs.
func TestCheck(t *testing.T) {
	good := Record{ID: "a", Topic: "engine", Config: "c", What: "w", Command: "kalah perft", Revision: "unknown",
		Machine: "unknown", Date: "unknown", Load: "unknown", Metrics: []Metric{{Name: "s", Runs: []float64{1, 2}}}}
	if err := good.Check(); err != nil {
		t.Fatalf("a good record: %v", err)
	}
	bad := map[string]func(r *Record){
		"id":       func(r *Record) { r.ID = "A b" },
		"topic":    func(r *Record) { r.Topic = "nope" },
		"machine":  func(r *Record) { r.Machine = "laptop" },
		"date":     func(r *Record) { r.Date = "Dec 6" },
		"revision": func(r *Record) { r.Revision = "HEAD" },
		"command":  func(r *Record) { r.Command = "" },
		"metrics":  func(r *Record) { r.Metrics = nil },
		"figure":   func(r *Record) { r.Metrics = []Metric{{Name: "s"}} },
		"order":    func(r *Record) { r.Metrics = []Metric{{Name: "s", Min: f(3), Max: f(2)}} },
		"both":     func(r *Record) { r.Metrics = []Metric{{Name: "s", Runs: []float64{1}, Value: f(1)}} },
		"peer":     func(r *Record) { r.Peers = []Peer{{Name: "p", Commit: "x", Command: "c"}} },
	}
	for name, spoil := range bad {
		r := good
		spoil(&r)
		if r.Check() == nil {
			t.Errorf("%s: Check accepted a bad record", name)
		}
	}
}
