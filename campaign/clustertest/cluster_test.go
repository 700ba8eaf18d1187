package clustertest

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kalah-solver/kalah/results"
)

// ackWait is the workers' ack wait in the tests: short, so that a unit
// of a dead or cut-off worker goes to another soon.
const ackWait = 5 * time.Second

// game is a campaign's position: the start of Kalah(pits, seeds) under
// rule, with an endgame database of egdb seeds (0: none).
type game struct {
	pits, seeds int
	rule        string
	egdb        int
}

func (g game) name() string {
	r := "nec"
	if g.rule == "empty-capture" {
		r = "ec"
	}
	return fmt.Sprintf("k%d%d-%s", g.pits, g.seeds, r)
}

// envGame is the game of KALAH_CLUSTER_GAME ("pits,seeds", default 5,3)
// and KALAH_CLUSTER_EGDB (the database's seeds, default none) under rule.
func envGame(t *testing.T, rule string) game {
	g := game{pits: 5, seeds: 3, rule: rule}
	if s := os.Getenv("KALAH_CLUSTER_GAME"); s != "" {
		if _, err := fmt.Sscanf(s, "%d,%d", &g.pits, &g.seeds); err != nil {
			t.Fatalf("KALAH_CLUSTER_GAME=%q: want pits,seeds", s)
		}
	}
	if s := os.Getenv("KALAH_CLUSTER_EGDB"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("KALAH_CLUSTER_EGDB=%q: want a seed count", s)
		}
		g.egdb = n
	}
	return g
}

// node is one NATS server of the cluster.
type node struct {
	name, addr, dir, conf string
	p                     *proc
}

// cluster is three NATS nodes, coordinator hosts c1 and c2 and worker
// hosts w1..wN, each its own namespace on one bridge.
type cluster struct {
	t          *testing.T
	net        *network
	dir        string
	kalah, srv string
	nodes      []*node
	urls       string
	workers    map[string]*proc
	addrs      map[string]string
}

// newCluster starts the three nodes and waits until JetStream answers with
// three replicas; the hosts of the coordinators and of the workers are
// made, nothing runs on them yet.
func newCluster(t *testing.T, workers int) *cluster {
	t.Helper()
	need(t)
	kalahBin, serverBin := build(t)
	c := &cluster{t: t, net: newNetwork(t), dir: t.TempDir(), kalah: kalahBin, srv: serverBin,
		workers: map[string]*proc{}, addrs: map[string]string{}}
	var urls, routes []string
	for i := 1; i <= 3; i++ {
		n := &node{name: fmt.Sprintf("n%d", i)}
		n.addr = c.net.host(n.name, 10+i)
		n.dir = filepath.Join(c.dir, n.name)
		c.nodes = append(c.nodes, n)
		urls = append(urls, "nats://"+n.addr+":4222")
		routes = append(routes, "nats://"+n.addr+":6222")
	}
	for _, n := range c.nodes {
		n.conf = filepath.Join(c.dir, n.name+".conf")
		if err := os.MkdirAll(n.dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(n.conf, []byte(nodeConfig(n, routes)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c.urls = strings.Join(urls, ",")
	for i := 1; i <= 2; i++ {
		h := fmt.Sprintf("c%d", i)
		c.addrs[h] = c.net.host(h, 20+i)
	}
	for i := 1; i <= workers; i++ {
		h := fmt.Sprintf("w%d", i)
		c.addrs[h] = c.net.host(h, 30+i)
	}
	for _, n := range c.nodes {
		c.startNode(n)
	}
	c.waitReady()
	t.Cleanup(func() {
		if t.Failed() {
			c.dumpLogs()
		}
	})
	return c
}

// nodeConfig is a node's nats-server configuration, as docs/distributed.md
// gives it for machines.
func nodeConfig(n *node, routes []string) string {
	return fmt.Sprintf(`server_name: %s
listen: %s:4222
http: %s:8222
jetstream {
  store_dir: %q
}
cluster {
  name: kalah
  listen: %s:6222
  routes: [%s]
}
`, n.name, n.addr, n.addr, n.dir, n.addr, strings.Join(routes, ", "))
}

func (c *cluster) startNode(n *node) {
	c.t.Helper()
	n.p = start(c.t, n.name, c.net.hosts[n.name], n.dir, "", c.srv, "-c", n.conf)
}

// waitReady waits until a client in c1's namespace reaches JetStream with
// three replicas.
func (c *cluster) waitReady() {
	c.t.Helper()
	var err error
	for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline); time.Sleep(time.Second) {
		if _, err = probe(c.net.hosts["c1"], c.urls, "ready", ""); err == nil {
			return
		}
	}
	c.t.Fatalf("the cluster did not become ready: %v", err)
}

// waitHealthy waits until every node that runs answers its monitoring
// port's /healthz with 200: a node back from a crash has caught up, and a
// read through it sees what the others hold.
func (c *cluster) waitHealthy() {
	c.t.Helper()
	for _, n := range c.nodes {
		if n.p == nil || !n.p.running() {
			continue
		}
		var err error
		for deadline := time.Now().Add(5 * time.Minute); time.Now().Before(deadline); time.Sleep(time.Second) {
			if _, err = probe(c.net.hosts["c1"], "http://"+n.addr+":8222/healthz", "health", ""); err == nil {
				break
			}
		}
		if err != nil {
			c.t.Fatalf("%s is not healthy: %v", n.name, err)
		}
	}
}

// egdbArgs are the database flags of the coordinator and of the workers.
func (c *cluster) egdbArgs(g game) []string {
	if d := egdbDir(c.t, g); d != "" {
		return []string{"--egdb", d}
	}
	return []string{"--no-egdb"}
}

// coordinator starts 'kalah campaign start' of g on host h; the record
// goes to the file record() reads.
func (c *cluster) coordinator(h string, g game, extra ...string) *proc {
	c.t.Helper()
	args := []string{"campaign", "start", g.name(), "--pits", fmt.Sprint(g.pits), "--seeds", fmt.Sprint(g.seeds),
		"--rule", g.rule, "--nats", c.urls, "--json"}
	args = append(append(args, c.egdbArgs(g)...), extra...)
	dir := filepath.Join(c.dir, h)
	return start(c.t, "coordinator-"+g.name(), c.net.hosts[h], dir, filepath.Join(dir, g.name()+".json"), c.kalah, args...)
}

// worker starts 'kalah worker' on host h with one thread.
func (c *cluster) worker(h string, g game, extra ...string) *proc {
	c.t.Helper()
	return c.workerOf(c.kalah, nil, h, g, extra...)
}

// workerOf starts the worker of binary bin, with env added to its
// environment.
func (c *cluster) workerOf(bin string, env []string, h string, g game, extra ...string) *proc {
	c.t.Helper()
	return c.workerArgs(bin, env, h, c.urls, append(c.egdbArgs(g), extra...))
}

// workerArgs starts the worker of binary bin on host h, reaching the
// cluster at urls, with args (the database flags among them) and the flags
// of KALAH_CLUSTER_WORKER_FLAGS (space-separated).
func (c *cluster) workerArgs(bin string, env []string, h, urls string, args []string) *proc {
	c.t.Helper()
	args = append([]string{"worker", "--nats", urls, "--name", h, "--threads", "1", "--ack-wait", ackWait.String()}, args...)
	args = append(args, strings.Fields(os.Getenv("KALAH_CLUSTER_WORKER_FLAGS"))...)
	p := startEnv(c.t, env, "worker-"+h, c.net.hosts[h], filepath.Join(c.dir, h), "", bin, args...)
	c.workers[h] = p
	return p
}

// record waits for the coordinator p of g on host h to end and returns
// its record.
func (c *cluster) record(p *proc, h string, g game, limit time.Duration) results.Record {
	c.t.Helper()
	if code := p.wait(c.t, limit); code != 0 {
		c.t.Fatalf("the coordinator exited %d; its log:\n%s", code, p.tail(40))
	}
	b, err := os.ReadFile(filepath.Join(c.dir, h, g.name()+".json"))
	if err != nil {
		c.t.Fatal(err)
	}
	var rec results.Record
	if err := json.Unmarshal(b, &rec); err != nil {
		c.t.Fatalf("the coordinator's record: %v\n%s", err, b)
	}
	return rec
}

// state reads the campaign's status, marks and answers.
func (c *cluster) state(g game) snapshot {
	c.t.Helper()
	out, err := probe(c.net.hosts["c1"], c.urls, "state", g.name())
	if err != nil {
		c.t.Fatal(err)
	}
	var s snapshot
	if err := json.Unmarshal(out, &s); err != nil {
		c.t.Fatal(err)
	}
	return s
}

// waitFor polls the campaign's state until ok says yes.
func (c *cluster) waitFor(g game, what string, limit time.Duration, ok func(snapshot) bool) snapshot {
	c.t.Helper()
	var last error
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
		out, err := probe(c.net.hosts["c1"], c.urls, "state", g.name())
		if err != nil {
			last = err
			continue
		}
		var s snapshot
		if err := json.Unmarshal(out, &s); err == nil && ok(s) {
			return s
		}
	}
	c.t.Fatalf("waited %v for %s (last probe error: %v)", limit, what, last)
	return snapshot{}
}

func (c *cluster) dumpLogs() {
	for _, n := range c.nodes {
		if n.p != nil {
			c.t.Logf("--- %s:\n%s", n.name, n.p.tail(15))
		}
	}
	for h, p := range c.workers {
		c.t.Logf("--- worker %s:\n%s", h, p.tail(15))
	}
}

// solved is 'kalah solve --json --force' of g on this machine (a search
// even where the built-in book knows the position), one per game and
// test process.
var solved = map[game]results.Record{}

func solve(t *testing.T, g game) results.Record {
	t.Helper()
	if r, ok := solved[g]; ok {
		return r
	}
	kalahBin, _ := build(t)
	args := []string{"solve", "--pits", fmt.Sprint(g.pits), "--seeds", fmt.Sprint(g.seeds), "--rule", g.rule,
		"--json", "-q", "--no-cache", "--force"} // --force: a search, not the built-in book's record
	if d := egdbDir(t, g); d != "" {
		args = append(args, "--egdb", d)
	} else {
		args = append(args, "--no-egdb")
	}
	cmd := exec.Command(kalahBin, args...)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "XDG_DATA_HOME="+t.TempDir(), "XDG_CACHE_HOME="+t.TempDir())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("kalah %s: %v", strings.Join(args, " "), err)
	}
	var r results.Record
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatal(err)
	}
	solved[g] = r
	return r
}

// check compares the campaign's record with 'kalah solve' of the same
// game and checks the campaign's books: every unit issued and not
// cancelled has its answer in the bucket (none lost), and no answer is
// counted twice. exact: the coordinator ran without a crash, so every
// answer in the bucket was counted once (a coordinator killed between
// taking an answer and writing its status forgets having counted it).
func (c *cluster) check(g game, rec results.Record, exact bool) snapshot {
	c.t.Helper()
	want := solve(c.t, g)
	c.waitHealthy()
	if rec.Value != want.Value {
		c.t.Errorf("%s: campaign value %d, kalah solve %d", g.name(), rec.Value, want.Value)
	}
	if fmt.Sprint(rec.Moves) != fmt.Sprint(want.Moves) {
		c.t.Errorf("%s: campaign moves %v, kalah solve %v", g.name(), rec.Moves, want.Moves)
	}
	s := c.state(g)
	st := s.Status
	if st.State != "done" {
		c.t.Errorf("%s: state %q after the record", g.name(), st.State)
	}
	lost := 0
	for k, cancelled := range s.Marks {
		if _, ok := s.Answers[k]; !ok && !cancelled {
			lost++
			c.t.Errorf("%s: unit %s issued, not cancelled, and not answered", g.name(), k)
		}
	}
	unmarked := 0
	for k := range s.Answers {
		if _, ok := s.Marks[k]; !ok {
			unmarked++
		}
	}
	if unmarked > 0 {
		// The coordinator takes only answers to units it marked issued.
		c.t.Errorf("%s: %d answers in the bucket to units with no mark in the state bucket (marks lost)", g.name(), unmarked)
	}
	if exact && st.Done != int64(len(s.Answers)) {
		c.t.Errorf("%s: %d answers counted, %d in the bucket", g.name(), st.Done, len(s.Answers))
	}
	if st.Done > int64(len(s.Answers)) {
		c.t.Errorf("%s: %d answers counted, only %d in the bucket: some counted twice", g.name(), st.Done, len(s.Answers))
	}
	for name, r := range s.Replicas {
		if r != 3 {
			c.t.Errorf("stream %s has %d replicas", name, r)
		}
	}
	c.t.Logf("%s: value %d as kalah solve; units issued %d, done %d, cancelled %d, redelivered %d, repeated %d, rejected %d, mismatched %d; %d preferred, %d kept; %d answers, %d marks; nodes %d (+%d coordinator, +%d in %d checks, %d agreed), solve %d; %.1f s, solve %.1f s on %d threads",
		g.name(), rec.Value, st.Issued, st.Done, st.Cancelled, st.Redelivered, st.Repeated, st.Rejected, st.Mismatched,
		st.Affine, st.AffineKept, len(s.Answers), len(s.Marks), st.Nodes, st.CoordinatorNodes, st.CheckNodes, st.ChecksIssued, st.ChecksAgreed, want.Nodes, st.Seconds, want.Seconds, want.Threads)
	return s
}
