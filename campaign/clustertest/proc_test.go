package clustertest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// proc is one program running in a host's namespace, its standard error
// (and output, unless out is given) in its log.
type proc struct {
	name string
	log  string
	cmd  *exec.Cmd
	done chan struct{}
	err  error
}

// start runs bin with args in namespace ns. Its environment has HOME and
// the XDG directories under dir, so it shares no default directory with
// the others; stdout, when not "", is the file its standard output goes
// to.
func start(t *testing.T, name, ns, dir, stdout string, bin string, args ...string) *proc {
	t.Helper()
	return startEnv(t, nil, name, ns, dir, stdout, bin, args...)
}

// startEnv is start with env added to the program's environment.
func startEnv(t *testing.T, env []string, name, ns, dir, stdout string, bin string, args ...string) *proc {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := &proc{name: name, log: filepath.Join(dir, name+".log"), done: make(chan struct{})}
	lf, err := os.OpenFile(p.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer lf.Close()
	fmt.Fprintf(lf, "### %s %s in %s\n", bin, strings.Join(args, " "), ns)
	p.cmd = exec.Command("ip", append([]string{"netns", "exec", ns, bin}, args...)...)
	p.cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_DATA_HOME="+dir+"/data", "XDG_CACHE_HOME="+dir+"/cache", "XDG_CONFIG_HOME="+dir+"/config")
	p.cmd.Env = append(p.cmd.Env, env...)
	p.cmd.Dir = dir
	p.cmd.Stderr = lf
	p.cmd.Stdout = lf
	if stdout != "" {
		of, err := os.Create(stdout)
		if err != nil {
			t.Fatal(err)
		}
		defer of.Close()
		p.cmd.Stdout = of
	}
	// ip netns exec execs the program itself: the pid is the program's.
	// It dies with this process even when this one is killed.
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	registry.Lock()
	if registry.procs == nil {
		registry.procs = map[int]*proc{}
	}
	registry.procs[p.cmd.Process.Pid] = p
	registry.Unlock()
	go func() {
		p.err = p.cmd.Wait()
		registry.Lock()
		delete(registry.procs, p.cmd.Process.Pid)
		registry.Unlock()
		close(p.done)
	}()
	t.Cleanup(p.kill)
	return p
}

func (p *proc) signal(s syscall.Signal) { syscall.Kill(p.cmd.Process.Pid, s) }

// kill sends SIGKILL and waits for the process to be gone.
func (p *proc) kill() {
	select {
	case <-p.done:
		return
	default:
	}
	p.signal(syscall.SIGKILL)
	<-p.done
}

func (p *proc) running() bool {
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// wait waits for the program's end and returns its exit code.
func (p *proc) wait(t *testing.T, limit time.Duration) int {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(limit):
		t.Fatalf("%s still runs after %v; its log:\n%s", p.name, limit, p.tail(40))
	}
	return p.cmd.ProcessState.ExitCode()
}

// logText is the program's log so far.
func (p *proc) logText() string {
	b, _ := os.ReadFile(p.log)
	return string(b)
}

// tail is the last n lines of the log.
func (p *proc) tail(n int) string {
	text := p.logText()
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	out := strings.Join(lines, "\n")
	// A crash's cause is at the top of its stack dump, which a deep
	// search's frames push out of the tail: show it first.
	for _, mark := range []string{"panic: ", "fatal error: "} {
		if i := strings.Index(text, mark); i >= 0 && !strings.Contains(out, text[i:min(len(text), i+200)]) {
			head := strings.SplitN(text[i:], "\n", 25)
			return strings.Join(head[:min(len(head), 24)], "\n") + "\n        ...\n" + out
		}
	}
	return out
}

// lastLine is the log's last complete line.
func (p *proc) lastLine() string {
	b, _ := os.ReadFile(p.log)
	b = bytes.TrimRight(b, "\n")
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		b = b[i+1:]
	}
	return string(b)
}

// waitLog waits until the program's log holds s.
func (p *proc) waitLog(t *testing.T, s string, limit time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if strings.Contains(p.logText(), s) {
			return
		}
		if !p.running() {
			break
		}
	}
	t.Fatalf("%s did not say %q; its log:\n%s", p.name, s, p.tail(20))
}
