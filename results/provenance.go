// Package results holds the toolkit's result records, each with the
// provenance that says how it was made, and the tables computed from them.
package results

import (
	"bufio"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
)

// Provenance says which build, on which machine, made a result.
type Provenance struct {
	Version     string `json:"version"`      // module version of the build ("(devel)" for a local build)
	VCSRevision string `json:"vcs_revision"` // commit the binary was built from, "+dirty" when modified; "" when built without VCS stamping
	Go          string `json:"go"`           // Go toolchain version
	CPU         string `json:"cpu"`          // CPU model name and logical core count
}

var (
	provOnce sync.Once
	prov     Provenance
)

// Current returns the provenance of the running binary. It reads the build
// information embedded by the Go toolchain (debug.ReadBuildInfo) and the CPU
// model from /proc/cpuinfo where there is one.
func Current() Provenance {
	provOnce.Do(func() {
		prov = Provenance{Version: "(unknown)", Go: runtime.Version(), CPU: cpuName()}
		if bi, ok := debug.ReadBuildInfo(); ok {
			prov.Version = bi.Main.Version
			dirty := false
			for _, s := range bi.Settings {
				switch s.Key {
				case "vcs.revision":
					prov.VCSRevision = s.Value
				case "vcs.modified":
					dirty = s.Value == "true"
				}
			}
			if dirty && prov.VCSRevision != "" {
				prov.VCSRevision += "+dirty"
			}
		}
	})
	return prov
}

func cpuName() string {
	name := runtime.GOARCH
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			k, v, ok := strings.Cut(sc.Text(), ":")
			if ok && strings.TrimSpace(k) == "model name" {
				name = strings.TrimSpace(v)
				break
			}
		}
	}
	return name + " x" + itoa(runtime.NumCPU())
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
