package egdbcmd

import (
	"fmt"
	"math/big"

	"github.com/kalah-solver/kalah/cmd/kalah/cmdutil"
	"github.com/kalah-solver/kalah/egdb"
	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/results"
	"github.com/spf13/cobra"
)

// SizeOptions are the inputs of one "kalah egdb size".
type SizeOptions struct {
	IO         *cmdutil.IOStreams
	Pits       int
	MaxSeeds   int
	StateSpace bool
	Seeds      int
	JSON       bool
	changed    func(string) bool
}

// NewCmdSize returns the size command.
func NewCmdSize(io *cmdutil.IOStreams) *cobra.Command {
	opts := &SizeOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "size",
		Short: "Count the positions of an endgame database, or of a whole game",
		Long: `Count the positions of each slice of the endgame database of --pits up
to --max-seeds, and the running total: positions with at most s seeds in
the pits and seeds on both sides, C(s+2m,2m) - 2 C(s+m,m) + 1 (Table 8 of
Irving, Donkers & Uiterwijk 2000), and the bytes of the files up to that
slice: in the packed format that builds write by default (an estimate:
64-byte lines of 126 positions, about 4.1 bits a position, plus a 64-byte
header per slice; the exception lists add a few per cent), and in the
byte format (one byte per position, exact). No database is read.

--state-space prints instead Table 2 of the same paper: the state space of
Kalah(m,n), the ways to place the 2mn seeds in the 2m pits and 2 stores,
counted for either side to move: 2 C(2mn+2m+1, 2m+1). It covers m = 1..6
and n = 1..6, or the --pits and --seeds given.`,
		Example: `  kalah egdb size --pits 6 --max-seeds 20
  kalah egdb size --state-space
  kalah egdb size --state-space --pits 6 --seeds 4 --json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.changed = cmd.Flags().Changed
			return runSize(opts)
		},
	}
	cmd.Flags().IntVar(&opts.Pits, "pits", 6, "pits per side, m (1-8)")
	cmd.Flags().IntVar(&opts.MaxSeeds, "max-seeds", 20, "largest seed count (stores excluded), 0..255")
	cmd.Flags().BoolVar(&opts.StateSpace, "state-space", false, "print the state space of Kalah(m,n) (the paper's Table 2) instead")
	cmd.Flags().IntVar(&opts.Seeds, "seeds", 0, "with --state-space: seeds per pit n (default: 1..6)")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print one JSON object instead of text")
	return cmd
}

type sizeRow struct {
	Seeds      int      `json:"seeds"`
	Positions  *big.Int `json:"positions"`
	Cumulative *big.Int `json:"cumulative"`
	Bytes      *big.Int `json:"bytes"`        // byte-format files of slices 0..seeds, headers included
	Packed     *big.Int `json:"packed_bytes"` // packed files of slices 0..seeds, estimated without exception lists
}

type stateRow struct {
	Pits       int      `json:"pits"`
	Seeds      int      `json:"seeds"` // per pit
	States     *big.Int `json:"states"`
	Scientific string   `json:"scientific"`
}

func runSize(opts *SizeOptions) error {
	changed := opts.changed
	if changed == nil {
		changed = func(string) bool { return false }
	}
	if opts.Pits < 1 || opts.Pits > engine.MaxPits {
		return cmdutil.BadInputf("--pits must be 1..%d, got %d", engine.MaxPits, opts.Pits)
	}
	if opts.StateSpace {
		return runStateSpace(opts, changed)
	}
	if changed("seeds") {
		return cmdutil.BadInputf("--seeds goes with --state-space; the database's size is set by --max-seeds")
	}
	if opts.MaxSeeds < 0 || opts.MaxSeeds > 255 {
		return cmdutil.BadInputf("--max-seeds must be 0..255, got %d", opts.MaxSeeds)
	}
	m := opts.Pits
	var rows []sizeRow
	for s := 0; s <= opts.MaxSeeds; s++ {
		rows = append(rows, sizeRow{Seeds: s, Positions: egdb.SliceSize(m, s), Cumulative: egdb.CumulativeSize(m, s), Bytes: egdb.FilesSize(m, s), Packed: egdb.PackedFilesSize(m, s)})
	}
	if opts.JSON {
		return cmdutil.PrintJSON(opts.IO.Out, struct {
			Pits     int       `json:"pits"`
			MaxSeeds int       `json:"max_seeds"`
			Slices   []sizeRow `json:"slices"`
			results.Provenance
		}{m, opts.MaxSeeds, rows, results.Current()})
	}
	w := opts.IO.Out
	fmt.Fprintf(w, "endgame database of %d pits a side (either rule); bytes on disk of the slices up to this one\n", m)
	fmt.Fprintf(w, "%5s %22s %26s %26s %26s\n", "seeds", "positions", "with at most this many", "packed (estimate)", "byte format")
	for _, r := range rows {
		fmt.Fprintf(w, "%5d %22s %26s %26s %26s\n", r.Seeds, groupBig(r.Positions), groupBig(r.Cumulative), groupBig(r.Packed), groupBig(r.Bytes))
	}
	return nil
}

func runStateSpace(opts *SizeOptions, changed func(string) bool) error {
	ms, ns := []int{1, 2, 3, 4, 5, 6}, []int{1, 2, 3, 4, 5, 6}
	if changed("pits") {
		ms = []int{opts.Pits}
	}
	if changed("seeds") {
		if opts.Seeds < 1 || opts.Seeds > 255 {
			return cmdutil.BadInputf("--seeds must be 1..255, got %d", opts.Seeds)
		}
		ns = []int{opts.Seeds}
	}
	var rows []stateRow
	for _, m := range ms {
		for _, n := range ns {
			v := egdb.StateSpace(m, n)
			f, _ := new(big.Float).SetInt(v).Float64()
			rows = append(rows, stateRow{Pits: m, Seeds: n, States: v, Scientific: fmt.Sprintf("%.3g", f)})
		}
	}
	if opts.JSON {
		return cmdutil.PrintJSON(opts.IO.Out, struct {
			StateSpace []stateRow `json:"state_space"`
			results.Provenance
		}{rows, results.Current()})
	}
	w := opts.IO.Out
	fmt.Fprintf(w, "state space of Kalah(m,n): 2 C(2mn+2m+1, 2m+1), either side to move\n")
	fmt.Fprintf(w, "%4s", "m\\n")
	for _, n := range ns {
		fmt.Fprintf(w, " %10d", n)
	}
	fmt.Fprintln(w)
	for i, m := range ms {
		fmt.Fprintf(w, "%4d", m)
		for j := range ns {
			fmt.Fprintf(w, " %10s", rows[i*len(ns)+j].Scientific)
		}
		fmt.Fprintln(w)
	}
	if len(rows) == 1 {
		fmt.Fprintf(w, "Kalah(%d,%d): %s states\n", rows[0].Pits, rows[0].Seeds, groupBig(rows[0].States))
	}
	return nil
}

func groupBig(v *big.Int) string {
	if v.IsInt64() {
		return results.Group(v.Int64())
	}
	return v.String()
}
