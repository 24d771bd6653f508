package gocache

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Store is the layered cache: the writable directory first, then the
// read-only layers in order.
type Store struct {
	// Dir is the writable cache directory ($GOCACHE); puts go here.
	Dir string
	// Layers are read-only cache directories searched after Dir, in order.
	Layers []string
	// VerifyMax is the largest content whose sha256 a get checks against
	// its output ID; larger content is checked by size only.
	VerifyMax int64
}

// hit is where a get found an entry.
type hit struct {
	entry
	path string // the content file
}

// errMismatch marks content that does not match its index entry.
var errMismatch = errors.New("content does not match its index entry")

// Get looks action up in Dir, then in each layer, and returns the first
// entry that passes the checks (verify); ok is false on a miss. Errors are
// not returned: a layer that cannot be read, or an entry that fails a
// check, is passed over and the search goes on (debug, when not nil, is
// told why, unless the entry simply is not there).
func (s *Store) Get(action [hashSize]byte, debug io.Writer) (hit, bool) {
	for i := -1; i < len(s.Layers); i++ {
		dir := s.Dir
		if i >= 0 {
			dir = s.Layers[i]
		}
		h, err := s.lookup(dir, action, i >= 0)
		if err == nil {
			return h, true
		}
		if !errors.Is(err, fs.ErrNotExist) {
			logf(debug, "get %x: passed over %s: %v", action, dir, err)
		}
	}
	return hit{}, false
}

// lookup finds action's entry and content in one directory, a layer or
// Dir.
func (s *Store) lookup(dir string, action [hashSize]byte, layer bool) (hit, error) {
	e, err := readEntry(dir, action)
	if err != nil {
		return hit{}, err
	}
	path := fileName(dir, e.output, "d")
	if err := verify(path, e, s.VerifyMax, layer); err != nil {
		return hit{}, err
	}
	return hit{entry: e, path: path}, nil
}

// testLogMagic starts the list of inputs (files, environment variables) a
// test read, which `go test` stores under the test's ID and must find
// before it replays a cached result (cmd/go/internal/test.testlogMagic).
var testLogMagic = []byte("# test log\n")

// errTestResult marks a cached test result found in a layer.
var errTestResult = errors.New("a cached test result in a read-only layer is not served")

// verify checks the content file of e: a regular file (a symlink could
// point anywhere; a directory is the go command's executable cache, which
// it never asks a GOCACHEPROG for) of e.size bytes, whose sha256 is
// e.output when it is no larger than verifyMax. In a layer, content that
// is a test's input list is refused: without it `go test` runs the test
// instead of replaying a result recorded by another run (greenlight
// verifies by running; the layers are for build outputs). In $GOCACHE it
// is served, as the go command would: it was recorded in this sandbox.
func verify(path string, e entry, verifyMax int64, layer bool) error {
	f, err := openRegular(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if f.size != e.size {
		return fmt.Errorf("%w: %s has %d bytes, the entry says %d", errMismatch, path, f.size, e.size)
	}
	hash := e.size <= verifyMax
	if !hash && !layer {
		return nil
	}
	head := make([]byte, len(testLogMagic))
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return err
	}
	head = head[:n]
	if layer && bytes.Equal(head, testLogMagic) {
		return errTestResult
	}
	if !hash {
		return nil
	}
	// Exactly the rest (fstat gave the size): no read to see the end.
	h := sha256.New()
	h.Write(head)
	if m, err := io.CopyN(h, f, e.size-int64(n)); err != nil {
		return fmt.Errorf("%w: %s: read %d bytes: %v", errMismatch, path, int64(n)+m, err)
	}
	if !bytes.Equal(h.Sum(nil), e.output[:]) {
		return fmt.Errorf("%w: %s does not hash to its output ID", errMismatch, path)
	}
	return nil
}

// Put stores size bytes read from body as the output of action, whose
// output ID the go command computed as their sha256, into Dir, and returns
// the content file's path. The content is checked against output as it is
// written; both files are written under temporary names and renamed, so a
// concurrent reader (another go command's child) sees a whole file or
// none. Put may stop reading body early on an error; the caller drains it.
func (s *Store) Put(action, output [hashSize]byte, size int64, body io.Reader) (string, error) {
	path := fileName(s.Dir, output, "d")
	if err := writeContent(path, output, size, body); err != nil {
		return "", err
	}
	e := entry{action: action, output: output, size: size, time: time.Now()}
	if err := writeFile(fileName(s.Dir, action, "a"), func(w io.Writer) error {
		_, err := w.Write(e.format())
		return err
	}); err != nil {
		return "", err
	}
	return path, nil
}

// writeContent writes the body to path, failing if it is not size bytes
// hashing to output.
func writeContent(path string, output [hashSize]byte, size int64, body io.Reader) error {
	return writeFile(path, func(w io.Writer) error {
		h := sha256.New()
		n, err := io.Copy(io.MultiWriter(w, h), io.LimitReader(body, size+1))
		if err != nil {
			return err
		}
		if n != size || !bytes.Equal(h.Sum(nil), output[:]) {
			return fmt.Errorf("%w: the body (%d bytes) does not hash to its output ID", errMismatch, n)
		}
		return nil
	})
}

// writeFile writes a file through fill under a temporary name in the same
// directory (made if missing: the go command makes all 256, but a cache
// directory need not come from it) and renames it into place; on any
// error nothing is left.
func writeFile(path string, fill func(io.Writer) error) (err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err = fill(f); err != nil {
		return err
	}
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
