package solvecmd

import (
	"bufio"
	"fmt"
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
	c, err := opts.Game.ParseRule()
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
		jobs = append(jobs, job{rules: engine.Variant{Pits: p.Pits, Rule: c}, pos: p})
	}
	if err := sc.Err(); err != nil {
		return nil, true, fmt.Errorf("reading standard input: %w", err)
	}
	if len(jobs) == 0 {
		return nil, true, cmdutil.BadInputf("--position -: standard input holds no position")
	}
	return jobs, true, nil
}
