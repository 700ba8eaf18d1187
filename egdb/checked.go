package egdb

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/kalah-solver/kalah/engine"
	"github.com/kalah-solver/kalah/internal/outfile"
)

// Checked files. Checking a slice's payload (its XXH64 checksum and, for
// the packed encoding, its exception list and directory) reads the whole
// file: about 1.5 CPU seconds for the 2.9 GB of the 28-seed six-pit
// database, paid by every process that opens it. So Open remembers, in
// the file checkedName of each rule's directory, the slice files it has
// checked in full: each one's device and inode, size, modification time
// and header checksum. A file that still has all of them is not checked
// again; any write to a file (or a file put in its place) changes its
// modification time or inode, and it is checked anew. A file modified
// less than racyWindow before its check is not remembered (the file
// system's timestamps are coarse: a write in the same tick would keep the
// time; git's index handles "racily clean" entries alike). Damage that
// changes none of these (a failing disk flipping bits) is found by 'kalah
// egdb verify', which checks everything, always.
const (
	checkedName   = "checked.json"
	checkedFormat = "kalah-egdb-checked/1"
	racyWindow    = 2 * time.Second
)

// checked is what Open knew of one slice file when it checked it.
type checked struct {
	Dev      uint64 `json:"dev"`
	Inode    uint64 `json:"inode"`
	Size     int64  `json:"size"`
	ModNanos int64  `json:"mtime_ns"`
	Checksum string `json:"checksum"` // the header's payload checksum, hex
}

type checkedFile struct {
	Format string             `json:"format"`
	Files  map[string]checked `json:"files"` // by file name (s<s>.egdb)
}

// stampOf describes the open file fi whose header holds the payload
// checksum sum; ok is false where files have no inode numbers.
func stampOf(fi os.FileInfo, sum uint64) (checked, bool) {
	dev, ino, ok := fileID(fi)
	if !ok {
		return checked{}, false
	}
	return checked{Dev: dev, Inode: ino, Size: fi.Size(), ModNanos: fi.ModTime().UnixNano(), Checksum: fmt.Sprintf("%016x", sum)}, true
}

// readChecked reads the checked files of rules under dir; an absent,
// unreadable or foreign record is an empty one (every file is checked).
func readChecked(dir string, rules engine.Variant) map[string]checked {
	data, err := os.ReadFile(filepath.Join(RuleDir(dir, rules), checkedName))
	var cf checkedFile
	if err != nil || json.Unmarshal(data, &cf) != nil || cf.Format != checkedFormat || cf.Files == nil {
		return map[string]checked{}
	}
	return cf.Files
}

// writeChecked replaces the record of rules under dir (atomically: a
// temporary file renamed). It is a cache: a directory that cannot be
// written only means that the next Open checks the files again.
func writeChecked(dir string, rules engine.Variant, files map[string]checked) error {
	data, err := json.MarshalIndent(checkedFile{Format: checkedFormat, Files: files}, "", " ")
	if err != nil {
		return err
	}
	return outfile.Write(filepath.Join(RuleDir(dir, rules), checkedName), func(w io.Writer) error {
		_, err := w.Write(append(data, '\n'))
		return err
	})
}
