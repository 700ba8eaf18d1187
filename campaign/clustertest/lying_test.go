package clustertest

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// A worker on its own host that lies on every answer (a kalahfault
// build, told by KALAH_FAULT_LIE=1): the campaign's cross-checks catch
// it, quarantine it by name, and the record has solve's values.
func TestLyingWorker(t *testing.T) {
	c := newCluster(t, 3)
	help, _ := exec.Command(c.kalah, "campaign", "start", "--help").CombinedOutput()
	if !strings.Contains(string(help), "--verify-share") {
		t.Skip("this build's campaign start has no --verify-share: no cross-checks to catch a lying worker")
	}
	liar := buildFault(t)
	g := envGame(t, "no-empty-capture")
	c.workerOf(liar, []string{"KALAH_FAULT_LIE=1"}, "w1", g)
	c.worker("w2", g)
	c.worker("w3", g)
	co := c.coordinator("c1", g)
	rec := c.record(co, "c1", g, 2*time.Hour)
	want := solve(t, g)
	if rec.Value != want.Value || fmt.Sprint(rec.Moves) != fmt.Sprint(want.Moves) {
		t.Errorf("campaign value %d, moves %v; kalah solve %d, %v", rec.Value, rec.Moves, want.Value, want.Moves)
	}
	out, err := probe(c.net.hosts["c1"], c.urls, "state", g.name())
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Status struct {
			Quarantined []struct {
				Worker struct {
					Name string `json:"name"`
				} `json:"worker"`
				Reason string `json:"reason"`
			} `json:"quarantined"`
			ChecksDisagreed int64 `json:"checks_disagreed"`
		} `json:"status"`
	}
	if err := json.Unmarshal(out, &raw); err != nil {
		t.Fatal(err)
	}
	named := false
	for _, q := range raw.Status.Quarantined {
		named = named || q.Worker.Name == "w1"
		if q.Worker.Name != "w1" {
			t.Errorf("worker %s quarantined: %s", q.Worker.Name, q.Reason)
		}
	}
	if !named {
		t.Errorf("the lying worker w1 is not quarantined (%d checks disagreed)", raw.Status.ChecksDisagreed)
	}
	t.Logf("quarantined: %+v", raw.Status.Quarantined)
}
