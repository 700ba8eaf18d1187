package clustertest

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// TestMain removes the test cluster on the way out, also on Ctrl-C or
// SIGTERM; in a probe (the test binary run again inside a namespace, see
// probe_test.go) it runs the probe instead of the tests.
func TestMain(m *testing.M) {
	if op := os.Getenv(probeEnv); op != "" {
		os.Exit(probeMain(op))
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		s := <-sig
		fmt.Fprintf(os.Stderr, "clustertest: %v: removing the test cluster\n", s)
		cleanupAll()
		removeBins()
		os.Exit(130)
	}()
	code := m.Run()
	cleanupAll()
	removeBins()
	os.Exit(code)
}

var canRunResult = sync.OnceValue(canRun)

// need skips the test when the cluster tests cannot run here.
func need(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the cluster tests start real servers on network namespaces and take minutes (make cluster-test)")
	}
	if why := canRunResult(); why != "" {
		t.Skip(why)
	}
}

// The binaries, built once per test process from this module.
var bins struct {
	sync.Mutex
	dir           string
	kalah, server string
	err           error
	egdbs         map[string]error
}

// build makes nats-server (from the module's own nats-server dependency)
// and kalah.
func build(t *testing.T) (kalahBin, serverBin string) {
	t.Helper()
	bins.Lock()
	defer bins.Unlock()
	if bins.dir == "" && bins.err == nil {
		bins.err = func() error {
			dir, err := os.MkdirTemp("", "kalah-clustertest-")
			if err != nil {
				return err
			}
			bins.dir = dir
			root, err := exec.Command("go", "env", "GOMOD").Output()
			if err != nil {
				return fmt.Errorf("go env GOMOD: %v", err)
			}
			mod := filepath.Dir(strings.TrimSpace(string(root)))
			bins.kalah, bins.server = filepath.Join(dir, "kalah"), filepath.Join(dir, "nats-server")
			for _, b := range [][]string{{bins.kalah, "./cmd/kalah"}, {bins.server, "github.com/nats-io/nats-server/v2"}} {
				cmd := exec.Command("go", "build", "-o", b[0], b[1])
				cmd.Dir = mod
				if out, err := cmd.CombinedOutput(); err != nil {
					return fmt.Errorf("go build %s: %v\n%s", b[1], err, out)
				}
			}
			return nil
		}()
	}
	if bins.err != nil {
		t.Fatal(bins.err)
	}
	return bins.kalah, bins.server
}

// buildFault makes kalah with the kalahfault tag: its workers lie when
// told to by KALAH_FAULT_LIE (campaign/fault.go); never a release build.
func buildFault(t *testing.T) string {
	t.Helper()
	build(t)
	bins.Lock()
	defer bins.Unlock()
	bin := filepath.Join(bins.dir, "kalah-fault")
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	root, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "build", "-tags", "kalahfault", "-o", bin, "./cmd/kalah")
	cmd.Dir = filepath.Dir(strings.TrimSpace(string(root)))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build -tags kalahfault: %v\n%s", err, out)
	}
	return bin
}

func removeBins() {
	bins.Lock()
	defer bins.Unlock()
	if bins.dir != "" {
		os.RemoveAll(bins.dir)
	}
}

// egdbDir is the endgame database of g's pits, rule and depth, built once
// per test process and shared by every worker and the coordinator (as
// machines would each have a copy); "" when g has none. KALAH_CLUSTER_EGDB_DIR
// names a directory that holds it already (or where it is built and kept).
func egdbDir(t *testing.T, g game) string {
	t.Helper()
	if d := os.Getenv("KALAH_CLUSTER_EGDB_DIR"); d != "" && g.egdb > 0 {
		abs, err := filepath.Abs(d)
		if err != nil {
			t.Fatal(err)
		}
		return egdbIn(t, g, abs)
	}
	return egdbIn(t, g, fmt.Sprintf("egdb-%d", g.egdb))
}

// egdbAlone is the endgame database of g's rule alone, in a directory
// that holds no other.
func egdbAlone(t *testing.T, g game) string {
	t.Helper()
	return egdbIn(t, g, fmt.Sprintf("egdb-%s-%d", g.rule, g.egdb))
}

// egdbIn builds g's database in the directory name of the test binaries'
// (name itself when absolute); the build keeps the slices it finds.
func egdbIn(t *testing.T, g game, name string) string {
	t.Helper()
	if g.egdb <= 0 {
		return ""
	}
	kalahBin, _ := build(t)
	bins.Lock()
	defer bins.Unlock()
	dir := name
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(bins.dir, name)
	}
	key := fmt.Sprintf("%s/%d-%s-%d", name, g.pits, g.rule, g.egdb)
	if bins.egdbs == nil {
		bins.egdbs = map[string]error{}
	}
	err, ok := bins.egdbs[key]
	if !ok {
		out, e := exec.Command(kalahBin, "egdb", "build", "--pits", fmt.Sprint(g.pits), "--max-seeds", fmt.Sprint(g.egdb),
			"--rule", g.rule, "--egdb", dir, "-q").CombinedOutput()
		if e != nil {
			e = fmt.Errorf("kalah egdb build: %v\n%s", e, out)
		}
		bins.egdbs[key], err = e, e
	}
	if err != nil {
		t.Fatal(err)
	}
	return dir
}
