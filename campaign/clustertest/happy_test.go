package clustertest

import (
	"os"
	"testing"
	"time"
)

// A campaign under each rule (or under KALAH_CLUSTER_RULE alone) through
// the three-node cluster and three workers on their own hosts gives kalah
// solve's values.
func TestCluster(t *testing.T) {
	rules := []string{"no-empty-capture", "empty-capture"}
	if r := os.Getenv("KALAH_CLUSTER_RULE"); r != "" {
		rules = []string{r}
	}
	c := newCluster(t, 3)
	for _, rule := range rules {
		g := envGame(t, rule)
		for _, h := range []string{"w1", "w2", "w3"} {
			if c.workers[h] == nil {
				c.worker(h, g)
			}
		}
		co := c.coordinator("c1", g)
		rec := c.record(co, "c1", g, 2*time.Hour)
		c.check(g, rec, true)
	}
}
