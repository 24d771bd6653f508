package snapshot

import (
	"archive/tar"
	"errors"
	"fmt"
	"io"
)

// FromTar indexes an uncompressed tar stream. Only regular files are listed;
// directories, links and devices carry nothing detection needs. Content of
// unwanted files is skipped, not buffered (tar seeks past it when r is an
// io.Seeker, such as a blob store file).
func FromTar(r io.Reader, keep KeepFunc, lim Limits) (*Index, error) {
	b := newBuilder(keep, lim)
	tr := tar.NewReader(r)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrMalformed, err)
		}
		name, ok, err := cleanName(hdr.Name)
		if err != nil {
			return nil, err
		}
		if !ok || !hdr.FileInfo().Mode().IsRegular() {
			continue
		}
		read := func(max int64) ([]byte, error) {
			data, err := io.ReadAll(io.LimitReader(tr, max+1))
			if err != nil {
				return nil, fmt.Errorf("%w: %w", ErrMalformed, err)
			}
			return data, nil
		}
		if err := b.add(name, hdr.Size, read); err != nil {
			return nil, err
		}
	}
	return b.finish(), nil
}
