package clustertest

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// step lets the workers ws run a moment at a time (SIGCONT, a pause,
// SIGSTOP) and reads the campaign's state while they are stopped, until
// ok says yes; the workers are left stopped. A fault injected then finds
// the campaign where ok said, whatever the speed of the machine.
func (c *cluster) step(g game, ws []*proc, what string, ok func(snapshot) bool) snapshot {
	c.t.Helper()
	for i := 0; i < 2000; i++ {
		for _, w := range ws {
			w.signal(syscall.SIGSTOP)
		}
		out, err := probe(c.net.hosts["c1"], c.urls, "state", g.name())
		if err == nil {
			s, err := decode(out)
			if err == nil && ok(s) {
				return s
			}
			if err == nil && s.Status.State == "done" {
				c.t.Fatalf("campaign %s ended before %s: a bigger KALAH_CLUSTER_GAME gives the faults time", g.name(), what)
			}
		}
		for _, w := range ws {
			w.signal(syscall.SIGCONT)
		}
		time.Sleep(100 * time.Millisecond)
	}
	c.t.Fatalf("campaign %s never reached %s", g.name(), what)
	return snapshot{}
}

func cont(ws ...*proc) {
	for _, w := range ws {
		w.signal(syscall.SIGCONT)
	}
}

func running(s snapshot) bool { return s.Status.State == "running" }

// Kill -9 the node leading the results stream in the middle of a
// campaign, go on with two nodes, then bring it back: the campaign ends
// with solve's values and the node serves it again.
func TestNodeKilled(t *testing.T) {
	c := newCluster(t, 3)
	g := envGame(t, "no-empty-capture")
	w1 := c.worker("w1", g)
	co := c.coordinator("c1", g)
	s0 := c.step(g, []*proc{w1}, "its first answers", func(s snapshot) bool { return running(s) && s.Status.Done >= 1 })
	victim := c.nodes[0]
	for _, n := range c.nodes {
		if n.name == s0.Leaders["KALAH_RESULTS"] {
			victim = n
		}
	}
	t.Logf("killing %s (leader of KALAH_RESULTS) with %d answers in", victim.name, s0.Status.Done)
	victim.p.kill()
	cont(w1)
	c.worker("w2", g)
	c.worker("w3", g)
	c.waitFor(g, "answers with a node down", time.Hour, func(s snapshot) bool {
		return s.Status.Done > s0.Status.Done || s.Status.State == "done"
	})
	c.startNode(victim)
	rec := c.record(co, "c1", g, 2*time.Hour)
	s := c.check(g, rec, true)
	// The node that was down has the campaign again: a client that
	// tries it first reads the same books from it.
	first := "nats://" + victim.addr + ":4222"
	var urls []string
	for _, u := range strings.Split(c.urls, ",") {
		if u != first {
			urls = append(urls, u)
		}
	}
	var err error
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(time.Second) {
		var out []byte // (check waited until every node's /healthz said ok)
		if out, err = probeFirst(c.net.hosts["c1"], first+","+strings.Join(urls, ","), g.name()); err == nil {
			var again snapshot
			if again, err = decode(out); err == nil && len(again.Answers) != len(s.Answers) {
				err = fmt.Errorf("%d answers through %s, %d through the others", len(again.Answers), victim.name, len(s.Answers))
			}
			if err == nil {
				return
			}
		}
	}
	t.Errorf("%s after its restart: %v", victim.name, err)
}

// Kill -9 a worker holding a unit: JetStream gives the unit to another
// worker once the ack wait has run out.
func TestWorkerKilled(t *testing.T) {
	c := newCluster(t, 3)
	g := envGame(t, "no-empty-capture")
	w1 := c.worker("w1", g)
	co := c.coordinator("c1", g)
	s0 := c.step(g, []*proc{w1}, "w1 holding a unit", func(s snapshot) bool {
		_, answered := s.Answers[s.Held]
		return running(s) && s.Held != "" && !answered
	})
	k := s0.Held
	t.Logf("killing w1 holding %s", k)
	w1.kill()
	c.worker("w2", g)
	c.worker("w3", g)
	rec := c.record(co, "c1", g, 2*time.Hour)
	s := c.check(g, rec, true)
	a, ok := s.Answers[k]
	switch {
	case !ok:
		t.Logf("%s was not needed any more (cancelled: %v)", k, s.Marks[k])
	case a.Worker == "w1":
		t.Logf("w1 had published its answer to %s before it was stopped", k)
	case a.Attempt < 2:
		t.Errorf("%s answered by %s at its first delivery, but w1 held it", k, a.Worker)
	default:
		t.Logf("%s answered by %s at delivery %d", k, a.Worker, a.Attempt)
	}
}

// A worker cut off from the network (its link down) while it holds a
// unit, for longer than the ack wait, then back: the unit goes to
// another worker, and the late answer the first one sends when it is
// back is taken once (counted as repeated, not as done).
func TestWorkerCutOff(t *testing.T) {
	c := newCluster(t, 3)
	g := envGame(t, "no-empty-capture")
	w1 := c.worker("w1", g)
	co := c.coordinator("c1", g)
	s0 := c.step(g, []*proc{w1}, "w1 holding a unit", func(s snapshot) bool {
		_, answered := s.Answers[s.Held]
		return running(s) && s.Held != "" && !answered
	})
	k := s0.Held
	t.Logf("w1's link down while it holds %s", k)
	c.net.link("w1", false)
	w2 := c.worker("w2", g)
	c.step(g, []*proc{w2}, "another worker's answer to "+k, func(s snapshot) bool {
		_, ok := s.Answers[k]
		return ok || s.Marks[k]
	})
	time.Sleep(ackWait) // w1 stays cut off well past the ack wait
	// w1 comes back and finishes the unit it held: its answer is late.
	c.net.link("w1", true)
	cont(w1)
	c.waitFor(g, "w1's late answer", 10*time.Minute, func(s snapshot) bool {
		return s.Status.Repeated >= 1 || s.Status.State == "done"
	})
	cont(w2)
	c.worker("w3", g)
	rec := c.record(co, "c1", g, 2*time.Hour)
	s := c.check(g, rec, true)
	if a, ok := s.Answers[k]; ok && a.Worker == "w1" {
		t.Errorf("the answer to %s in the bucket is w1's late one", k)
	}
	if s.Status.Repeated < 1 {
		t.Logf("w1's late answer did not reach the coordinator before the end; w1's log:\n%s", w1.tail(8))
	}
}

// Kill -9 the coordinator in the middle of a campaign and start it again
// on another host: it goes on from what the cluster holds.
func TestCoordinatorKilled(t *testing.T) {
	c := newCluster(t, 3)
	g := envGame(t, "no-empty-capture")
	w1 := c.worker("w1", g)
	co := c.coordinator("c1", g)
	s0 := c.step(g, []*proc{w1}, "its first answers", func(s snapshot) bool { return running(s) && s.Status.Done >= 1 })
	t.Logf("killing the coordinator on c1 with %d answers in", s0.Status.Done)
	co.kill()
	cont(w1)
	c.worker("w2", g)
	c.worker("w3", g)
	co2 := c.coordinator("c2", g)
	rec := c.record(co2, "c2", g, 2*time.Hour)
	s := c.check(g, rec, false)
	if s.Status.Runs < 2 {
		t.Errorf("the status counts %d coordinator runs, want 2", s.Status.Runs)
	}
}

// outage is how long TestClusterDown keeps every node down
// (KALAH_CLUSTER_OUTAGE, a Go duration; default a minute).
func outage(t *testing.T) time.Duration {
	if s := os.Getenv("KALAH_CLUSTER_OUTAGE"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatalf("KALAH_CLUSTER_OUTAGE=%q: %v", s, err)
		}
		return d
	}
	return time.Minute
}

// All three nodes killed with -9 for a while: the coordinator and the
// workers wait, say so in their logs, and go on when the cluster is back.
func TestClusterDown(t *testing.T) {
	c := newCluster(t, 3)
	g := envGame(t, "no-empty-capture")
	ws := []*proc{c.worker("w1", g), c.worker("w2", g), c.worker("w3", g)}
	co := c.coordinator("c1", g)
	s0 := c.step(g, ws, "its first answers", func(s snapshot) bool { return running(s) && s.Status.Done >= 1 })
	t.Logf("killing every node with %d answers in", s0.Status.Done)
	for _, n := range c.nodes {
		n.p.kill()
	}
	cont(ws...)
	time.Sleep(outage(t))
	for _, p := range append([]*proc{co}, ws...) {
		if !p.running() {
			t.Fatalf("%s ended while the cluster was down; its log:\n%s", p.name, p.tail(20))
		}
	}
	for _, n := range c.nodes {
		c.startNode(n)
	}
	rec := c.record(co, "c1", g, 2*time.Hour)
	s := c.check(g, rec, true)
	for _, p := range append([]*proc{co}, ws...) {
		var said []string
		for _, l := range strings.Split(p.logText(), "\n") {
			if strings.Contains(l, "NATS cluster") {
				said = append(said, l)
			}
		}
		t.Logf("%s:\n%s", p.name, strings.Join(said, "\n"))
		if p == co && (!strings.Contains(p.logText(), "does not answer") || !strings.Contains(p.logText(), "answers again")) {
			t.Errorf("the coordinator's log does not say that it waited for the cluster and that the cluster came back")
		}
	}
	if s.Status.Outages < 1 {
		t.Errorf("the status counts %d outages", s.Status.Outages)
	}
	t.Logf("status: %d outages, %.1f s", s.Status.Outages, s.Status.OutageSeconds)
}

// A worker whose endgame database has another depth than the campaign
// declares is refused: it hands the units back, the status lists it, and
// no answer of it is taken.
func TestWorkerRefused(t *testing.T) {
	c := newCluster(t, 3)
	g := envGame(t, "no-empty-capture")
	other := g
	if g.egdb > 0 {
		other.egdb = 0
	} else {
		other.egdb = 6
	}
	c.worker("w1", other)
	c.worker("w2", g)
	co := c.coordinator("c1", g)
	rec := c.record(co, "c1", g, 2*time.Hour)
	s := c.check(g, rec, true)
	refused := false
	for _, r := range s.Status.Refused {
		refused = refused || r.Worker == "w1"
	}
	if !refused {
		t.Errorf("the status lists no refusal by w1: %+v", s.Status.Refused)
	}
	for k, a := range s.Answers {
		if a.Worker == "w1" {
			t.Errorf("answer to %s taken from w1, whose database is of %d seeds", k, other.egdb)
		}
	}
	t.Logf("refused: %+v", s.Status.Refused)
}
