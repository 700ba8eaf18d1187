package persist

// FormatVersion is the format of the cache on disk: the one this kalah
// writes and the only one it opens (keys.go's header record).
const FormatVersion = cacheFormat
