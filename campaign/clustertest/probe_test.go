package clustertest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/kalah-solver/kalah/campaign"
	"github.com/nats-io/nats.go/jetstream"
)

// A probe is this test binary run again inside a host's namespace (the
// test itself runs in the host's own network, which has no route to the
// cluster) to read the cluster with the campaign package: is it ready,
// and what do a campaign's status, marks and answers say.
const (
	probeEnv     = "KALAH_CLUSTERTEST_PROBE"
	probeNATS    = "KALAH_CLUSTERTEST_NATS"
	probeCampign = "KALAH_CLUSTERTEST_CAMPAIGN"
)

// snapshot is what a "state" probe reads of one campaign.
type snapshot struct {
	Status  campaign.Status            `json:"status"`
	Answers map[string]campaign.Result `json:"answers"` // results bucket, keys of the campaign's rule
	Marks   map[string]bool            `json:"marks"`   // issued units: key -> cancelled
	// Replicas of each stream of the campaign package.
	Replicas map[string]int `json:"replicas"`
}

// probe runs op in namespace ns against the cluster urls and returns
// its standard output.
func probe(ns, urls, op, name string) ([]byte, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("ip", "netns", "exec", ns, self)
	cmd.Env = append(os.Environ(), probeEnv+"="+op, probeNATS+"="+urls, probeCampign+"="+name)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("probe %s: %v: %s", op, err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

func probeMain(op string) int {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := campaign.Connect(ctx, os.Getenv(probeNATS), 0)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer c.Close()
	if err := runProbe(ctx, c, op); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

func runProbe(ctx context.Context, c *campaign.Conn, op string) error {
	s := snapshot{Answers: map[string]campaign.Result{}, Marks: map[string]bool{}, Replicas: map[string]int{}}
	lister := c.JS.ListStreams(ctx)
	for info := range lister.Info() {
		s.Replicas[info.Config.Name] = info.Config.Replicas
	}
	if err := lister.Err(); err != nil {
		return err
	}
	if op == "ready" {
		if r := campaign.Replicas(c.NC); r != 3 {
			return fmt.Errorf("replicas %d, want 3", r)
		}
		return json.NewEncoder(os.Stdout).Encode(s)
	}
	name := os.Getenv(probeCampign)
	st, err := campaign.Info(ctx, c, name)
	if err != nil {
		return err
	}
	s.Status = *st
	rule := "nec."
	if st.Rule == "empty-capture" {
		rule = "ec."
	}
	keys, err := keysOf(ctx, c.Results)
	if err != nil {
		return err
	}
	for _, k := range keys {
		if !strings.HasPrefix(k, rule) {
			continue
		}
		e, err := c.Results.Get(ctx, k)
		if err != nil {
			return err
		}
		var r campaign.Result
		if err := json.Unmarshal(e.Value(), &r); err != nil {
			return fmt.Errorf("answer %s: %v", k, err)
		}
		s.Answers[k] = r
	}
	if keys, err = keysOf(ctx, c.State); err != nil {
		return err
	}
	prefix := name + ".unit."
	for _, k := range keys {
		if !strings.HasPrefix(k, prefix) {
			continue
		}
		e, err := c.State.Get(ctx, k)
		if err != nil {
			return err
		}
		var mk struct {
			Cancelled bool `json:"cancelled"`
		}
		json.Unmarshal(e.Value(), &mk)
		s.Marks[strings.TrimPrefix(k, prefix)] = mk.Cancelled
	}
	return json.NewEncoder(os.Stdout).Encode(s)
}

func keysOf(ctx context.Context, kv jetstream.KeyValue) ([]string, error) {
	l, err := kv.ListKeys(ctx)
	if err != nil {
		return nil, err
	}
	var keys []string
	for k := range l.Keys() {
		keys = append(keys, k)
	}
	return keys, nil
}
