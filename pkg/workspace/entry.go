package workspace

import (
	"archive/tar"
	"io/fs"
	"time"
)

// packTime is the modification time of every packed entry: a fixed,
// plausible date (some tools warn about the Unix epoch) that keeps the
// archive independent of when files were touched.
var packTime = time.Date(2000, time.January, 1, 0, 0, 0, 0, time.UTC)

// entry is one path planned for a pack.
type entry struct {
	rel    string // slash-separated, relative to the packed directory
	kind   kind   // kindDir, kindFile or kindSymlink
	size   int64
	exec   bool
	target string      // symlink target
	info   fs.FileInfo // Lstat result for files, to detect swaps
}

// header builds the entry's normalized tar header. PAX is used (only when a
// name or size needs it) because it has no length limits and archive/tar
// writes it deterministically; owners, times and modes are fixed.
func (e entry) header() *tar.Header {
	h := &tar.Header{Name: e.rel, ModTime: packTime, Format: tar.FormatPAX}
	switch e.kind {
	case kindDir:
		h.Typeflag, h.Name, h.Mode = tar.TypeDir, e.rel+"/", 0o755
	case kindSymlink:
		h.Typeflag, h.Linkname, h.Mode = tar.TypeSymlink, e.target, 0o777
	default:
		h.Typeflag, h.Size, h.Mode = tar.TypeReg, e.size, 0o644
		if e.exec {
			h.Mode = 0o755
		}
	}
	return h
}
