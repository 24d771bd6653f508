package workspace

import "io"

// Validate reads a whole uncompressed tar stream and checks every entry:
// no absolute paths, no ".." components, no names with NUL, no symlink
// that could resolve outside the root, no hard link except to an earlier
// regular file of the archive, no entry written through a symlink or under
// a non-directory, no devices, fifos, sparse files, xattrs or unknown entry
// types, no duplicate of a different kind, and the Limits (total and
// per-file bytes, entry count, path depth). Compressed input is refused
// with ErrCompressed.
//
// The first offending entry ends validation with an *EntryError naming it.
func Validate(r io.Reader, lim Limits) (Stats, error) {
	v := NewValidatingReader(r, lim)
	buf := make([]byte, 256<<10)
	for {
		_, err := v.Read(buf)
		if err == io.EOF {
			return v.Stats(), nil
		}
		if err != nil {
			return v.Stats(), err
		}
	}
}
