package clustertest

import (
	"testing"
	"time"
)

// A campaign under each rule through the three-node cluster and three
// workers on their own hosts gives kalah solve's values.
func TestCluster(t *testing.T) {
	c := newCluster(t, 3)
	for _, rule := range []string{"no-empty-capture", "empty-capture"} {
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
