package bench

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// PageFile is the page WritePage makes, relative to the repository root.
const PageFile = "docs/benchmarks.md"

// PageCommand regenerates PageFile from the records; the page names it.
const PageCommand = "go test ./bench -run TestBenchmarksPage -update"

// Topic is one section of the page: its records' rows under a heading,
// after an introduction that says how its figures are taken.
type Topic struct {
	ID, Title, Intro string
}

func topicByID(id string) *Topic {
	for i := range Topics {
		if Topics[i].ID == id {
			return &Topics[i]
		}
	}
	return nil
}

// Page returns docs/benchmarks.md made from records: for each topic, a
// table of the newest record of each configuration (by date; of one date,
// the later in the data), each row linking to the record's details at the
// end of the page. Older records stay in the data, off the page. The same
// records give the same bytes.
func Page(records []Record) []byte {
	var b bytes.Buffer
	b.WriteString(pageHead)
	var shown []Record
	for _, t := range Topics {
		rows := current(records, t.ID)
		fmt.Fprintf(&b, "## %s\n\n%s\n\n", t.Title, strings.TrimSpace(t.Intro))
		if len(rows) == 0 {
			continue
		}
		peers := false
		for _, r := range rows {
			peers = peers || len(r.Peers) > 0
		}
		if peers {
			b.WriteString("| configuration | kalah | peers | build, date, machine | record |\n|---|---|---|---|---|\n")
		} else {
			b.WriteString("| configuration | result | build, date, machine | record |\n|---|---|---|---|\n")
		}
		for _, r := range rows {
			fmt.Fprintf(&b, "| %s | %s |", cell(r.Config), cell(metrics(r.Metrics)))
			if peers {
				var ps []string
				for _, p := range r.Peers {
					ps = append(ps, p.Name+": "+metrics(p.Metrics))
				}
				fmt.Fprintf(&b, " %s |", cell(strings.Join(ps, "; ")))
			}
			fmt.Fprintf(&b, " %s, %s, %s | [%s](#%s) |\n", r.Revision, r.Date, r.Machine, r.ID, r.ID)
		}
		b.WriteString("\n")
		shown = append(shown, rows...)
	}
	b.WriteString("## Records shown\n\nEach row's record as the data holds it; `bench/data/` holds the older ones too.\n\n")
	for _, r := range shown {
		fmt.Fprintf(&b, "<a id=\"%s\"></a>**%s**: %s. ", r.ID, r.ID, strings.TrimSuffix(r.What, "."))
		fmt.Fprintf(&b, "Build %s, %s, machine %s, load: %s.\n", r.Revision, r.Date, r.Machine, r.Load)
		fmt.Fprintf(&b, "`%s`", r.Command)
		if len(r.Metrics) > 0 {
			fmt.Fprintf(&b, ": %s", metrics(r.Metrics))
		}
		b.WriteString(".")
		for _, p := range r.Peers {
			fmt.Fprintf(&b, " %s at %s, `%s`: %s.", p.Name, p.Commit, p.Command, metrics(p.Metrics))
		}
		if r.Note != "" {
			fmt.Fprintf(&b, " %s", strings.TrimSpace(r.Note))
		}
		b.WriteString("\n\n")
	}
	b.WriteString("## Machines\n\n| name | machine |\n|---|---|\n")
	for _, name := range []string{"epyc-2c", "vm-2c", "unknown"} {
		fmt.Fprintf(&b, "| %s | %s |\n", name, Machines[name])
	}
	return b.Bytes()
}

// current returns the newest record of each configuration of a topic, in
// the order the configurations first appear in the data.
func current(records []Record, topic string) []Record {
	var order []string
	newest := map[string]Record{}
	for _, r := range records {
		if r.Topic != topic {
			continue
		}
		old, ok := newest[r.Config]
		if !ok {
			order = append(order, r.Config)
		}
		if !ok || dateKey(r.Date) >= dateKey(old.Date) {
			newest[r.Config] = r
		}
	}
	out := make([]Record, len(order))
	for i, c := range order {
		out[i] = newest[c]
	}
	return out
}

// dateKey orders dates, an unknown one first.
func dateKey(d string) string {
	if d == "unknown" {
		return ""
	}
	return d
}

// metrics formats a record's figures: "name median (min-max)", the runs'
// median when each run is noted.
func metrics(ms []Metric) string {
	var parts []string
	for _, m := range ms {
		parts = append(parts, m.Name+" "+m.figure())
	}
	return strings.Join(parts, ", ")
}

func (m Metric) figure() string {
	about := ""
	if m.About {
		about = "about "
	}
	switch {
	case len(m.Runs) == 1:
		return about + num(m.Runs[0])
	case len(m.Runs) > 1:
		s := make([]string, len(m.Runs))
		for i, v := range m.Runs {
			s[i] = num(v)
		}
		return about + strings.Join(s, ", ")
	case m.Value != nil:
		return about + num(*m.Value)
	}
	var s string
	if m.Median != nil {
		s = num(*m.Median)
	}
	if m.Min != nil || m.Max != nil {
		r := "?-?"
		switch {
		case m.Min != nil && m.Max != nil:
			r = num(*m.Min) + "-" + num(*m.Max)
		case m.Min != nil:
			r = "at least " + num(*m.Min)
		default:
			r = "at most " + num(*m.Max)
		}
		if s == "" {
			s = r
		} else {
			s += " (" + r + ")"
		}
	}
	return about + s
}

// num prints a figure as noted: integers with thousands separators, other
// values with as many decimals as they carry.
func num(v float64) string {
	if v == float64(int64(v)) && (v >= 1e4 || v <= -1e4) {
		s := strconv.FormatInt(int64(v), 10)
		neg := strings.HasPrefix(s, "-")
		s = strings.TrimPrefix(s, "-")
		var b strings.Builder
		for i, c := range s {
			if i > 0 && (len(s)-i)%3 == 0 {
				b.WriteByte(',')
			}
			b.WriteRune(c)
		}
		if neg {
			return "-" + b.String()
		}
		return b.String()
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// cell escapes the pipes of a table cell.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
