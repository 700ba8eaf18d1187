package campaign

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Local is a campaign on one machine: an embedded NATS server on loopback
// and n workers in this process, each with its own connection, as
// separate machines would run them, but sharing one search (pool): one
// table, and every thread working on the units that run, so that a core
// whose worker has no unit helps another's.
type Local struct {
	Server  *Server
	Workers []*Worker
	conns   []*Conn
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	errs    []error
	mu      sync.Mutex
}

// StartLocal starts the server (streams under dir, a free port when port
// is 0) and n workers configured by cfg (named local-1, local-2, ...),
// with cfg.Threads threads each (at least one) in the search they share;
// cfg.TableSize is the size of their one table.
func StartLocal(dir string, port, n int, cfg WorkerConfig, ackWait time.Duration) (*Local, error) {
	srv, err := StartServer(dir, port)
	if err != nil {
		return nil, err
	}
	l := &Local{Server: srv}
	cfg.pool = newPool(cfg, n*max(cfg.Threads, 1))
	cfg.pool.local = true
	ctx, cancel := context.WithCancel(context.Background())
	l.cancel = cancel
	for i := 0; i < n; i++ {
		c, err := Connect(ctx, srv.URL(), ackWait)
		if err != nil {
			l.Stop()
			return nil, err
		}
		wc := cfg
		wc.Name = fmt.Sprintf("local-%d", i+1)
		w := NewWorker(c, wc)
		l.conns, l.Workers = append(l.conns, c), append(l.Workers, w)
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			if err := w.Run(ctx); err != nil {
				l.mu.Lock()
				l.errs = append(l.errs, err)
				l.mu.Unlock()
			}
		}()
	}
	return l, nil
}

// Stop ends the workers and the server.
func (l *Local) Stop() {
	l.cancel()
	l.wg.Wait()
	for _, c := range l.conns {
		c.Close()
	}
	l.Server.Shutdown()
}

// DefaultDataDir is where a local campaign's server keeps its streams:
// $XDG_DATA_HOME/kalah/campaigns, else ~/.local/share/kalah/campaigns.
func DefaultDataDir() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "kalah", "campaigns"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no default data directory (%v); give one with --data", err)
	}
	return filepath.Join(home, ".local", "share", "kalah", "campaigns"), nil
}

// urlFile names the file in which a local campaign's server leaves its
// URL, so that 'kalah campaign status' finds it while it runs.
func urlFile(dir string) string { return filepath.Join(dir, "server-url") }

// WriteURL records a running local server's URL in its data directory.
func WriteURL(dir, url string) error { return os.WriteFile(urlFile(dir), []byte(url+"\n"), 0o644) }

// RemoveURL removes it when the server stops.
func RemoveURL(dir string) { os.Remove(urlFile(dir)) }

// OpenData connects to the campaigns of a data directory: to the server
// of a local campaign running on it when there is one, else to a server
// started on it here (stop it with the returned function).
func OpenData(ctx context.Context, dir string) (*Conn, func(), error) {
	if b, err := os.ReadFile(urlFile(dir)); err == nil {
		if c, err := Connect(ctx, strings.TrimSpace(string(b)), 0); err == nil {
			return c, c.Close, nil
		}
	}
	if _, err := os.Stat(dir); err != nil {
		return nil, nil, fmt.Errorf("no campaign data in %s: %w", dir, err)
	}
	srv, err := StartServer(dir, 0)
	if err != nil {
		return nil, nil, err
	}
	c, err := Connect(ctx, srv.URL(), 0)
	if err != nil {
		srv.Shutdown()
		return nil, nil, err
	}
	return c, func() { c.Close(); srv.Shutdown() }, nil
}
