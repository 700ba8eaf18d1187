package egdb

import "syscall"

// adviseHuge asks the kernel to back a database mapping with 2 MiB pages
// where it can (MADV_HUGEPAGE on a file mapping): the page cache then
// reads the file in 2 MiB folios as the open's checksum pass walks it, and
// maps each with one page-table entry, so that the search's random probes
// into a mapping of gigabytes miss the TLB far less. Kernels whose file
// system has no large folios ignore it; an error changes nothing.
func adviseHuge(data []byte) {
	const madvHugepage = 14 // MADV_HUGEPAGE
	if len(data) >= 2<<20 {
		_ = syscall.Madvise(data, madvHugepage)
	}
}
