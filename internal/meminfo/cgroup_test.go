package meminfo

import (
	"os"
	"path/filepath"
	"testing"
)

// write creates the files of a fake /proc/self/cgroup and cgroup mount.
func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func fake(t *testing.T, files map[string]string) {
	t.Helper()
	dir := t.TempDir()
	write(t, dir, files)
	oldProc, oldRoot, oldMem := procCgroup, cgroupRoot, meminfoPath
	t.Cleanup(func() { procCgroup, cgroupRoot, meminfoPath = oldProc, oldRoot, oldMem })
	procCgroup = filepath.Join(dir, "proc-cgroup")
	cgroupRoot = filepath.Join(dir, "cg")
	meminfoPath = filepath.Join(dir, "meminfo")
}

const gib = int64(1) << 30

func TestCgroupV2(t *testing.T) {
	fake(t, map[string]string{
		"meminfo":                           "MemTotal: 25165824 kB\nMemAvailable: 20971520 kB\n", // 24 and 20 GiB
		"proc-cgroup":                       "0::/user/job\n",
		"cg/memory.max":                     "max\n",
		"cg/user/memory.max":                "8589934592\n", // 8 GiB, the tighter of the two
		"cg/user/memory.current":            "4294967296\n", // 4 GiB charged
		"cg/user/memory.stat":               "anon 3221225472\nfile 1073741824\n",
		"cg/user/job/memory.max":            "12884901888\n", // 12 GiB
		"cg/user/job/memory.current":        "4294967296\n",
		"cg/user/job/memory.stat":           "anon 3221225472\nfile 1073741824\n",
		"cg/user/job/memory.unrelated_file": "0\n",
	})
	// user: 8 - 4 + 1 = 5 GiB; job: 12 - 4 + 1 = 9 GiB.
	if got, ok := cgroupAvailable(); !ok || got != 5*gib {
		t.Errorf("cgroupAvailable = %d, %v; want %d", got, ok, 5*gib)
	}
	if got, ok := Available(); !ok || got != 5*gib {
		t.Errorf("Available = %d, %v; want %d (the group's, below MemAvailable)", got, ok, 5*gib)
	}
	if got, ok := Total(); !ok || got != 8*gib {
		t.Errorf("Total = %d, %v; want the tightest limit, %d", got, ok, 8*gib)
	}
}

func TestCgroupV1(t *testing.T) {
	fake(t, map[string]string{
		"meminfo":                                  "MemTotal: 25165824 kB\nMemAvailable: 2097152 kB\n", // 2 GiB available
		"proc-cgroup":                              "9:name=systemd:/\n4:memory:/box/7902\n3:cpuset:/\n0::/\n",
		"cg/memory/memory.limit_in_bytes":          "9223372036854771712\n", // no limit at the root
		"cg/memory/memory.usage_in_bytes":          "2417872896\n",
		"cg/memory/box/7902/memory.limit_in_bytes": "6442450944\n", // 6 GiB
		"cg/memory/box/7902/memory.usage_in_bytes": "2147483648\n", // 2 GiB
		"cg/memory/box/7902/memory.stat":           "cache 536870912\ntotal_cache 536870912\nrss 1610612736\n",
	})
	// 6 - 2 + 0.5 = 4.5 GiB for the group.
	if got, ok := cgroupAvailable(); !ok || got != 4*gib+gib/2 {
		t.Errorf("cgroupAvailable = %d, %v; want %d", got, ok, 4*gib+gib/2)
	}
	// MemAvailable (2 GiB) is the smaller here.
	if got, ok := Available(); !ok || got != 2*gib {
		t.Errorf("Available = %d, %v; want %d", got, ok, 2*gib)
	}
	if got, ok := Total(); !ok || got != 6*gib {
		t.Errorf("Total = %d, %v; want the group's limit, %d", got, ok, 6*gib)
	}
}

// Without a limit the group says nothing; a group charged past its limit
// (usage above the limit happens briefly) leaves nothing, not a negative
// amount.
func TestCgroupNoneAndOver(t *testing.T) {
	for _, c := range []struct {
		name    string
		files   map[string]string
		want    int64
		limited bool
	}{
		{"no limit", map[string]string{
			"proc-cgroup":                     "4:memory:/gone\n0::/\n",
			"cg/memory/memory.limit_in_bytes": "9223372036854771712\n",
			"cg/memory/memory.usage_in_bytes": "1\n",
			"cg/memory.max":                   "max\n",
			"cg/memory.current":               "1\n",
		}, gib, false},
		{"over the limit", map[string]string{
			"proc-cgroup":       "0::/\n",
			"cg/memory.max":     "1000\n",
			"cg/memory.current": "5000\n",
		}, 0, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.files["meminfo"] = "MemAvailable: 1048576 kB\n"
			fake(t, c.files)
			if got, ok := cgroupAvailable(); ok != c.limited || ok && got != 0 {
				t.Errorf("cgroupAvailable = %d, %v", got, ok)
			}
			if got, ok := Available(); !ok || got != c.want {
				t.Errorf("Available = %d, %v; want %d", got, ok, c.want)
			}
		})
	}
}
