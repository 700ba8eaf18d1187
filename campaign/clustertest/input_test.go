package clustertest

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A cluster nobody answers at is bad input: the coordinator and the
// worker exit 2 with a message naming every URL tried, and do not hang.
func TestUnreachable(t *testing.T) {
	need(t)
	kalahBin, _ := build(t)
	n := newNetwork(t)
	n.host("c1", 21)
	var urls []string
	for i := 1; i <= 3; i++ {
		urls = append(urls, fmt.Sprintf("nats://%s%d:4222", subnet, 10+i)) // no node runs there
	}
	list := strings.Join(urls, ",")
	dir := t.TempDir()
	for _, args := range [][]string{
		{"campaign", "start", "x", "--pits", "4", "--seeds", "3", "--no-egdb", "--nats", list},
		{"worker", "--nats", list, "--no-egdb"},
		{"campaign", "status", "x", "--nats", list},
	} {
		p := start(t, args[0], n.hosts["c1"], filepath.Join(dir, args[0]), "", kalahBin, args...)
		if code := p.wait(t, 2*time.Minute); code != 2 {
			t.Errorf("kalah %s: exit %d, want 2; log:\n%s", strings.Join(args, " "), code, p.tail(5))
		}
		if msg := p.lastLine(); !strings.Contains(msg, list) {
			t.Errorf("kalah %s: %q does not name the URLs %s", strings.Join(args, " "), msg, list)
		}
	}
}

// On a cluster, bad input is refused from any host with exit 2 and a
// message saying what is wrong: a campaign name that exists with other
// parameters (nothing changed), and a worker whose --egdb directory holds
// no endgame database.
func TestBadInputOnCluster(t *testing.T) {
	c := newCluster(t, 1)
	g := envGame(t, "no-empty-capture")
	w1 := c.worker("w1", g)
	co := c.coordinator("c1", g)
	c.check(g, c.record(co, "c1", g, 2*time.Hour), true)
	w1.kill()
	// The same name from another host, with another seed count.
	args := []string{"campaign", "start", g.name(), "--pits", fmt.Sprint(g.pits), "--seeds", fmt.Sprint(g.seeds + 1),
		"--rule", g.rule, "--nats", c.urls}
	p := start(t, "conflict", c.net.hosts["c2"], filepath.Join(c.dir, "c2"), "", c.kalah, append(args, c.egdbArgs(g)...)...)
	if code := p.wait(t, 2*time.Minute); code != 2 || !strings.Contains(p.lastLine(), "exists with other parameters") {
		t.Errorf("a second campaign %s with other parameters: exit %d, %q", g.name(), code, p.lastLine())
	}
	if s := c.state(g); s.Status.Seeds != g.seeds || s.Status.State != "done" {
		t.Errorf("after the conflict, the campaign has %d seeds, state %s", s.Status.Seeds, s.Status.State)
	}
	empty := t.TempDir()
	w := c.workerArgs(c.kalah, nil, "w1", c.urls, []string{"--egdb", empty})
	if code := w.wait(t, 2*time.Minute); code != 2 || !strings.Contains(w.lastLine(), "holds no endgame database") {
		t.Errorf("a worker with --egdb %s: exit %d, %q", empty, code, w.lastLine())
	}
}
