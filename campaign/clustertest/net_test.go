package clustertest

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// The test network: one namespace holds the bridge, every host is a
// namespace of its own whose eth0 is a veth pair's end, the other end on
// the bridge. Names start with kt<pid>- so that a later run can tell and
// remove what a run killed before its cleanup left behind.
const subnet = "10.213.0."

var nsPrefix = fmt.Sprintf("kt%d-", os.Getpid())

// registry is what this process made, removed by cleanupAll on exit, on
// a signal and by each test's cleanup.
var registry struct {
	sync.Mutex
	procs map[int]*proc
	ns    []string
}

func ipCmd(args ...string) error {
	out, err := exec.Command("ip", args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("ip %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return nil
}

// canRun says why the cluster tests cannot run here, or "" when they can.
func canRun() string {
	if os.Geteuid() != 0 {
		return "the cluster tests make network namespaces and need root"
	}
	if _, err := exec.LookPath("ip"); err != nil {
		return "the cluster tests need the ip command (Debian: apt-get install iproute2)"
	}
	probe := nsPrefix + "probe"
	if err := ipCmd("netns", "add", probe); err != nil {
		return fmt.Sprintf("cannot make a network namespace: %v", err)
	}
	ipCmd("netns", "del", probe)
	return ""
}

// network is a bridge and the hosts on it.
type network struct {
	t      *testing.T
	bridge string // the bridge's namespace
	hosts  map[string]string
}

// newNetwork makes the bridge's namespace; removed at the test's end.
func newNetwork(t *testing.T) *network {
	sweepStale()
	n := &network{t: t, bridge: nsPrefix + "br", hosts: map[string]string{}}
	n.addNS(n.bridge)
	n.must(ipCmd("-n", n.bridge, "link", "add", "br0", "type", "bridge"))
	n.must(ipCmd("-n", n.bridge, "link", "set", "br0", "up"))
	t.Cleanup(n.remove)
	return n
}

func (n *network) must(err error) {
	if err != nil {
		n.t.Helper()
		n.t.Fatal(err)
	}
}

func (n *network) addNS(name string) {
	n.must(ipCmd("netns", "add", name))
	registry.Lock()
	registry.ns = append(registry.ns, name)
	registry.Unlock()
	n.must(ipCmd("-n", name, "link", "set", "lo", "up"))
}

// host makes the namespace of host name with address subnet+octet on the
// bridge and returns the address.
func (n *network) host(name string, octet int) string {
	ns := nsPrefix + name
	addr := subnet + strconv.Itoa(octet)
	n.addNS(ns)
	n.must(ipCmd("-n", n.bridge, "link", "add", name, "type", "veth", "peer", "name", "eth0", "netns", ns))
	n.must(ipCmd("-n", n.bridge, "link", "set", name, "master", "br0", "up"))
	n.must(ipCmd("-n", ns, "addr", "add", addr+"/24", "dev", "eth0"))
	n.must(ipCmd("-n", ns, "link", "set", "eth0", "up"))
	n.hosts[name] = ns
	return addr
}

// link sets host name's port on the bridge up or down: down, its packets
// go nowhere and its connections hang, as when a cable is pulled.
func (n *network) link(name string, up bool) {
	state := "down"
	if up {
		state = "up"
	}
	n.must(ipCmd("-n", n.bridge, "link", "set", name, state))
}

// remove kills what runs in the namespaces and deletes them (the veth
// pairs and the bridge go with them).
func (n *network) remove() {
	for _, ns := range n.hosts {
		removeNS(ns)
	}
	removeNS(n.bridge)
}

func removeNS(ns string) {
	if out, err := exec.Command("ip", "netns", "pids", ns).Output(); err == nil {
		for _, f := range strings.Fields(string(out)) {
			if pid, err := strconv.Atoi(f); err == nil {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	}
	ipCmd("netns", "del", ns)
	registry.Lock()
	for i, s := range registry.ns {
		if s == ns {
			registry.ns = append(registry.ns[:i], registry.ns[i+1:]...)
			break
		}
	}
	registry.Unlock()
}

var staleRE = regexp.MustCompile(`^kt(\d+)-\S+`)

// sweepStale removes the namespaces of earlier runs whose process is gone
// (a run killed with SIGKILL cannot clean up after itself).
func sweepStale() {
	out, err := exec.Command("ip", "netns", "list").Output()
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(out), "\n") {
		m := staleRE.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		pid, _ := strconv.Atoi(m[1])
		if pid == os.Getpid() {
			continue
		}
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); err == nil {
			continue
		}
		removeNS(strings.Fields(m[0])[0])
	}
}

// cleanupAll kills every process and removes every namespace this
// process made.
func cleanupAll() {
	registry.Lock()
	var ps []*proc
	for _, p := range registry.procs {
		ps = append(ps, p)
	}
	nss := append([]string(nil), registry.ns...)
	registry.Unlock()
	for _, p := range ps {
		p.kill()
	}
	for _, ns := range nss {
		removeNS(ns)
	}
}
