package clustertest

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// step lets the workers ws run slice at a time (SIGCONT, a pause,
// SIGSTOP) and reads the campaign's state while they are stopped, until
// ok says yes; the workers are left stopped. A fault injected then finds
// the campaign where ok said, whatever the speed of the machine.
func (c *cluster) step(g game, ws []*proc, slice time.Duration, what string, ok func(snapshot) bool) snapshot {
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
		time.Sleep(slice)
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

// faultRun is a campaign of the test's game (KALAH_CLUSTER_GAME,
// no-empty-capture) on a three-node cluster with three worker hosts:
// worker w1 and the coordinator on c1 run, the other workers are the
// test's to start.
type faultRun struct {
	*cluster
	g      game
	w1, co *proc
}

// startFault starts the cluster, w1 and the coordinator. With stopped, w1
// is stopped (SIGSTOP) once it serves, before the campaign starts: a pull
// it has out then gets the first unit queued, and it holds that unit.
func startFault(t *testing.T, stopped bool) *faultRun {
	t.Helper()
	c := newCluster(t, 3)
	f := &faultRun{cluster: c, g: envGame(t, "no-empty-capture")}
	f.w1 = c.worker("w1", f.g)
	if stopped {
		f.w1.waitLog(t, "serving", time.Minute)
		time.Sleep(300 * time.Millisecond) // its first pull out
		f.w1.signal(syscall.SIGSTOP)
	}
	f.co = c.coordinator("c1", f.g)
	return f
}

// firstAnswers lets ws run until the campaign has a status (its first is
// written after CoordinatorConfig.StatusEvery) and the results bucket its
// first answers; they are left stopped. The slices are short, so that even
// a small campaign is far from its end then.
func (f *faultRun) firstAnswers(ws ...*proc) snapshot {
	f.t.Helper()
	return f.step(f.g, ws, 20*time.Millisecond, "its first answers", func(s snapshot) bool { return running(s) && len(s.Answers) >= 1 })
}

// heldByW1 returns the key of a unit that w1 (started stopped, the only
// worker) holds unanswered, and leaves w1 stopped: it runs a few
// milliseconds at a time until it holds one.
func (f *faultRun) heldByW1() string {
	f.t.Helper()
	f.waitFor(f.g, "the first units queued", 10*time.Minute, func(s snapshot) bool { return running(s) && s.Status.Issued > 0 })
	s := f.step(f.g, []*proc{f.w1}, 10*time.Millisecond, "w1 holding a unit", func(s snapshot) bool {
		_, answered := s.Answers[s.Held]
		return running(s) && s.Held != "" && !answered
	})
	return s.Held
}

// workers starts the workers of hosts.
func (f *faultRun) workers(hosts ...string) []*proc {
	var ps []*proc
	for _, h := range hosts {
		ps = append(ps, f.worker(h, f.g))
	}
	return ps
}

// end waits for the coordinator co on host h and checks its record
// (check; exact as there).
func (f *faultRun) end(co *proc, h string, exact bool) snapshot {
	f.t.Helper()
	return f.check(f.g, f.record(co, h, f.g, 2*time.Hour), exact)
}

// Kill -9 the node leading the results stream in the middle of a
// campaign, go on with two nodes, then bring it back: the campaign ends
// with solve's values and the node serves it again.
func TestNodeKilled(t *testing.T) {
	f := startFault(t, false)
	c, g := f.cluster, f.g
	s0 := f.firstAnswers(f.w1)
	victim := c.nodes[0]
	for _, n := range c.nodes {
		if n.name == s0.Leaders["KALAH_RESULTS"] {
			victim = n
		}
	}
	t.Logf("killing %s (leader of KALAH_RESULTS) with %d answers in", victim.name, len(s0.Answers))
	victim.p.kill()
	cont(f.w1)
	f.workers("w2", "w3")
	c.waitFor(g, "answers with a node down", time.Hour, func(s snapshot) bool {
		return len(s.Answers) > len(s0.Answers) || s.Status.State == "done"
	})
	c.startNode(victim)
	s := f.end(f.co, "c1", true)
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
	f := startFault(t, true)
	k := f.heldByW1()
	t.Logf("killing w1 holding %s", k)
	f.w1.kill()
	f.workers("w2", "w3")
	s := f.end(f.co, "c1", true)
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
	f := startFault(t, true)
	c, g, w1 := f.cluster, f.g, f.w1
	k := f.heldByW1()
	t.Logf("w1's link down while it holds %s", k)
	c.net.link("w1", false)
	w2 := c.worker("w2", g)
	c.step(g, []*proc{w2}, 100*time.Millisecond, "another worker's answer to "+k, func(s snapshot) bool {
		_, ok := s.Answers[k]
		return ok || s.Marks[k]
	})
	time.Sleep(ackWait) // w1 stays cut off well past the ack wait
	// w1 comes back and finishes the unit it held: its answer is late
	// (or none, when w1 had not read the unit before it was stopped: it
	// finds the unit answered in the bucket). w2 goes on after two ack
	// waits at most: the checks of w1's answers need another worker.
	c.net.link("w1", true)
	cont(w1)
	for t0 := time.Now(); time.Since(t0) < 2*ackWait; time.Sleep(500 * time.Millisecond) {
		if out, err := probe(c.net.hosts["c1"], c.urls, "state", g.name()); err == nil {
			if s, err := decode(out); err == nil && (s.Status.Repeated >= 1 || s.Status.State == "done") {
				break
			}
		}
	}
	cont(w2)
	f.workers("w3")
	s := f.end(f.co, "c1", true)
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
	f := startFault(t, false)
	s0 := f.firstAnswers(f.w1)
	t.Logf("killing the coordinator on c1 with %d answers in", len(s0.Answers))
	f.co.kill()
	cont(f.w1)
	f.workers("w2", "w3")
	s := f.end(f.coordinator("c2", f.g), "c2", false)
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
	f := startFault(t, false)
	c, co := f.cluster, f.co
	ws := append([]*proc{f.w1}, f.workers("w2", "w3")...)
	s0 := f.firstAnswers(ws...)
	t.Logf("killing every node with %d answers in", len(s0.Answers))
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
	s := f.end(co, "c1", true)
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
	refused(t, c, g, "w1", "endgame database of")
}

// A worker given the endgame database of the other rule only cannot serve
// the campaign's rule: it is refused as one of another depth is.
func TestWorkerOtherRule(t *testing.T) {
	c := newCluster(t, 3)
	g := envGame(t, "no-empty-capture")
	other := game{pits: g.pits, seeds: g.seeds, rule: "empty-capture", egdb: 6}
	c.workerArgs(c.kalah, nil, "w1", c.urls, []string{"--egdb", egdbAlone(t, other)})
	c.worker("w2", g)
	refused(t, c, g, "w1", "no endgame database for")
}

// refused runs the campaign of g to its end and checks that worker w,
// refused for a reason containing why, has no answer taken.
func refused(t *testing.T, c *cluster, g game, w, why string) {
	t.Helper()
	co := c.coordinator("c1", g)
	s := c.check(g, c.record(co, "c1", g, 2*time.Hour), true)
	said := false
	for _, r := range s.Status.Refused {
		said = said || r.Worker == w && strings.Contains(r.Reason, why)
	}
	if !said {
		t.Errorf("the status lists no refusal by %s saying %q: %+v", w, why, s.Status.Refused)
	}
	for k, a := range s.Answers {
		if a.Worker == w {
			t.Errorf("answer to %s taken from %s", k, w)
		}
	}
	t.Logf("refused: %+v", s.Status.Refused)
}
