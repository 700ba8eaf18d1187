package meminfo

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFields(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "meminfo")
	if err := os.WriteFile(p, []byte("MemTotal:       24563164 kB\nMemFree:         1000 kB\nMemAvailable:   20000000 kB\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	defer func(old, cg string) { meminfoPath, procCgroup = old, cg }(meminfoPath, procCgroup)
	meminfoPath = p
	procCgroup = filepath.Join(dir, "no-cgroup") // no group limit
	if v, ok := Total(); !ok || v != 24563164<<10 {
		t.Errorf("Total = %d, %v; want %d", v, ok, int64(24563164)<<10)
	}
	if v, ok := Available(); !ok || v != 20000000<<10 {
		t.Errorf("Available = %d, %v; want %d", v, ok, int64(20000000)<<10)
	}
	if err := os.WriteFile(p, []byte("MemTotal: x kB\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := Total(); ok {
		t.Error("Total of a malformed line: ok")
	}
	if _, ok := Available(); ok {
		t.Error("Available without its line: ok")
	}
	meminfoPath = filepath.Join(dir, "missing")
	if _, ok := Total(); ok {
		t.Error("Total of a missing file: ok")
	}
}

func TestThisMachine(t *testing.T) {
	if _, err := os.Stat("/proc/meminfo"); err != nil {
		t.Skip("no /proc/meminfo")
	}
	total, ok1 := Total()
	avail, ok2 := Available()
	if !ok1 || !ok2 || total <= 0 || avail <= 0 || avail > total {
		t.Errorf("Total %d (%v), Available %d (%v)", total, ok1, avail, ok2)
	}
}
