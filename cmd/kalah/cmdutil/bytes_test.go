package cmdutil

import "testing"

func TestParseBytes(t *testing.T) {
	for s, want := range map[string]int64{"512MiB": 512 << 20, "2GiB": 2 << 30, "2G": 2 << 30, "1.5GiB": 3 << 29, "1.5g": 3 << 29,
		"64 mb": 64 << 20, " 16 mb ": 16 << 20, "1048576": 1 << 20, "2097152": 2 << 20, "": 0} {
		if got, err := ParseBytes(s); err != nil || got != want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"GiB", "5XB", "-1GiB", "100", "1.2.3GiB", "17TiB"} {
		if _, err := ParseBytes(s); err == nil {
			t.Errorf("ParseBytes(%q) accepted", s)
		}
	}
	for b, want := range map[int64]string{4 << 30: "4 GiB", 3 << 29: "1.5 GiB", 512 << 20: "512 MiB", 100: "100 B"} {
		if got := FormatBytes(b); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", b, got, want)
		}
	}
}
