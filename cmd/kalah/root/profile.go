package root

import (
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/spf13/cobra"
)

// addProfileFlags gives every command --cpuprofile FILE, for researchers who
// want to see where a solve spends its time ('go tool pprof FILE'). The
// profile covers the command's run and is written when it returns, also
// when it fails.
func addProfileFlags(cmd *cobra.Command) {
	var path string
	var f *os.File
	cmd.PersistentFlags().StringVar(&path, "cpuprofile", "", "write a CPU profile of the command to `FILE` (read it with 'go tool pprof')")
	cmd.PersistentPreRunE = func(*cobra.Command, []string) error {
		if path == "" {
			return nil
		}
		var err error
		if f, err = os.Create(path); err != nil {
			return cmdutil.BadInputf("--cpuprofile: %v", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return fmt.Errorf("--cpuprofile: %w", err)
		}
		return nil
	}
	cobra.OnFinalize(func() {
		if f != nil {
			pprof.StopCPUProfile()
			f.Close()
			f = nil
		}
	})
}
