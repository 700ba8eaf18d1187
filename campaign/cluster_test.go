package campaign

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/kalah-solver/kalah/engine"
	"github.com/nats-io/nats-server/v2/server"
)

// startCluster runs three embedded JetStream servers in one cluster on
// loopback and returns them; the client URL lists all three.
func startCluster(t *testing.T) ([]*Server, string) {
	t.Helper()
	// Free loopback ports for the routes, known before any node starts.
	var routes []*url.URL
	var ports []int
	for i := 0; i < 3; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
		routes = append(routes, &url.URL{Scheme: "nats", Host: l.Addr().String()})
		l.Close()
	}
	var srvs []*Server
	for i := 0; i < 3; i++ {
		o := &server.Options{ServerName: fmt.Sprintf("n%d", i+1), Host: "127.0.0.1", Port: server.RANDOM_PORT,
			JetStream: true, StoreDir: t.TempDir(), NoSigs: true, NoLog: true,
			Cluster: server.ClusterOpts{Name: "kalah-test", Host: "127.0.0.1", Port: ports[i]}, Routes: routes}
		ns, err := server.NewServer(o)
		if err != nil {
			t.Fatal(err)
		}
		go ns.Start()
		s := &Server{ns: ns}
		t.Cleanup(s.Shutdown)
		srvs = append(srvs, s)
	}
	var urls []string
	for _, s := range srvs {
		if !s.ns.ReadyForConnections(30 * time.Second) {
			t.Fatal("cluster node did not start")
		}
		urls = append(urls, s.URL())
	}
	return srvs, strings.Join(urls, ",")
}

// On a three-node cluster the streams and buckets keep three replicas,
// and a campaign runs through it.
func TestCampaignOnCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("a three-node cluster takes seconds to elect its JetStream leaders")
	}
	srvs, urls := startCluster(t)
	ctx := context.Background()
	var c *Conn
	var err error
	// The JetStream meta leader is elected once the routes are up.
	for i := 0; i < 100; i++ {
		if c, err = Connect(ctx, urls, 5*time.Second); err == nil {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	if r := Replicas(c.NC); r != 3 {
		t.Errorf("replicas %d on a cluster of 3 (servers %v)", r, c.NC.Servers())
	}
	for _, name := range []string{unitStream, resultStream, "KV_" + tableBucket} {
		s, err := c.JS.Stream(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		if info, err := s.Info(ctx); err != nil || info.Config.Replicas != 3 {
			t.Errorf("%s: %v", name, err)
		}
	}
	if st, err := c.Results.Status(ctx); err != nil || st.Bucket() != resultsBucket {
		t.Errorf("results bucket: %v", err)
	}
	e := &env{t: t, c: c, urls: urls}
	_, stop := e.workers(2, nil)
	defer stop()
	p := params(t, "cluster", engine.Variant{Pits: 4, Rule: engine.NoEmptyCapture}, 3, "", engine.South)
	rec, err := e.coordinate(ctx, p, CoordinatorConfig{})
	if err != nil {
		t.Fatal(err)
	}
	check(t, p, rec)
	// One node down: the record and the answers are still there.
	stop()
	srvs[0].Shutdown()
	var got error
	for i := 0; i < 150; i++ {
		got = func() error {
			again, err := Connect(ctx, srvs[1].URL()+","+srvs[2].URL(), 0)
			if err != nil {
				return err
			}
			defer again.Close()
			r2, err := LoadRecord(ctx, again, p.Name)
			if err != nil {
				return err
			}
			if r2.Value != rec.Value {
				return fmt.Errorf("record value %d, was %d", r2.Value, rec.Value)
			}
			kl, err := again.Results.ListKeys(ctx)
			if err != nil {
				return err
			}
			n := 0
			for range kl.Keys() {
				n++
			}
			if n == 0 {
				return fmt.Errorf("no answer left in the results bucket")
			}
			return nil
		}()
		if got == nil {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if got != nil {
		t.Errorf("with one node of three down: %v", got)
	}
}
