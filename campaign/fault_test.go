//go:build kalahfault

package campaign

import "testing"

// In a kalahfault build the environment turns the hook on, for the worker
// it names.
func TestFaultHookFromEnvironment(t *testing.T) {
	t.Setenv("KALAH_FAULT_LIE", "0.25")
	t.Setenv("KALAH_FAULT_SEED", "9")
	t.Setenv("KALAH_FAULT_WORKER", "local-2")
	for _, c := range []struct {
		name string
		lie  float64
	}{{"local-1", 0}, {"local-2", 0.25}} {
		w := NewWorker(nil, WorkerConfig{Name: c.name, NoEGDB: true})
		if w.cfg.lie != c.lie || (c.lie > 0 && w.cfg.lieSeed != 9) {
			t.Errorf("%s: lies on %g (seed %d), want %g", c.name, w.cfg.lie, w.cfg.lieSeed, c.lie)
		}
		w.close()
	}
	t.Setenv("KALAH_FAULT_LIE", "2")
	if w := NewWorker(nil, WorkerConfig{Name: "local-2", NoEGDB: true}); w.cfg.lie != 0 {
		t.Errorf("a share of 2 was taken: %g", w.cfg.lie)
	}
}
