package root

import (
	"strings"

	"github.com/spf13/cobra"
)

// helpWidth is the width of the help pages: an 80-column terminal. The
// descriptions are wrapped by hand to it; the flags are wrapped to it by
// the usage template below.
const helpWidth = 80

// usageTemplate is cobra's default usage template with the flag lists
// wrapped to helpWidth, so that a flag's description continues under
// itself instead of running off the right edge.
var usageTemplate = strings.NewReplacer(
	"{{.LocalFlags.FlagUsages", "{{(.LocalFlags.FlagUsagesWrapped helpWidth)",
	"{{.InheritedFlags.FlagUsages", "{{(.InheritedFlags.FlagUsagesWrapped helpWidth)",
).Replace((&cobra.Command{}).UsageTemplate())

func init() {
	cobra.AddTemplateFunc("helpWidth", func() int { return helpWidth })
}
