package clustertest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/kalah-solver/kalah/campaign"
	"github.com/nats-io/nats.go"
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
	// Replicas and leader of each stream of the campaign package.
	Replicas map[string]int    `json:"replicas"`
	Leaders  map[string]string `json:"leaders"`
	// Held is the key of the unit the workers' consumer delivered last
	// when it is not acked yet ("" otherwise): with one worker running,
	// the unit that worker holds.
	Held string `json:"held"`
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

// probeFirst reads the campaign's state through the first of urls when
// it answers (the client tries them in order, not shuffled).
func probeFirst(ns, urls, name string) ([]byte, error) {
	return probe(ns, urls, "state-ordered", name)
}

func decode(out []byte) (snapshot, error) {
	var s snapshot
	err := json.Unmarshal(out, &s)
	return s, err
}

func probeMain(op string) int {
	if op == "proxy" {
		return proxyMain()
	}
	if op == "health" {
		// The node's monitoring port: 200 once it has JetStream and is
		// in step with the leaders of the streams it holds.
		cl := http.Client{Timeout: 10 * time.Second}
		resp, err := cl.Get(os.Getenv(probeNATS))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			fmt.Fprintf(os.Stderr, "%s: %s\n", resp.Status, b)
			return 1
		}
		return 0
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var opts []nats.Option
	if op == "state-ordered" {
		opts = append(opts, nats.DontRandomize())
	}
	c, err := campaign.Connect(ctx, os.Getenv(probeNATS), 0, opts...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer c.Close()
	if op == "traces" {
		tr, err := campaign.LoadTraces(ctx, c, os.Getenv(probeCampign))
		if err == nil {
			err = json.NewEncoder(os.Stdout).Encode(tr)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	}
	if err := runProbe(ctx, c, op); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

func runProbe(ctx context.Context, c *campaign.Conn, op string) error {
	s := snapshot{Answers: map[string]campaign.Result{}, Marks: map[string]bool{}, Replicas: map[string]int{}, Leaders: map[string]string{}}
	lister := c.JS.ListStreams(ctx)
	for info := range lister.Info() {
		s.Replicas[info.Config.Name] = info.Config.Replicas
		if info.Cluster != nil {
			s.Leaders[info.Config.Name] = info.Cluster.Leader
		}
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
	if cons, err := c.JS.Consumer(ctx, "KALAH_UNITS", "workers"); err == nil {
		if info, err := cons.Info(ctx); err == nil && info.NumAckPending > 0 {
			if st, err := c.JS.Stream(ctx, "KALAH_UNITS"); err != nil {
				return err
			} else if m, err := st.GetMsg(ctx, info.Delivered.Stream); err == nil {
				var u campaign.Unit
				if json.Unmarshal(m.Data, &u) == nil {
					s.Held = u.Key
				}
			}
		}
	}
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
