package campaign

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"
)

// The unit tree of a campaign, recorded for 'kalah campaign simulate'
// (simulate.go). When the coordinator takes an answer it writes the unit's
// trace to the state bucket (<campaign>.trace.<issue>): when it was issued,
// when its answer reached the coordinator and when it was taken, its nodes
// and the worker's seconds, the split test that asked for it (parent) and
// the answer that led to its issue (cause).
//
// The cause is the answer the search goroutine that issued the unit last
// received: each root move's MTD(f), and each younger brother of a split
// test, runs in a goroutine of its own that issues its tests one after
// the other; a brother starts from its parent's cause, and a parent goes
// on from the cause of the brother whose answer it took last; the line
// after the root moves' values (the principal variation) goes on from the
// cause of the last root move to end. A unit without a cause was issued
// by the search's start (after the coordinator's guesses).

// Trace is one answered unit of a campaign's tree.
type Trace struct {
	ID       string  `json:"id"` // the issue's message id, <campaign>.<key>.<n>
	Key      string  `json:"key"`
	Parent   string  `json:"parent,omitempty"` // the unit key of the split test that asked for it
	Cause    string  `json:"cause,omitempty"`  // the ID of the answer that led to its issue
	Issued   float64 `json:"issued"`           // Unix seconds
	Received float64 `json:"received"`         // Unix seconds, when the answer reached the coordinator
	Finished float64 `json:"finished"`         // Unix seconds, when the coordinator took the answer
	Nodes    int64   `json:"nodes"`
	Seconds  float64 `json:"seconds"` // the worker's
	Worker   string  `json:"worker"`  // Identity.ID
	Threads  int     `json:"threads"`
	Prefer   string  `json:"prefer,omitempty"` // Unit.Prefer: the worker it went to first
}

// issueInfo is a unit's issue, kept until its answer is taken.
type issueInfo struct {
	id, cause, parent string
	prefer            string // Unit.Prefer
	at                time.Time
}

// cause is the answer a search goroutine last received (ctx value).
type cause struct {
	mu sync.Mutex
	id string
}

type causeKey struct{}
type parentKey struct{}

// withCause gives ctx a cause of its own, starting from ctx's.
func withCause(ctx context.Context) (context.Context, *cause) {
	c := &cause{id: causeOf(ctx)}
	return context.WithValue(ctx, causeKey{}, c), c
}

func causeOf(ctx context.Context) string {
	if c, ok := ctx.Value(causeKey{}).(*cause); ok {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.id
	}
	return ""
}

func setCause(ctx context.Context, id string) {
	if c, ok := ctx.Value(causeKey{}).(*cause); ok && id != "" {
		c.mu.Lock()
		c.id = id
		c.mu.Unlock()
	}
}

func parentOf(ctx context.Context) string {
	s, _ := ctx.Value(parentKey{}).(string)
	return s
}

func unixSeconds(t time.Time) float64 { return float64(t.UnixMicro()) / 1e6 }

func traceKey(campaign, id string) string {
	return campaign + ".trace." + keyUnsafe.ReplaceAllString(id, "_")
}

// saveTrace writes an answered unit's trace.
func (co *Coordinator) saveTrace(ctx context.Context, tr Trace) {
	data, _ := json.Marshal(tr)
	if _, err := co.c.State.Put(ctx, traceKey(co.p.Name, tr.ID), data); err != nil {
		co.logf("recording the trace of %s: %v", tr.Key, err)
	}
}

// LoadTraces reads a campaign's unit tree, in the order of issue.
func LoadTraces(ctx context.Context, c *Conn, name string) ([]Trace, error) {
	if _, err := LoadParams(ctx, c, name); err != nil {
		return nil, err
	}
	kl, err := c.State.ListKeysFiltered(ctx, name+".trace.>")
	if err != nil {
		return nil, err
	}
	var out []Trace
	for k := range kl.Keys() {
		e, err := c.State.Get(ctx, k)
		if err != nil {
			continue
		}
		var tr Trace
		if json.Unmarshal(e.Value(), &tr) == nil {
			out = append(out, tr)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("campaign %q has no recorded units (none answered, or run by a build that did not record them)", name)
	}
	slices.SortFunc(out, func(a, b Trace) int {
		switch {
		case a.Issued < b.Issued:
			return -1
		case a.Issued > b.Issued:
			return 1
		}
		return 0
	})
	return out, nil
}
