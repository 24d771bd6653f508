package gocache

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// openRegular opens path for reading only if it is a regular file, never
// following a symlink and never blocking: a layer is someone else's
// directory, and a FIFO or device node where an entry should be would
// otherwise hang the go command or have side effects on open. The file's
// info is returned with it.
func openRegular(path string) (*os.File, fs.FileInfo, error) {
	before, err := os.Lstat(path)
	if err != nil {
		return nil, nil, err
	}
	if !before.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("%w: %s is not a regular file", errMismatch, path)
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err == nil && (!fi.Mode().IsRegular() || !os.SameFile(before, fi)) {
		err = fmt.Errorf("%w: %s changed while it was opened", errMismatch, path)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}
