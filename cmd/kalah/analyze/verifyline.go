package analyzecmd

import (
	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/spf13/cobra"
)

// NewCmdVerifyLine returns verify-line, the alias of analyze that takes
// one game, in the move notation, as its argument.
func NewCmdVerifyLine(io *cmdutil.IOStreams) *cobra.Command {
	opts := &Options{IO: io}
	var notation string
	cmd := &cobra.Command{
		Use:   "verify-line LINE",
		Short: "Analyse the one game LINE (analyze's alias)",
		Long: `'kalah verify-line LINE' is 'kalah analyze' of the one game LINE, given on
the command line instead of in a file: every move's value before and after
it, its loss and class, the best moves where it loses, each side's sums.
Its flags are analyze's.

LINE is in the move notation unless --format says otherwise: pit letters
(a.. South, A.. North) or, as in the perfect games of Irving, Donkers &
Uiterwijk (2000), Table 9, the mover's pit numbered from 0 at its left;
the sowings of one turn written together and a dash at each change of
player: "45-3" or "ef-D". A line may end before the game does.

An illegal line is bad input (exit code 2), named by the move; a move that
loses is no error (exit code 0).`,
		Example: `  kalah verify-line --rule empty-capture --pits 4 --seeds 3 \
      13-1-032-2-3-0-1320-3-0-2
  kalah verify-line --rule empty-capture --pits 6 --seeds 1 fe-FE-d-D-c
  kalah verify-line --rule no-empty-capture --pits 6 --seeds 4 --json 25-10`,
		Args: cmdutil.Args(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if notation != "paper" && notation != "letters" {
				return cmdutil.BadInputf("--notation %q: want paper or letters", notation)
			}
			if err := opts.check(cmd); err != nil {
				return err
			}
			opts.Line = args[0]
			return run(opts)
		},
	}
	addFlags(cmd, opts, "notation")
	f := cmd.Flags()
	f.StringVar(&notation, "notation", "paper", "notation of LINE: paper (pit digits) or letters")
	_ = f.MarkDeprecated("notation", "the move notation reads pit digits and letters alike")
	cmdutil.DeprecatedAlias(cmd, "tt-mem", "table-size")
	return cmd
}
