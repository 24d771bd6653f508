package workspace

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
)

// Unpack extracts an uncompressed tar into dir (created when missing),
// applying the checks of Validate as the stream goes by: the archive is
// parsed a second time from the bytes a ValidatingReader hands on, so no
// entry is ever seen before it has been accepted.
//
// Writing never follows a symlink: every parent directory is checked with
// Lstat (and created when missing), files are created with O_EXCL, and all
// access goes through an os.Root, which refuses paths resolving outside dir.
// A symlink already present in dir where the archive puts an entry or one
// of its parents is refused, so a pre-populated destination cannot redirect
// writes. Ownership and times are not restored; permission bits are, minus
// setuid, setgid and sticky bits.
func Unpack(ctx context.Context, r io.Reader, dir string, lim Limits) (Stats, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Stats{}, fmt.Errorf("unpack: %w", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return Stats{}, fmt.Errorf("unpack: %w", err)
	}
	defer root.Close()
	vr := NewValidatingReader(r, lim)
	u := &unpacker{root: root, dirs: make(map[string]bool), created: make(map[string]bool),
		buf: make([]byte, 256<<10)}
	if err := u.run(ctx, tar.NewReader(vr), vr); err != nil {
		return vr.Stats(), err
	}
	// Read the trailer too, so that trailing garbage is reported.
	if _, err := io.Copy(io.Discard, vr); err != nil {
		return vr.Stats(), err
	}
	return vr.Stats(), nil
}

// unpacker writes accepted entries under root.
type unpacker struct {
	root    *os.Root
	dirs    map[string]bool // directories checked or created
	created map[string]bool // non-directories this unpack created
	buf     []byte
}

// run extracts entries until the end of the archive.
func (u *unpacker) run(ctx context.Context, tr *tar.Reader, vr *ValidatingReader) error {
	for {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("unpack: %w", err)
		}
		hdr, err := tr.Next()
		if errors.Is(err, tar.ErrInsecurePath) && hdr != nil {
			err = nil // already judged by the validating reader
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			if vr.err != nil && vr.err != io.EOF {
				return vr.err // the validator's verdict names the entry
			}
			return fmt.Errorf("%w: %v", ErrMalformed, err)
		}
		if err := u.extract(hdr, tr); err != nil {
			return err
		}
	}
}

// extract writes one accepted entry.
func (u *unpacker) extract(hdr *tar.Header, tr *tar.Reader) error {
	name, _ := cleanName(hdr.Name)
	if name == "." || hdr.Typeflag == tar.TypeXGlobalHeader {
		return nil // never change the destination's own mode
	}
	if err := u.ensureParents(hdr.Name, name); err != nil {
		return err
	}
	switch hdr.Typeflag {
	case tar.TypeDir:
		return u.mkdir(hdr, name)
	case tar.TypeSymlink:
		if err := u.clear(hdr.Name, name); err != nil {
			return err
		}
		return u.wrap(hdr.Name, u.root.Symlink(hdr.Linkname, name), name)
	case tar.TypeLink:
		if err := u.clear(hdr.Name, name); err != nil {
			return err
		}
		target, _ := cleanName(hdr.Linkname)
		return u.wrap(hdr.Name, u.root.Link(target, name), name)
	default:
		return u.writeFile(hdr, name, tr)
	}
}

// ensureParents checks, and creates when missing, each parent directory of
// name, refusing symlinks and non-directories.
func (u *unpacker) ensureParents(entryName, name string) error {
	for i := 0; i < len(name); i++ {
		if name[i] != '/' || u.dirs[name[:i]] {
			continue
		}
		p := name[:i]
		info, err := u.root.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			err = u.root.Mkdir(p, 0o755)
		case err != nil:
		case info.Mode()&fs.ModeSymlink != 0:
			return entryErr(ErrUnsafeEntry, entryName, "destination parent %q is a symlink", p)
		case !info.IsDir():
			return entryErr(ErrUnsafeEntry, entryName, "destination parent %q is not a directory", p)
		}
		if err != nil {
			return fmt.Errorf("unpack %q: %w", entryName, err)
		}
		u.dirs[p] = true
	}
	return nil
}

// clear makes room for a non-directory at name: it removes a regular file
// or a link this unpack created (tar's later-entry-wins rule), and refuses
// a pre-existing symlink or a directory.
func (u *unpacker) clear(entryName, name string) error {
	info, err := u.root.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("unpack %q: %w", entryName, err)
	case info.IsDir():
		return entryErr(ErrUnsafeEntry, entryName, "destination already has a directory here")
	case info.Mode()&fs.ModeSymlink != 0 && !u.created[name]:
		return entryErr(ErrUnsafeEntry, entryName, "destination already has a symlink here")
	}
	if err := u.root.Remove(name); err != nil {
		return fmt.Errorf("unpack %q: %w", entryName, err)
	}
	return nil
}

// mkdir creates (or keeps) a directory, refusing a symlink in its place.
func (u *unpacker) mkdir(hdr *tar.Header, name string) error {
	info, err := u.root.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		err = u.root.Mkdir(name, 0o755)
	case err != nil:
	case info.Mode()&fs.ModeSymlink != 0:
		return entryErr(ErrUnsafeEntry, hdr.Name, "destination already has a symlink here")
	case !info.IsDir():
		return entryErr(ErrUnsafeEntry, hdr.Name, "destination already has a non-directory here")
	}
	if err == nil {
		// Keep the owner's rwx so later entries can be written inside.
		err = u.root.Chmod(name, fs.FileMode(hdr.Mode)&0o777|0o700)
	}
	if err != nil {
		return fmt.Errorf("unpack %q: %w", hdr.Name, err)
	}
	u.dirs[name] = true
	return nil
}

// writeFile creates a regular file with O_EXCL (which never follows a
// symlink) and copies the entry's content into it.
func (u *unpacker) writeFile(hdr *tar.Header, name string, tr *tar.Reader) error {
	if err := u.clear(hdr.Name, name); err != nil {
		return err
	}
	f, err := u.root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("unpack %q: %w", hdr.Name, err)
	}
	_, err = io.CopyBuffer(struct{ io.Writer }{f}, struct{ io.Reader }{tr}, u.buf)
	if err == nil {
		err = f.Chmod(fs.FileMode(hdr.Mode) & 0o777)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return u.wrap(hdr.Name, err, name)
}

// wrap records a created path or wraps the error that prevented it.
func (u *unpacker) wrap(entryName string, err error, name string) error {
	if err != nil {
		var ee *EntryError
		if errors.As(err, &ee) {
			return err
		}
		return fmt.Errorf("unpack %q: %w", entryName, err)
	}
	u.created[path.Clean(name)] = true
	return nil
}
