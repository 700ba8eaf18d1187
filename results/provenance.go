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
// information embedded by the Go toolchain (CurrentBuild) and the CPU model
// from /proc/cpuinfo where there is one.
func Current() Provenance {
	provOnce.Do(func() {
		b := CurrentBuild()
		prov = Provenance{Version: b.Version, VCSRevision: b.Revision, Go: b.Go, CPU: cpuName()}
		if b.Modified && prov.VCSRevision != "" {
			prov.VCSRevision += "+dirty"
		}
	})
	return prov
}

// Build is the running binary as the Go toolchain stamped it.
type Build struct {
	Version  string // module version: "v0.1.0" for one installed with go install ...@v0.1.0, "(devel)" or a pseudo-version (with VCS stamping) for a local build; "(unknown)" without build information
	Revision string // commit the binary was built from (vcs.revision); "" when built without VCS stamping
	Time     string // that commit's time (vcs.time, RFC 3339); "" when built without VCS stamping
	Modified bool   // the work tree had uncommitted changes (vcs.modified)
	Go       string // Go toolchain version
}

// CurrentBuild returns the build information of the running binary
// (debug.ReadBuildInfo).
func CurrentBuild() Build {
	b := Build{Version: "(unknown)", Go: runtime.Version()}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	b.Version = bi.Main.Version
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.time":
			b.Time = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	return b
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
