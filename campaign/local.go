package campaign

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Local is a campaign on one machine: an embedded NATS server on loopback
// and n workers in this process, each with its own connection, exactly as
// separate machines would run them.
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
// is 0) and n workers configured by cfg (named local-1, local-2, ...).
func StartLocal(dir string, port, n int, cfg WorkerConfig, ackWait time.Duration) (*Local, error) {
	srv, err := StartServer(dir, port)
	if err != nil {
		return nil, err
	}
	l := &Local{Server: srv}
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
