package bench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// DataDir is where the measurement records live, relative to the
// repository root: one JSON Lines file per topic of docs/benchmarks.md.
const DataDir = "bench/data"

// Record is one measurement: what was measured, how, on what, and what
// came out. docs/benchmarks.md shows the newest record of each topic and
// configuration; the older ones stay in the data. A field that the
// measurement did not note is "unknown", never guessed.
type Record struct {
	ID       string   `json:"id"`              // unique; the page's anchor for it
	Topic    string   `json:"topic"`           // the page's section (Topics)
	Config   string   `json:"config"`          // the row within the topic
	What     string   `json:"what"`            // what was measured, and in what unit
	Command  string   `json:"command"`         // the exact command, or "unknown"
	Revision string   `json:"revision"`        // the measured build's commit, or "unknown"
	Machine  string   `json:"machine"`         // a name from Machines, or "unknown"
	Date     string   `json:"date"`            // YYYY-MM-DD (UTC), or "unknown"
	Load     string   `json:"load"`            // what else ran, or "unknown"
	Metrics  []Metric `json:"metrics"`         // this program's figures
	Peers    []Peer   `json:"peers,omitempty"` // other programs measured beside it
	Note     string   `json:"note,omitempty"`  // what a reader needs besides the figures
}

// Metric is one measured quantity: the runs when each was noted, else
// what is known of them (min, median, max, or a single value).
type Metric struct {
	Name   string    `json:"name"` // e.g. "wall s", "CPU s", "nodes", "ratio"
	Runs   []float64 `json:"runs,omitempty"`
	Min    *float64  `json:"min,omitempty"`
	Median *float64  `json:"median,omitempty"`
	Max    *float64  `json:"max,omitempty"`
	Value  *float64  `json:"value,omitempty"` // one figure, runs not noted
	About  bool      `json:"about,omitempty"` // the figure was noted as approximate
}

// Peer is another program measured beside the record's, in turn with it.
type Peer struct {
	Name    string   `json:"name"`    // e.g. "girving/kalah"
	Commit  string   `json:"commit"`  // its source commit
	Command string   `json:"command"` // how it was run
	Metrics []Metric `json:"metrics"`
}

// Machines names the machines records are taken on.
var Machines = map[string]string{
	"epyc-2c": "2 cores of an AMD EPYC, a Firecracker virtual machine with 24 GiB, Linux 6.18, go1.26.8",
	"vm-2c":   "a 2-core virtual machine of the same size as epyc-2c, its CPU not noted; on some days much slower than epyc-2c",
	"unknown": "not noted",
}

var (
	idPattern   = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
	datePattern = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	revPattern  = regexp.MustCompile(`^[0-9a-f]{7,40}$`)
)

// Check reports what is wrong with r: a missing field, an unknown topic
// or machine, a malformed date or revision, a metric with no figure or
// with figures out of order.
func (r *Record) Check() error {
	switch {
	case !idPattern.MatchString(r.ID):
		return fmt.Errorf("id %q: lower-case letters, digits and dashes", r.ID)
	case topicByID(r.Topic) == nil:
		return fmt.Errorf("%s: unknown topic %q", r.ID, r.Topic)
	case r.Config == "" || r.What == "" || r.Command == "" || r.Load == "":
		return fmt.Errorf("%s: config, what, command and load are required (\"unknown\" when not noted)", r.ID)
	case Machines[r.Machine] == "":
		return fmt.Errorf("%s: unknown machine %q", r.ID, r.Machine)
	case r.Date != "unknown" && !datePattern.MatchString(r.Date):
		return fmt.Errorf("%s: date %q is not YYYY-MM-DD or unknown", r.ID, r.Date)
	case r.Revision != "unknown" && !revPattern.MatchString(r.Revision):
		return fmt.Errorf("%s: revision %q is not a commit or unknown", r.ID, r.Revision)
	case len(r.Metrics) == 0:
		return fmt.Errorf("%s: no metrics", r.ID)
	}
	for _, m := range r.Metrics {
		if err := m.check(); err != nil {
			return fmt.Errorf("%s: %v", r.ID, err)
		}
	}
	for _, p := range r.Peers {
		if p.Name == "" || !revPattern.MatchString(p.Commit) || p.Command == "" {
			return fmt.Errorf("%s: peer %q needs a name, a commit and a command", r.ID, p.Name)
		}
		for _, m := range p.Metrics {
			if err := m.check(); err != nil {
				return fmt.Errorf("%s: peer %s: %v", r.ID, p.Name, err)
			}
		}
	}
	return nil
}

func (m Metric) check() error {
	if m.Name == "" {
		return fmt.Errorf("a metric without a name")
	}
	if len(m.Runs) == 0 && m.Min == nil && m.Median == nil && m.Max == nil && m.Value == nil {
		return fmt.Errorf("metric %q has no figure", m.Name)
	}
	if len(m.Runs) > 0 && (m.Min != nil || m.Median != nil || m.Max != nil || m.Value != nil) {
		return fmt.Errorf("metric %q: runs, or min/median/max/value, not both", m.Name)
	}
	if m.Value != nil && (m.Min != nil || m.Median != nil || m.Max != nil) {
		return fmt.Errorf("metric %q: a value, or min/median/max, not both", m.Name)
	}
	if m.Min != nil && m.Max != nil && *m.Min > *m.Max ||
		m.Median != nil && (m.Min != nil && *m.Median < *m.Min || m.Max != nil && *m.Median > *m.Max) {
		return fmt.Errorf("metric %q: min <= median <= max does not hold", m.Name)
	}
	return nil
}

// Load reads every *.jsonl file of dir, checks each record and that the
// ids are unique, and returns the records in file and line order.
func Load(dir string) ([]Record, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []Record
	seen := map[string]string{}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for n := 1; sc.Scan(); n++ {
			line := strings.TrimSpace(sc.Text())
			if line == "" {
				continue
			}
			var r Record
			dec := json.NewDecoder(strings.NewReader(line))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&r); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", name, n, err)
			}
			if err := r.Check(); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", name, n, err)
			}
			if prev, ok := seen[r.ID]; ok {
				return nil, fmt.Errorf("%s:%d: id %q already used at %s", name, n, r.ID, prev)
			}
			seen[r.ID] = fmt.Sprintf("%s:%d", name, n)
			out = append(out, r)
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
	}
	return out, nil
}
