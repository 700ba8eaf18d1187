// Package outfile writes output files all or nothing.
//
// A File is written to a temporary file beside its target (same directory,
// so the same file system) and renamed over the target only by Commit,
// after the data is synced. Until then the target is untouched: an error
// half-way, a full disk or an interrupted process leaves the old file
// whole (or no file at all). Only a process killed half-way leaves
// something behind: the temporary file, <name>.<random>.tmp, which no
// reader mistakes for the target.
//
// A target that exists and is not a regular file (a device such as
// /dev/null or /dev/stdout, a named pipe) cannot be replaced by a rename;
// it is opened and written in place, and Commit only closes it.
//
// Every error names the target's path.
package outfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// File is an output file being written. It is an io.Writer; end it with
// Commit, or Abort to drop it. Abort after Commit does nothing, so
//
//	f, err := outfile.Create(path)
//	if err != nil { ... }
//	defer f.Abort()
//	... write to f ...
//	return f.Commit()
//
// is the usual shape (Write wraps it).
type File struct {
	path   string   // the target
	f      *os.File // the temporary file, or the target itself when direct
	mode   fs.FileMode
	done   bool
	direct bool // the target is not a regular file: written in place
}

// Mode is the permission of a new file. A file that replaces an existing
// one keeps the existing file's permission.
const Mode fs.FileMode = 0o644

// Create starts writing the file at path. The directory must exist.
func Create(path string) (*File, error) {
	if path == "" {
		return nil, errors.New("no output file name")
	}
	mode := Mode
	st, err := os.Stat(path)
	switch {
	case err == nil && st.IsDir():
		return nil, fmt.Errorf("writing %s: it is a directory", path)
	case err == nil && !st.Mode().IsRegular():
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return nil, fmt.Errorf("writing %s: %w", path, err)
		}
		return &File{path: path, f: f, direct: true}, nil
	case err == nil:
		mode = st.Mode().Perm()
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, base+".*.tmp")
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("writing %s: the directory %s does not exist", path, dir)
		}
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	return &File{path: path, f: f, mode: mode}, nil
}

// Path is the target's path.
func (f *File) Path() string { return f.path }

// Write writes to the temporary file.
func (f *File) Write(p []byte) (int, error) {
	if f.done {
		return 0, fmt.Errorf("writing %s: %w", f.path, fs.ErrClosed)
	}
	n, err := f.f.Write(p)
	if err != nil {
		err = fmt.Errorf("writing %s: %w", f.path, unwrapPath(err))
	}
	return n, err
}

// WriteAt writes p at offset off of the file being written, such as a
// header whose checksum is known only once the rest is written. A target
// written in place (not a regular file) must be seekable for it.
func (f *File) WriteAt(p []byte, off int64) (int, error) {
	if f.done {
		return 0, fmt.Errorf("writing %s: %w", f.path, fs.ErrClosed)
	}
	n, err := f.f.WriteAt(p, off)
	if err != nil {
		err = fmt.Errorf("writing %s: %w", f.path, unwrapPath(err))
	}
	return n, err
}

// Commit syncs the data and renames the temporary file over the target,
// then syncs the directory so that the rename is durable. On error the
// temporary file is removed and the target is left as it was.
func (f *File) Commit() error {
	if f.done {
		return fmt.Errorf("committing %s: %w", f.path, fs.ErrClosed)
	}
	f.done = true
	if f.direct {
		if err := f.f.Close(); err != nil {
			return fmt.Errorf("writing %s: %w", f.path, unwrapPath(err))
		}
		return nil
	}
	tmp := f.f.Name()
	err := f.f.Sync()
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, f.mode)
	}
	if err == nil {
		err = os.Rename(tmp, f.path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", f.path, unwrapPath(err))
	}
	if d, err := os.Open(filepath.Dir(f.path)); err == nil {
		d.Sync() // best effort: not every file system syncs directories
		d.Close()
	}
	return nil
}

// Abort drops the file: the temporary file is removed and the target left
// as it was. It does nothing after Commit or another Abort.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.f.Close()
	if !f.direct {
		os.Remove(f.f.Name())
	}
}

// Write creates the file at path, lets write fill it and commits it if
// write returns nil; otherwise it drops it and returns write's error.
func Write(path string, write func(w io.Writer) error) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := write(f); err != nil {
		return err
	}
	return f.Commit()
}

// unwrapPath drops the *fs.PathError or *os.LinkError around err, which
// names the temporary file: the caller names the target instead.
func unwrapPath(err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return fmt.Errorf("%s: %w", pe.Op, pe.Err)
	case errors.As(err, &le):
		return fmt.Errorf("%s: %w", le.Op, le.Err)
	}
	return err
}
