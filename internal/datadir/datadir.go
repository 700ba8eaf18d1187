// Package datadir names the toolkit's data directory, where the endgame
// databases, the cache and campaign data live by default:
// $XDG_DATA_HOME/kalah, or ~/.local/share/kalah when XDG_DATA_HOME is unset
// or not absolute (the XDG Base Directory rule).
package datadir

import (
	"fmt"
	"os"
	"path/filepath"
)

// Dir is the subdirectory sub of the toolkit's data directory. flag names
// the option that overrides it, for the error when there is no home
// directory.
func Dir(sub, flag string) (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "kalah", sub), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no default %s directory (%v); give one with %s", sub, err, flag)
	}
	return filepath.Join(home, ".local", "share", "kalah", sub), nil
}
