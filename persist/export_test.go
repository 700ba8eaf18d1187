package persist

import "log"

// SetDiskFree replaces the free-space query of checkpoints until the
// returned function restores it.
func SetDiskFree(f func(dir string) (int64, bool)) (restore func()) {
	old := diskFree
	diskFree = f
	return func() { diskFree = old }
}

// BadgerLog gives BadgerDB's warning and error calls of a cache whose log
// is l.
func BadgerLog(l *log.Logger) (warningf, errorf func(string, ...any)) {
	b := badgerLogger{l}
	return b.Warningf, b.Errorf
}
