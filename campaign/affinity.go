package campaign

import (
	"time"

	"github.com/kalah-solver/kalah/engine"
)

// Affinity. The front end tests a frontier board once per MTD(f) step of
// the root move above it, each time with another gamma. A worker's table
// still holds the tree of the last test it ran, so the next test of the
// same board costs it a fraction of what it costs a worker that never saw
// the board (a local campaign's workers share one table and never pay
// it). With CoordinatorConfig.Affinity, a unit names the worker that
// answered its board's last test (Unit.Prefer) for a while: half that
// test's seconds, at least affinityMin, at most a third of the ack wait.
// Until then any other worker hands it back (handBackDelay, cut to the
// preference's end); after it, any worker takes it. A worker not heard
// from within heardRecently, or quarantined, is not preferred. The
// preference changes which worker solves a unit, never its answer.

const affinityMin = time.Second

// lastTest is the worker that answered a board's last test, and its
// seconds.
type lastTest struct {
	id      string
	seconds float64
}

// preferred is the worker a unit of board b goes to first and the end of
// the preference (Unix milliseconds), or "", 0; co.mu held.
func (co *Coordinator) preferred(b engine.Board) (string, int64) {
	if !co.cfg.Affinity {
		return "", 0
	}
	lt, ok := co.lastTest[b.Key()]
	if !ok {
		return "", 0
	}
	if _, q := co.quarantined[lt.id]; q || time.Since(co.heard[lt.id]) >= heardRecently {
		return "", 0
	}
	d := time.Duration(lt.seconds / 2 * float64(time.Second))
	d = min(max(d, affinityMin), co.c.AckWait/3)
	return lt.id, time.Now().Add(d).UnixMilli()
}

// handsBack reports that u is preferred for another worker than id and
// the preference has not ended, with the delay before its next delivery
// (at most the time left of the preference).
func handsBack(u Unit, id string, now time.Time, delay time.Duration) (time.Duration, bool) {
	if u.Prefer == "" || u.Prefer == id {
		return 0, false
	}
	left := time.UnixMilli(u.PreferUntil).Sub(now)
	if left <= 0 {
		return 0, false
	}
	return min(delay, left), true
}
