package workspace

import "archive/tar"

// Stats summarises an archive that was validated or unpacked.
type Stats struct {
	// Entries counts every entry (files, directories, links).
	Entries int
	// Files counts regular files.
	Files int
	// Dirs counts directory entries.
	Dirs int
	// Symlinks counts symbolic links.
	Symlinks int
	// HardLinks counts hard links.
	HardLinks int
	// Bytes is the sum of regular-file sizes.
	Bytes int64
	// TarBytes is the size of the tar stream read, trailer included.
	TarBytes int64
}

// kind is what an archive path is known to be.
type kind byte

const (
	kindNone kind = iota
	// kindParent is a directory implied by a deeper entry's name.
	kindParent
	kindDir
	kindFile
	kindSymlink
	kindHardLink
)

func (k kind) String() string {
	switch k {
	case kindParent, kindDir:
		return "directory"
	case kindFile:
		return "regular file"
	case kindSymlink:
		return "symlink"
	case kindHardLink:
		return "hard link"
	}
	return "nothing"
}

// allowedRecords are the PAX record keys an entry may carry: the ones
// archive/tar and GNU tar both interpret the same way, plus informational
// ones. Anything else is refused rather than risk an extractor acting on
// it: SCHILY.xattr.* would set extended attributes (a security.capability
// xattr grants file capabilities), GNU.sparse.* changes how data is laid
// out, and unknown vendor keys mean whatever some extractor decides.
var allowedRecords = map[string]bool{
	"path": true, "linkpath": true, "size": true, "uid": true, "gid": true,
	"uname": true, "gname": true, "mtime": true, "atime": true, "ctime": true,
	"comment": true, "charset": true, "hdrcharset": true,
	"SCHILY.dev": true, "SCHILY.ino": true, "SCHILY.nlink": true, "LIBARCHIVE.creationtime": true,
}

// allowedGlobalRecords are the keys a global PAX header may carry. git
// archive writes only "comment"; GNU tar applies a global "path" or
// "linkpath" to every later entry while archive/tar ignores it.
var allowedGlobalRecords = map[string]bool{"comment": true}

// checker applies the entry rules to a sequence of parsed headers. It keeps
// the kind of every path seen so far, so that it can refuse entries written
// through a symlink and duplicates of a different kind.
type checker struct {
	lim   Limits
	seen  map[string]kind
	stats Stats
}

func newChecker(lim Limits) *checker {
	return &checker{lim: lim.withDefaults(), seen: make(map[string]kind)}
}

// check validates one header and records it. It returns nil for an accepted
// entry, and an *EntryError (without position) otherwise.
func (c *checker) check(hdr *tar.Header) *EntryError {
	if hdr.Typeflag == tar.TypeXGlobalHeader {
		// A global PAX header (git archive writes one) describes no file.
		for key := range hdr.PAXRecords {
			if !allowedGlobalRecords[key] {
				return entryErr(ErrUnsafeEntry, hdr.Name, "global PAX record %q is not allowed", key)
			}
		}
		return nil
	}
	clean, reason := cleanName(hdr.Name)
	if reason != "" {
		return entryErr(ErrUnsafeEntry, hdr.Name, "%s", reason)
	}
	k, err := c.entryKind(hdr)
	if err != nil {
		return err
	}
	if err := c.checkCounts(hdr, clean, k); err != nil {
		return err
	}
	if clean == "." {
		if k != kindDir {
			return entryErr(ErrUnsafeEntry, hdr.Name, "the root can only be a directory, not a %s", k)
		}
		c.stats.Entries++
		c.stats.Dirs++
		return nil
	}
	if err := c.checkParents(hdr.Name, clean); err != nil {
		return err
	}
	if prev := c.seen[clean]; prev != kindNone && !sameKind(prev, k) {
		return entryErr(ErrUnsafeEntry, hdr.Name, "duplicate entry: already a %s in this archive", prev)
	}
	if err := c.checkLink(hdr, clean, k); err != nil {
		return err
	}
	c.record(hdr, clean, k)
	return nil
}

// entryKind maps a type flag to a kind, refusing devices, fifos, sparse
// files and anything exotic, and checks the PAX records.
func (c *checker) entryKind(hdr *tar.Header) (kind, *EntryError) {
	var k kind
	switch hdr.Typeflag {
	case tar.TypeReg: // archive/tar reads the legacy TypeRegA as TypeReg (or TypeDir)
		k = kindFile
	case tar.TypeDir:
		k = kindDir
	case tar.TypeSymlink:
		k = kindSymlink
	case tar.TypeLink:
		k = kindHardLink
	case tar.TypeChar:
		return 0, entryErr(ErrUnsafeEntry, hdr.Name, "character device entries are not allowed")
	case tar.TypeBlock:
		return 0, entryErr(ErrUnsafeEntry, hdr.Name, "block device entries are not allowed")
	case tar.TypeFifo:
		return 0, entryErr(ErrUnsafeEntry, hdr.Name, "fifo entries are not allowed")
	case tar.TypeGNUSparse:
		return 0, entryErr(ErrUnsafeEntry, hdr.Name, "sparse files are not allowed")
	default:
		return 0, entryErr(ErrUnsafeEntry, hdr.Name, "entry type %q is not allowed", string(hdr.Typeflag))
	}
	for key := range hdr.PAXRecords {
		if !allowedRecords[key] {
			return 0, entryErr(ErrUnsafeEntry, hdr.Name, "PAX record %q is not allowed (no xattrs, ACLs, sparse files or vendor records)", key)
		}
	}
	if k != kindFile && hdr.Size != 0 {
		// archive/tar ignores the size of header-only types while other
		// readers may skip that many bytes: refuse the ambiguity.
		return 0, entryErr(ErrUnsafeEntry, hdr.Name, "%s entry declares %d data bytes", k, hdr.Size)
	}
	return k, nil
}

// checkCounts applies the count, depth and size limits.
func (c *checker) checkCounts(hdr *tar.Header, clean string, k kind) *EntryError {
	if over(c.stats.Entries+1, c.lim.MaxFiles) {
		return entryErr(ErrTooManyFiles, hdr.Name, "archive has more than %d entries", c.lim.MaxFiles)
	}
	if d := depth(clean); over(d, c.lim.MaxDepth) {
		return entryErr(ErrUnsafeEntry, hdr.Name, "path has %d components, over the limit of %d", d, c.lim.MaxDepth)
	}
	if k != kindFile {
		return nil
	}
	if hdr.Size < 0 {
		return entryErr(ErrMalformed, hdr.Name, "negative size %d", hdr.Size)
	}
	if over(hdr.Size, c.lim.MaxFileBytes) {
		return entryErr(ErrTooLarge, hdr.Name, "file is %d bytes, over the per-file limit of %d", hdr.Size, c.lim.MaxFileBytes)
	}
	if over(c.stats.Bytes+hdr.Size, c.lim.MaxBytes) {
		return entryErr(ErrTooLarge, hdr.Name, "archive content exceeds the limit of %d bytes at this entry", c.lim.MaxBytes)
	}
	return nil
}

// checkParents refuses an entry whose parent path is a symlink or a file in
// this archive (the "a -> /etc then a/passwd" and "dir/l -> . then
// dir/l/..." tricks), and records the parents as directories so that a later
// entry cannot turn one of them into a link.
func (c *checker) checkParents(name, clean string) *EntryError {
	for i := 0; i < len(clean); i++ {
		if clean[i] != '/' {
			continue
		}
		parent := clean[:i]
		switch k := c.seen[parent]; k {
		case kindNone:
			c.seen[parent] = kindParent
		case kindParent, kindDir:
		case kindSymlink:
			return entryErr(ErrUnsafeEntry, name, "written through symlink %q", parent)
		default:
			return entryErr(ErrUnsafeEntry, name, "parent %q is a %s, not a directory", parent, k)
		}
	}
	return nil
}

// checkLink validates symlink and hard-link targets.
func (c *checker) checkLink(hdr *tar.Header, clean string, k kind) *EntryError {
	switch k {
	case kindSymlink:
		if reason := symlinkReason(clean, hdr.Linkname); reason != "" {
			return entryErr(ErrUnsafeEntry, hdr.Name, "%s", reason)
		}
	case kindHardLink:
		target, reason := cleanName(hdr.Linkname)
		if reason != "" {
			return entryErr(ErrUnsafeEntry, hdr.Name, "hard link target %q: %s", hdr.Linkname, reason)
		}
		if t := c.seen[target]; t != kindFile && t != kindHardLink {
			return entryErr(ErrUnsafeEntry, hdr.Name, "hard link to %q, which is not an earlier regular file in the archive", hdr.Linkname)
		}
	}
	return nil
}

// record notes an accepted entry.
func (c *checker) record(hdr *tar.Header, clean string, k kind) {
	c.seen[clean] = k
	c.stats.Entries++
	switch k {
	case kindFile:
		c.stats.Files++
		c.stats.Bytes += hdr.Size
	case kindDir:
		c.stats.Dirs++
	case kindSymlink:
		c.stats.Symlinks++
	case kindHardLink:
		c.stats.HardLinks++
	}
}

// sameKind reports whether an entry of kind next may repeat a path already
// seen as prev.
func sameKind(prev, next kind) bool {
	if prev == kindParent {
		return next == kindDir
	}
	return prev == next
}
