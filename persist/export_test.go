package persist

// SetDiskFree replaces the free-space query of checkpoints until the
// returned function restores it.
func SetDiskFree(f func(dir string) (int64, bool)) (restore func()) {
	old := diskFree
	diskFree = f
	return func() { diskFree = old }
}
