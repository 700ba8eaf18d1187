package campaign

import (
	"fmt"
	"hash/fnv"
	"os"
)

// Identity names the worker process that computed an answer: its name,
// its host, its process id and its build (BuildID). Every answer carries
// it (Result), so that an answer found wrong by a check (check.go) names
// the process that gave it, and the coordinator can refuse that process's
// later answers.
type Identity struct {
	Name  string `json:"name"`
	Host  string `json:"host"`
	PID   int    `json:"pid"`
	Build string `json:"build"`
}

// ID is the identity's key, name@host:pid: the build is not part of it (a
// campaign has one build, signature.go).
func (i Identity) ID() string { return fmt.Sprintf("%s@%s:%d", i.Name, i.Host, i.PID) }

// Identity is the identity of the worker that computed the result.
func (r Result) Identity() Identity {
	return Identity{Name: r.Worker, Host: r.Host, PID: r.PID, Build: r.Build}
}

// processIdentity is this process's identity for a worker named name.
func processIdentity(name, build string) Identity {
	h, err := os.Hostname()
	if err != nil || h == "" {
		h = "unknown-host"
	}
	return Identity{Name: name, Host: h, PID: os.Getpid(), Build: build}
}

// A lying worker is a fault injected by the tests, and by binaries built
// with the kalahfault tag (fault.go), never by a release binary: for a
// share of its units, chosen by a hash of the unit's key and a seed, it
// publishes a well-formed answer that is wrong, the opposite outcome of
// the test it was asked (a unit that fails high is said to fail low just
// under the window, and the other way round).

// lies reports whether a worker lying on share of its units (0..1) with
// seed lies on the unit key: the same unit, delivered again, gets the same
// lie.
func lies(share float64, seed uint64, key string) bool {
	if share <= 0 {
		return false
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%s", seed, key)
	x := h.Sum64() // mixed (splitmix64's finalizer): FNV's high bits vary little between similar keys
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	x ^= x >> 31
	return float64(x>>11)/(1<<53) < share
}

// wrongAnswer is a well-formed wrong answer to the test "value >= gamma"
// whose true fail-soft answer is v.
func wrongAnswer(v, gamma int) int {
	if v >= gamma {
		return gamma - 1
	}
	return gamma
}

// applyFault, set only in kalahfault builds (fault.go), turns a worker's
// configuration into a lying one when the environment asks for it.
var applyFault func(*WorkerConfig)
