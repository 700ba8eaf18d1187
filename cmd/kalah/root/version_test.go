package root

import (
	"strings"
	"testing"
)

// TestVersionFlag: 'kalah --version' prints what 'kalah version' prints.
func TestVersionFlag(t *testing.T) {
	flag, _, code, err := execute("--version")
	if code != 0 {
		t.Fatalf("kalah --version: exit %d, %v", code, err)
	}
	cmd, _, code, err := execute("version")
	if code != 0 {
		t.Fatalf("kalah version: exit %d, %v", code, err)
	}
	if flag != cmd || !strings.HasPrefix(flag, "kalah ") || !strings.Contains(flag, "revision:") {
		t.Errorf("kalah --version printed\n%s\nkalah version printed\n%s", flag, cmd)
	}
}
