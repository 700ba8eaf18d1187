package clustertest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	toxiproxy "github.com/Shopify/toxiproxy/v2"
	"github.com/rs/zerolog"
)

// Slow and lossy links: a worker host whose one link goes to a proxy host
// (a veth pair, no port on the bridge), where this test binary runs
// Shopify's toxiproxy as a library, one proxy per NATS node. The worker
// is given the proxies' URLs; the nodes' own addresses, which the
// cluster tells its clients, have no route from its host, so every byte
// between it and the cluster goes through the proxies and their toxics.
// The test adds and removes toxics by writing to the proxy's standard
// input.

// toxic is a toxic in toxiproxy's JSON form.
type toxic struct {
	Name       string         `json:"name"`
	Type       string         `json:"type"`
	Stream     string         `json:"stream"`
	Toxicity   float64        `json:"toxicity"`
	Attributes map[string]int `json:"attributes"`
}

// proxyCmd is a line the test writes to a proxy: add a toxic, or remove
// the one named.
type proxyCmd struct {
	Op    string `json:"op"`
	Toxic toxic  `json:"toxic"`
}

// linkProxy is the proxy process of one worker host.
type linkProxy struct {
	t    *testing.T
	in   io.WriteCloser
	out  *bufio.Scanner
	urls string // the worker's --nats
}

// behindProxy makes worker host h with no port on the bridge: its eth0 is
// a veth pair's end whose other end is on proxy host p (on the bridge at
// subnet+octet), in 10.214.<octet>.0/24. It starts the proxy of h on p
// and returns it.
func (c *cluster) behindProxy(h, p string, octet int) *linkProxy {
	t := c.t
	t.Helper()
	c.addrs[p] = c.net.host(p, octet)
	ns, pns := nsPrefix+h, c.net.hosts[p]
	c.net.addNS(ns)
	c.net.hosts[h] = ns
	pair := fmt.Sprintf("10.214.%d.", octet)
	c.net.must(ipCmd("-n", pns, "link", "add", "eth1", "type", "veth", "peer", "name", "eth0", "netns", ns))
	c.net.must(ipCmd("-n", pns, "addr", "add", pair+"1/24", "dev", "eth1"))
	c.net.must(ipCmd("-n", pns, "link", "set", "eth1", "up"))
	c.net.must(ipCmd("-n", ns, "addr", "add", pair+"2/24", "dev", "eth0"))
	c.net.must(ipCmd("-n", ns, "link", "set", "eth0", "up"))
	var routes, urls []string
	for i, n := range c.nodes {
		listen := fmt.Sprintf("%s1:%d", pair, 14221+i)
		routes = append(routes, listen+"="+n.addr+":4222")
		urls = append(urls, "nats://"+listen)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("ip", "netns", "exec", pns, self)
	cmd.Env = append(os.Environ(), probeEnv+"=proxy", probeNATS+"="+strings.Join(routes, ","))
	cmd.Stderr = os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	lp := &linkProxy{t: t, urls: strings.Join(urls, ",")}
	if lp.in, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	lp.out = bufio.NewScanner(out)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	lp.reply("the proxy's start")
	return lp
}

// reply waits for the proxy's answer to what it was told.
func (lp *linkProxy) reply(what string) {
	lp.t.Helper()
	if !lp.out.Scan() {
		lp.t.Fatalf("%s: the proxy ended: %v", what, lp.out.Err())
	}
	if l := lp.out.Text(); l != "ok" {
		lp.t.Fatalf("%s: %s", what, l)
	}
}

func (lp *linkProxy) send(op string, tx toxic) {
	lp.t.Helper()
	b, _ := json.Marshal(proxyCmd{Op: op, Toxic: tx})
	if _, err := fmt.Fprintf(lp.in, "%s\n", b); err != nil {
		lp.t.Fatal(err)
	}
	lp.reply(op + " " + tx.Name)
}

// add puts a toxic on every proxy's links, those open included.
func (lp *linkProxy) add(tx toxic) {
	if tx.Toxicity == 0 {
		tx.Toxicity = 1
	}
	lp.send("add", tx)
}

// remove takes the toxic named off.
func (lp *linkProxy) remove(name string) { lp.send("remove", toxic{Name: name}) }

// proxyMain is the proxy's process: probeNATS lists listen=upstream
// pairs; it answers "ok" once they listen and after each command read
// from standard input, until that ends.
func proxyMain() int {
	srv := toxiproxy.NewServer(toxiproxy.NewMetricsContainer(nil), zerolog.Nop())
	var proxies []*toxiproxy.Proxy
	for i, r := range strings.Split(os.Getenv(probeNATS), ",") {
		listen, upstream, _ := strings.Cut(r, "=")
		p := toxiproxy.NewProxy(srv, fmt.Sprintf("node%d", i+1), listen, upstream)
		if err := p.Start(); err != nil {
			fmt.Printf("proxy %s: %v\n", r, err)
			return 1
		}
		proxies = append(proxies, p)
	}
	fmt.Println("ok")
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		var c proxyCmd
		err := json.Unmarshal(in.Bytes(), &c)
		for _, p := range proxies {
			if err != nil {
				break
			}
			switch c.Op {
			case "add":
				b, _ := json.Marshal(c.Toxic)
				_, err = p.Toxics.AddToxicJson(strings.NewReader(string(b)))
			case "remove":
				err = p.Toxics.RemoveToxic(context.Background(), c.Toxic.Name)
			default:
				err = fmt.Errorf("unknown op %q", c.Op)
			}
		}
		if err != nil {
			fmt.Printf("%s %s: %v\n", c.Op, c.Toxic.Name, err)
			continue
		}
		fmt.Println("ok")
	}
	return 0
}

// Workers whose links to the cluster are slow or lossy still give the
// campaign solve's values, no unit lost and none counted twice: w1's
// link adds latency both ways; w2's has little bandwidth and closes
// slowly, and for a while past the ack wait stalls (timeout), then has
// its connections reset by the peer.
func TestSlowLinks(t *testing.T) {
	c := newCluster(t, 0)
	g := envGame(t, "no-empty-capture")
	slow := c.behindProxy("w1", "x1", 41)
	thin := c.behindProxy("w2", "x2", 42)
	for _, s := range []string{"upstream", "downstream"} {
		slow.add(toxic{Name: "latency_" + s, Type: "latency", Stream: s, Attributes: map[string]int{"latency": 100, "jitter": 30}})
		thin.add(toxic{Name: "bandwidth_" + s, Type: "bandwidth", Stream: s, Attributes: map[string]int{"rate": 16}}) // KB/s
	}
	thin.add(toxic{Name: "slow_close", Type: "slow_close", Stream: "downstream", Attributes: map[string]int{"delay": 500}})
	w1 := c.workerArgs(c.kalah, nil, "w1", slow.urls, c.egdbArgs(g))
	w2 := c.workerArgs(c.kalah, nil, "w2", thin.urls, c.egdbArgs(g))
	co := c.coordinator("c1", g)
	c.waitFor(g, "answers through the proxies", 10*time.Minute, func(s snapshot) bool { return running(s) && s.Status.Done >= 4 })
	t.Log("w2's link stalls")
	thin.add(toxic{Name: "timeout", Type: "timeout", Stream: "upstream", Attributes: map[string]int{"timeout": 0}})
	time.Sleep(2 * ackWait)
	thin.remove("timeout")
	t.Log("w2's connections reset by the peer")
	thin.add(toxic{Name: "reset_peer", Type: "reset_peer", Stream: "upstream", Attributes: map[string]int{"timeout": 1000}})
	time.Sleep(2 * ackWait)
	thin.remove("reset_peer")
	s := c.check(g, c.record(co, "c1", g, 2*time.Hour), true)
	by := map[string]int{}
	for _, a := range s.Answers {
		by[a.Worker]++
	}
	for _, w := range []*proc{w1, w2} {
		t.Logf("%s: %d answers; its log:\n%s", w.name, by[strings.TrimPrefix(w.name, "worker-")], w.tail(4))
	}
	if by["w1"] == 0 || by["w2"] == 0 {
		t.Errorf("answers by worker %v: a slow link carried none", by)
	}
}
