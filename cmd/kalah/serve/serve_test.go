package servecmd

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
)

// serveOnce runs the command on addr, fetches path once it listens, stops
// it and returns the answer and standard error.
func serveOnce(t *testing.T, addr, path string) (body, stderr string) {
	t.Helper()
	io_, _, errOut := cmdutil.Test()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	opts := &Options{IO: io_, Addr: addr, Cache: t.TempDir(), NoEGDB: true, TTMem: "16MiB", Threads: 1, MaxQueue: 2}
	opts.Ready = func(url string) {
		go func() {
			defer cancel()
			r, err := http.Get(url + strings.TrimPrefix(path, "/"))
			if err != nil {
				t.Error(err)
				return
			}
			defer r.Body.Close()
			b, _ := io.ReadAll(r.Body)
			body = string(b)
		}()
	}
	if err := run(ctx, opts); err != nil {
		t.Fatal(err)
	}
	return body, errOut.String()
}

func TestServe(t *testing.T) {
	body, stderr := serveOnce(t, "127.0.0.1:0", "/api/solve?pits=2&seeds=2")
	if !strings.Contains(body, `"value":`) || !strings.Contains(stderr, "the explorer is at http://127.0.0.1:") || strings.Contains(stderr, "warning") {
		t.Errorf("body %s\nstderr %s", body, stderr)
	}
	body, stderr = serveOnce(t, "0.0.0.0:0", "/")
	if !strings.Contains(body, "<svg id=\"board\"") || !strings.Contains(stderr, "warning: listening on") {
		t.Errorf("body %.200s\nstderr %s", body, stderr)
	}
}

// TestServeWarm: the server opens the first game's session at start and
// says so; --no-warm does not.
func TestServeWarm(t *testing.T) {
	for _, no := range []bool{false, true} {
		io_, _, errOut := cmdutil.Test()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		opts := &Options{IO: io_, Addr: "127.0.0.1:0", Cache: t.TempDir(), NoEGDB: true, TTMem: "16MiB", Threads: 1, NoWarm: no}
		opts.Warmed = cancel
		if no {
			opts.Ready = func(string) { cancel() }
		}
		if err := run(ctx, opts); err != nil {
			t.Fatal(err)
		}
		cancel()
		const want = "kalah serve: Kalah(6,4) no-empty-capture is ready (16 MiB table touched, no endgame database) in "
		if got := strings.Contains(errOut.String(), want); got == no {
			t.Errorf("--no-warm=%v: standard error %q", no, errOut.String())
		}
	}
}

func TestServeBadInput(t *testing.T) {
	io_, _, _ := cmdutil.Test()
	for _, o := range []*Options{{IO: io_, Addr: "nonsense"}, {IO: io_, Addr: "127.0.0.1:0", Threads: -1}, {IO: io_, Addr: "127.0.0.1:0", TTMem: "lots"}} {
		if err := run(context.Background(), o); cmdutil.ExitCode(err) != 2 {
			t.Errorf("%+v: %v, want bad input", o, err)
		}
	}
}
