//go:build kalahfault

package campaign

import (
	"fmt"
	"os"
	"strconv"
)

// The fault hook of test builds (go build -tags kalahfault): a worker
// started with KALAH_FAULT_LIE=SHARE in its environment lies on that share
// (0..1) of its units (identity.go), the units chosen by KALAH_FAULT_SEED
// (default 1). KALAH_FAULT_WORKER=NAME limits it to the worker of that
// name (one of the local workers of 'campaign start --local N'). Release
// builds have no such hook: applyFault stays nil there.
func init() {
	applyFault = func(cfg *WorkerConfig) {
		s := os.Getenv("KALAH_FAULT_LIE")
		if s == "" {
			return
		}
		if name := os.Getenv("KALAH_FAULT_WORKER"); name != "" && name != cfg.Name {
			return
		}
		share, err := strconv.ParseFloat(s, 64)
		if err != nil || share < 0 || share > 1 {
			fmt.Fprintf(os.Stderr, "KALAH_FAULT_LIE=%q: want a share 0..1; no fault injected\n", s)
			return
		}
		seed := uint64(1)
		if v := os.Getenv("KALAH_FAULT_SEED"); v != "" {
			if seed, err = strconv.ParseUint(v, 10, 64); err != nil {
				fmt.Fprintf(os.Stderr, "KALAH_FAULT_SEED=%q: want an unsigned integer; no fault injected\n", v)
				return
			}
		}
		cfg.lie, cfg.lieSeed = share, seed
		if cfg.Log != nil {
			cfg.Log.Printf("%s: FAULT INJECTED (kalahfault build): this worker lies on %.3g of its units (seed %d)", cfg.Name, share, seed)
		} else {
			fmt.Fprintf(os.Stderr, "%s: FAULT INJECTED (kalahfault build): this worker lies on %.3g of its units (seed %d)\n", cfg.Name, share, seed)
		}
	}
}
