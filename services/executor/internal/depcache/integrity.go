package depcache

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
)

// An entry file is a fixed-size header followed by the tree's tar stream:
//
//	greenlight-depcache-v2 <sha256 of the tree, hex> <size of the tree, 20 digits>\n
//
// Put writes zeros in its place, streams the tree while hashing it, then
// fills the header in, all before the rename that publishes the entry.
const (
	magic     = "greenlight-depcache-v2"
	headerLen = len(magic) + 1 + sha256.Size*2 + 1 + 20 + 1
)

// header is the header of a tree with the given digest and size.
func header(digest string, size int64) []byte {
	return []byte(fmt.Sprintf("%s %s %020d\n", magic, digest, size))
}

// verify checks f against its header, reading the whole tree once, and
// returns a reader of the tree. An entry of an older format, a truncated
// or extended file and a changed byte are all ErrCorrupt.
func verify(f *os.File) (io.Reader, error) {
	hdr := make([]byte, headerLen)
	if _, err := io.ReadFull(f, hdr); err != nil {
		return nil, fmt.Errorf("%w: %s: no header: %v", ErrCorrupt, f.Name(), err)
	}
	var digest string
	var size int64
	if _, err := fmt.Sscanf(string(hdr), magic+" %64s %d\n", &digest, &size); err != nil || len(digest) != sha256.Size*2 {
		return nil, fmt.Errorf("%w: %s: unreadable header", ErrCorrupt, f.Name())
	}
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return nil, fmt.Errorf("dependency cache: reading %s: %w", f.Name(), err)
	}
	if n != size {
		return nil, fmt.Errorf("%w: %s holds %d bytes, %d were saved", ErrCorrupt, f.Name(), n, size)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != digest {
		return nil, fmt.Errorf("%w: %s has sha256 %s, %s was saved", ErrCorrupt, f.Name(), got[:12], digest[:12])
	}
	return io.NewSectionReader(f, int64(headerLen), size), nil
}

// readCloser reads a verified tree and closes its file.
type readCloser struct {
	io.Reader
	io.Closer
}
