package servecmd

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/kalah-solver/kalah"
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/engine"
)

// serveOnce runs the command on addr, fetches path once it listens, stops
// it and returns the answer and standard error.
func serveOnce(t *testing.T, addr, path string) (body, stderr string) {
	t.Helper()
	io_, _, errOut := cmdutil.Test()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	opts := &Options{IO: io_, Addr: addr, Cache: t.TempDir(), NoEGDB: true, TableSize: "16MiB", Threads: 1, MaxQueue: 2}
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
		opts := &Options{IO: io_, Addr: "127.0.0.1:0", Cache: t.TempDir(), NoEGDB: true, TableSize: "16MiB", Threads: 1, NoWarm: no}
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
	for _, o := range []*Options{{IO: io_, Addr: "nonsense"}, {IO: io_, Addr: "127.0.0.1:0", Threads: -1}, {IO: io_, Addr: "127.0.0.1:0", TableSize: "lots"}} {
		if err := run(context.Background(), o); cmdutil.ExitCode(err) != 2 {
			t.Errorf("%+v: %v, want bad input", o, err)
		}
	}
}

// TestServeEGDBLog: the server's database build is logged: a line when it
// starts, one at every tenth, one when it ends.
func TestServeEGDBLog(t *testing.T) {
	io_, _, errOut := cmdutil.Test()
	log := egdbLogger(io_)
	r := engine.Variant{Pits: 6, Rule: engine.NoEmptyCapture}
	ev := kalah.EGDBBuild{Dir: "/data/kalah/egdb/kalah-m6-no-empty-capture", Variant: r, MaxSeeds: 20, Positions: 1000, Bytes: 500}
	log(ev)
	for done := int64(50); done <= 1000; done += 50 {
		ev.Done = done
		log(ev)
	}
	ev.Finished = true
	log(ev)
	lines := strings.Split(strings.TrimSpace(errOut.String()), "\n")
	if len(lines) != 11 || !strings.Contains(lines[0], "building the endgame database of Kalah(6) no-empty-capture up to 20 seeds in /data/kalah/egdb/kalah-m6-no-empty-capture (1,000 positions") ||
		!strings.Contains(lines[1], "endgame database 10% (100 of 1,000 positions") || !strings.Contains(lines[9], "endgame database 90%") ||
		!strings.Contains(lines[10], "the endgame database of Kalah(6) no-empty-capture up to 20 seeds is built") {
		t.Errorf("log:\n%s", errOut.String())
	}
}
