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
