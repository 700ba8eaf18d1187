package campaign

import (
	"fmt"
	"time"
)

// The rate and the ETA of 'kalah campaign status'.
//
// The coordinator samples its counters (units answered, nodes) at every
// status write and keeps the samples of the last RateKeep. The rate is
// measured over the shortest recent stretch that spans at least RateSpan
// and holds at least RateUnits answers (units finish in lumps, so a fixed
// short window would often see none), or over all samples kept when no
// stretch does.
//
// The ETA is honest about what it knows: the number of units still to
// come is not known in advance (each MTD(f) step and each split test
// issues new units once earlier answers are in), so the only estimate is
// the time to drain the units out now, queued and held, at the recent
// rate. It says so in its basis, and it is unknown when the rate is (no
// answer in the window, or no coordinator running).
const (
	RateSpan  = 60 * time.Second
	RateUnits = 8
	RateKeep  = 10 * time.Minute
)

// sample is the coordinator's counters at one instant.
type sample struct {
	t     time.Time
	done  int64
	nodes int64
}

// rateMeter holds the samples of the last RateKeep.
type rateMeter struct {
	s []sample
}

func (m *rateMeter) add(x sample) {
	m.s = append(m.s, x)
	i := 0
	for i < len(m.s)-1 && x.t.Sub(m.s[i+1].t) >= RateKeep {
		i++
	}
	m.s = m.s[i:]
}

// rate returns the window it measured over and the answers and nodes a
// second in it; a window of 0 means no rate yet (fewer than two samples).
func (m *rateMeter) rate() (window time.Duration, units, nodes float64) {
	if len(m.s) < 2 {
		return 0, 0, 0
	}
	last := m.s[len(m.s)-1]
	first := m.s[0]
	for i := len(m.s) - 2; i >= 0; i-- {
		if last.t.Sub(m.s[i].t) >= RateSpan && last.done-m.s[i].done >= RateUnits {
			first = m.s[i]
			break
		}
	}
	window = last.t.Sub(first.t)
	if window <= 0 {
		return 0, 0, 0
	}
	sec := window.Seconds()
	return window, float64(last.done-first.done) / sec, float64(last.nodes-first.nodes) / sec
}

// setRate fills in the status's rate fields from the meter.
func (st *Status) setRate(m *rateMeter) {
	w, u, n := m.rate()
	st.RateWindow = round3(w.Seconds())
	st.UnitsPerSecond = round3(u)
	st.NodesPerSecond = float64(int64(n))
}

// StaleAfter: a running campaign's status older than this means its
// coordinator is gone (killed, or cut off from the server).
const StaleAfter = 30 * time.Second

// setETA fills in the ETA from the rate and the units out now (Pending
// and InFlight filled in), as of now.
func (st *Status) setETA(now time.Time) {
	st.ETA = nil
	out := st.Pending + uint64(st.InFlight)
	updated, _ := time.Parse(time.RFC3339, st.Updated)
	switch {
	case st.State != "running":
		st.ETABasis = fmt.Sprintf("unknown: the campaign is %s", st.State)
	case now.Sub(updated) > StaleAfter:
		st.ETABasis = fmt.Sprintf("unknown: the status was last written %s ago (%s); no coordinator seems to run", now.Sub(updated).Round(time.Second), st.Updated)
	case st.RateWindow == 0:
		st.ETABasis = "unknown: no rate yet (the coordinator has run for less than two status writes)"
	case st.UnitsPerSecond == 0:
		st.ETABasis = fmt.Sprintf("unknown: no unit answered in the last %.0f s", st.RateWindow)
	case out == 0:
		st.ETABasis = "unknown: no unit out now (the coordinator is between steps or testing small boards itself)"
	default:
		eta := round3(float64(out) / st.UnitsPerSecond)
		st.ETA = &eta
		st.ETABasis = fmt.Sprintf("estimate: the %d units out now (%d queued, %d held by workers) at %.3g units/s, the rate of the last %.0f s; "+
			"more units are issued as answers come in, so the campaign ends later", out, st.Pending, st.InFlight, st.UnitsPerSecond, st.RateWindow)
	}
}

func round3(x float64) float64 { return float64(int64(x*1000+0.5)) / 1000 }
