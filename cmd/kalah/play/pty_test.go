//go:build linux

package playcmd

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
)

// openPTY opens a pseudo-terminal pair: the controlling side, which the
// test types into and reads from, and the terminal the command uses.
func openPTY(t *testing.T) (ctl, tty *os.File) {
	t.Helper()
	ctl, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, ctl.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Skipf("unlocking the pseudo-terminal: %v", e)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, ctl.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Skipf("naming the pseudo-terminal: %v", e)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("opening the pseudo-terminal: %v", err)
	}
	return ctl, tty
}

// screen collects what the command writes to the terminal.
type screen struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (s *screen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// waitFor waits until the screen, from offset from on, holds want, and
// returns the offset after it. It fails the test after a minute.
func (s *screen) waitFor(t *testing.T, from int, want string) int {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		text := s.String()
		if i := strings.Index(text[from:], want); i >= 0 {
			return from + i + len(want)
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %q after %q", want, text[from:])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestPlayTerminal plays through a pseudo-terminal: the prompt lists the
// legal moves, the board is in colour with the last move marked, the up
// arrow recalls the last command, and Ctrl-D ends the game.
func TestPlayTerminal(t *testing.T) {
	ctl, tty := openPTY(t)
	defer ctl.Close()
	defer tty.Close()
	t.Setenv("NO_COLOR", "")
	var scr screen
	go func() {
		b := make([]byte, 4096)
		for {
			n, err := ctl.Read(b)
			scr.mu.Lock()
			scr.buf.Write(b[:n])
			scr.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	io, _, _ := cmdutil.Test()
	io.In, io.Out = tty, tty
	cmd := NewCmdPlay(io)
	cmd.SetArgs([]string{"--cache", t.TempDir(), "--no-egdb", "--threads", "1", "--table-size", "16MiB", "--pits", "4", "--seeds", "3", "--mode", "explore"})
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	done := make(chan error, 1)
	go func() { done <- cmd.Execute() }()

	at := scr.waitFor(t, 0, "south [a b c d]> ")
	ctl.Write([]byte("b\r"))
	at = scr.waitFor(t, at, "south played b, extra turn")
	// b's count (0) in the last move's colour, then the prompt of the
	// extra turn.
	at = scr.waitFor(t, at, styleLast+"0"+styleReset)
	at = scr.waitFor(t, at, "south [a c d]> ")
	ctl.Write([]byte("values\r"))
	at = scr.waitFor(t, at, "perfect game: ")
	at = scr.waitFor(t, at, "south [a c d]> ")
	ctl.Write([]byte("\x1b[A\r")) // up arrow: values again
	at = scr.waitFor(t, at, "values")
	at = scr.waitFor(t, at, "perfect game: ")
	scr.waitFor(t, at, "south [a c d]> ")
	ctl.Write([]byte{4}) // Ctrl-D
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("Ctrl-D did not end the game")
	}
}
