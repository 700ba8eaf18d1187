package campaign

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// The JetStream objects a campaign uses, created on first use by any
// coordinator or worker (CreateOrUpdate is idempotent):
//
//	stream KALAH_UNITS    subjects kalah.unit.<campaign>, work-queue retention:
//	                      each unit goes to one worker and leaves the
//	                      stream when acked; consumer "workers" (durable,
//	                      explicit acks, AckWait, unlimited redelivery)
//	stream KALAH_RESULTS  subjects kalah.result.<campaign>, work-queue
//	                      retention; consumer "coord-<campaign>": results
//	                      wait there while the coordinator is down
//	bucket kalah_results  every accepted answer, by unit key (unit.go):
//	                      the shared table of the top of the tree
//	bucket kalah_campaigns <campaign>.params, <campaign>.unit.<key> (issued
//	                      marks), <campaign>.status, <campaign>.record
//	bucket kalah_table    <campaign>.<own>.<opp>: proven entries of big
//	                      subtrees, shared by the workers (shared.go)
//	subject kalah.cancel.<campaign>  (core NATS) unit keys no longer needed
//	subject kalah.alive.<campaign>   (core NATS) a worker's identity with
//	                      each heartbeat on one of the campaign's units
const (
	unitStream    = "KALAH_UNITS"
	resultStream  = "KALAH_RESULTS"
	resultsBucket = "kalah_results"
	stateBucket   = "kalah_campaigns"
	workersName   = "workers"
)

func unitSubject(name string) string   { return "kalah.unit." + name }
func resultSubject(name string) string { return "kalah.result." + name }
func cancelSubject(name string) string { return "kalah.cancel." + name }
func aliveSubject(name string) string  { return "kalah.alive." + name }

// DefaultAckWait is how long a worker may hold a unit without a heartbeat
// before JetStream gives it to another worker.
const DefaultAckWait = 30 * time.Second

// ConnectTimeout bounds how long Connect waits for an unreachable server.
const ConnectTimeout = 4 * time.Second

// ElectionWait bounds how long Connect waits for a reachable cluster's
// JetStream to answer.
const ElectionWait = 30 * time.Second

var nameRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// CheckName checks a campaign name: letters, digits, '-' and '_'.
func CheckName(name string) error {
	if !nameRE.MatchString(name) {
		return fmt.Errorf("campaign name %q: use 1-64 letters, digits, '-' or '_'", name)
	}
	return nil
}

// ErrUnreachable wraps every failure to reach a NATS server with JetStream.
var ErrUnreachable = errors.New("NATS server unreachable")

// Conn is a connection to a NATS server with JetStream, with the
// campaign's streams and buckets.
type Conn struct {
	NC      *nats.Conn
	JS      jetstream.JetStream
	Results jetstream.KeyValue
	State   jetstream.KeyValue
	Table   jetstream.KeyValue // the shared table (shared.go)
	AckWait time.Duration
}

// Connect connects to the server at url, checks that JetStream answers and
// creates the streams and buckets if needed, all within ConnectTimeout; an
// unreachable server or one without JetStream is an error wrapping
// ErrUnreachable. ackWait 0 means DefaultAckWait. opts are extra client
// options (credentials, TLS).
func Connect(ctx context.Context, url string, ackWait time.Duration, opts ...nats.Option) (*Conn, error) {
	if ackWait <= 0 {
		ackWait = DefaultAckWait
	}
	o := append([]nats.Option{nats.Timeout(ConnectTimeout / 2), nats.Name("kalah"), nats.MaxReconnects(-1)}, opts...)
	nc, err := nats.Connect(url, o...)
	if err != nil {
		return nil, fmt.Errorf("%w at %s: %v", ErrUnreachable, url, err)
	}
	// A server that answers but whose cluster elects a stream's leader
	// again (a node just lost) times out or has no responder for a few
	// seconds: tried again for up to ElectionWait.
	var c *Conn
	for t0 := time.Now(); ; {
		sctx, cancel := context.WithTimeout(ctx, ConnectTimeout)
		c, err = setup(sctx, nc, ackWait)
		cancel()
		if err == nil || !unavailable(err) || ctx.Err() != nil || time.Since(t0) > ElectionWait {
			break
		}
		time.Sleep(time.Second)
	}
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("%w at %s: JetStream: %v", ErrUnreachable, url, err)
	}
	return c, nil
}

func setup(ctx context.Context, nc *nats.Conn, ackWait time.Duration) (*Conn, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	if _, err := js.AccountInfo(ctx); err != nil {
		return nil, err
	}
	c := &Conn{NC: nc, JS: js, AckWait: ackWait}
	rep := Replicas(nc)
	if err := ensureStream(ctx, js, jetstream.StreamConfig{
		Name: unitStream, Subjects: []string{"kalah.unit.>"}, Retention: jetstream.WorkQueuePolicy,
		Storage: jetstream.FileStorage, Duplicates: time.Hour, Replicas: rep,
	}); err != nil {
		return nil, err
	}
	if err := ensureStream(ctx, js, jetstream.StreamConfig{
		Name: resultStream, Subjects: []string{"kalah.result.>"}, Retention: jetstream.WorkQueuePolicy,
		Storage: jetstream.FileStorage, Replicas: rep,
	}); err != nil {
		return nil, err
	}
	if c.Results, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: resultsBucket, Storage: jetstream.FileStorage,
		Replicas: rep, Description: "kalah: answers of null-window tests by unit key"}); err != nil {
		return nil, err
	}
	if c.State, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: stateBucket, Storage: jetstream.FileStorage,
		Replicas: rep, Description: "kalah: campaigns, issued units, status and records"}); err != nil {
		return nil, err
	}
	if c.Table, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: tableBucket, Storage: jetstream.FileStorage,
		Replicas: rep, Description: "kalah: proven entries of big subtrees shared by a campaign's workers (shared.go)"}); err != nil {
		return nil, err
	}
	return c, nil
}

// Replicas is how many copies the streams and buckets keep: 3 when the
// server is one of a cluster of three servers or more (the servers the
// connection knows of, given or discovered), so that losing a node loses
// nothing; 1 on a single server.
func Replicas(nc *nats.Conn) int {
	if nc.ConnectedClusterName() == "" || len(nc.Servers()) < 3 {
		return 1
	}
	return 3
}

// ensureStream creates the stream, or updates it when it exists with
// another configuration. Every connection runs it; an update of a stream
// whose consumers are being created by another connection raced inside
// nats-server (its file store's UpdateConfig against ConsumerStore, seen by
// the race detector), and a create with the same configuration is a no-op.
func ensureStream(ctx context.Context, js jetstream.JetStream, cfg jetstream.StreamConfig) error {
	_, err := js.CreateStream(ctx, cfg)
	if errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
		_, err = js.UpdateStream(ctx, cfg)
	}
	return err
}

// workerConsumer is the durable consumer all workers share.
func (c *Conn) workerConsumer(ctx context.Context) (jetstream.Consumer, error) {
	return c.JS.CreateOrUpdateConsumer(ctx, unitStream, jetstream.ConsumerConfig{
		Durable: workersName, AckPolicy: jetstream.AckExplicitPolicy, AckWait: c.AckWait,
		MaxDeliver: -1, MaxAckPending: 1000,
	})
}

// Close drains nothing and closes the connection.
func (c *Conn) Close() { c.NC.Close() }

// Server is an embedded NATS server with JetStream, listening on loopback.
type Server struct {
	ns *server.Server
}

// StartServer runs a NATS server with JetStream in this process, storing
// its streams under dir and listening on 127.0.0.1:port (0: a free port).
func StartServer(dir string, port int) (*Server, error) {
	if port == 0 {
		port = server.RANDOM_PORT
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	opts := &server.Options{
		ServerName: "kalah-local", Host: "127.0.0.1", Port: port,
		JetStream: true, StoreDir: filepath.Clean(dir), NoSigs: true, NoLog: true,
	}
	ns, err := server.NewServer(opts)
	if err != nil {
		return nil, err
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		ns.Shutdown()
		return nil, fmt.Errorf("embedded NATS server did not start")
	}
	return &Server{ns: ns}, nil
}

// URL is the server's client URL, nats://127.0.0.1:port.
func (s *Server) URL() string { return s.ns.ClientURL() }

// Port is the port the server listens on.
func (s *Server) Port() int {
	u, err := url.Parse(s.URL())
	if err != nil {
		return 0
	}
	_, p, _ := net.SplitHostPort(u.Host)
	var n int
	fmt.Sscan(p, &n)
	return n
}

// Shutdown stops the server; its streams stay on disk.
func (s *Server) Shutdown() {
	s.ns.Shutdown()
	s.ns.WaitForShutdown()
}
