package solvecmd

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/engine"
)

// readJobs returns the positions the flags name: the one of --position or
// --pits/--seeds, or with --position - every line of standard input.
// batch reports the latter. Every error is bad input, and every line is
// checked before the first is solved.
func readJobs(opts *Options) (jobs []job, batch bool, err error) {
	if opts.Game.Position != "-" {
		r, p, start, err := opts.Game.Resolve()
		if err != nil {
			return nil, false, err
		}
		j := job{rules: r, pos: p, start: start}
		if start {
			j.seeds = opts.Game.Seeds
		}
		return []job{j}, false, nil
	}
	c, err := opts.Game.Capture()
	if err != nil {
		return nil, true, err
	}
	sc := bufio.NewScanner(opts.IO.In)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		text, side := line, engine.South
		if i := strings.LastIndexAny(line, " \t"); i >= 0 {
			last := line[i+1:]
			if s, err := engine.ParseSide(last); err == nil {
				text, side = strings.TrimSpace(line[:i]), s
			} else if strings.Trim(last, "0123456789,") != "" {
				return nil, true, cmdutil.BadInputf("standard input line %d: %v", n, err)
			}
		}
		p, err := engine.ParsePosition(text, side)
		if err != nil {
			return nil, true, cmdutil.BadInputf("standard input line %d: %v", n, err)
		}
		jobs = append(jobs, job{rules: engine.Rules{Pits: p.Pits, Capture: c}, pos: p})
	}
	if err := sc.Err(); err != nil {
		return nil, true, fmt.Errorf("reading standard input: %w", err)
	}
	if len(jobs) == 0 {
		return nil, true, cmdutil.BadInputf("--position -: standard input holds no position")
	}
	return jobs, true, nil
}

// parseBytes reads a size: a whole number of bytes with an optional unit,
// B, KiB, MiB, GiB, TiB (powers of 1024; K, M, G, T and KB, MB, GB, TB are
// read the same way).
func parseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
		i++
	}
	num, unit := t[:i], strings.ToLower(strings.TrimSpace(t[i:]))
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || num == "" {
		return 0, fmt.Errorf("%q is not a size: want a number with an optional unit, e.g. 512MiB or 2GiB", s)
	}
	shift := map[string]uint{"": 0, "b": 0, "k": 10, "kb": 10, "kib": 10, "m": 20, "mb": 20, "mib": 20,
		"g": 30, "gb": 30, "gib": 30, "t": 40, "tb": 40, "tib": 40}
	sh, ok := shift[unit]
	if !ok {
		return 0, fmt.Errorf("%q: unknown unit %q; use B, KiB, MiB, GiB or TiB", s, t[i:])
	}
	b := v * float64(uint64(1)<<sh)
	if b < 1<<20 || b > 1<<44 {
		return 0, fmt.Errorf("%q is out of range: want 1MiB..16TiB", s)
	}
	return int64(b), nil
}

// formatBytes writes a size in the largest binary unit that keeps it whole
// or one decimal: "4 GiB", "512 MiB", "1.5 GiB".
func formatBytes(b int64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	v, u := float64(b), 0
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	if v == float64(int64(v)) {
		return fmt.Sprintf("%d %s", int64(v), units[u])
	}
	return fmt.Sprintf("%.1f %s", v, units[u])
}
