package workspace

import (
	"archive/tar"
	"errors"
	"fmt"
	"io"
)

// maxHeaderBytes bounds the bytes one header may span, PAX and GNU
// extension blocks included. archive/tar caps each extension at 1 MiB but
// accepts an unbounded chain of them; the validating reader holds a header
// back until it is checked, so the chain must be bounded too.
const maxHeaderBytes = 4 << 20

// ValidatingReader passes a tar stream through unchanged while checking
// every entry header with the same rules as Validate.
//
// Design: the source is wrapped in a recorder and parsed by archive/tar (so
// the validator sees exactly what Go-based extractors such as Docker's see,
// PAX and GNU long names included). Bytes reach the consumer in two ways:
//
//   - While tar.Reader.Next runs, the recorder keeps every byte it reads:
//     the previous entry's padding, then the new header with its extension
//     blocks. Those bytes are held back until the parsed header has passed
//     the checks; then they are released. If the header is refused, they are
//     dropped and Read returns the *EntryError, so the consumer never sees
//     any byte of a refused entry's header (it sees a prefix of the stream
//     that ends at or before that header).
//   - The raw blocks behind each header are also compared with the parsed
//     header where archive/tar and GNU tar (the sandbox's extractor) could
//     read different names (see rawHeaderReason).
//   - An accepted regular file's content is read with tar.Reader.Read
//     straight into the caller's buffer: for non-sparse files (sparse ones
//     are refused) those are exactly the raw bytes of the stream, so
//     there is no extra copy.
//
// After the end-of-archive marker only zero bytes (tar's record padding)
// may follow. Memory use is bounded by one header (maxHeaderBytes) plus the
// set of paths seen so far, whatever the archive's size.
//
// Errors are sticky: after one, every Read returns it.
type ValidatingReader struct {
	rec       recorder
	tr        *tar.Reader
	chk       *checker
	pending   []byte
	state     readState
	remaining int64 // content bytes left in the current entry
	pad       int64 // padding after the current entry's content
	index     int   // headers parsed so far
	last      string
	err       error
}

type readState int

const (
	stateHeader readState = iota
	stateContent
	stateTrailer
)

// NewValidatingReader returns a reader that yields r's bytes unchanged and
// fails, before handing on any byte of it, at the first entry that breaks
// the rules or limits (see Validate).
func NewValidatingReader(r io.Reader, lim Limits) *ValidatingReader {
	v := &ValidatingReader{rec: recorder{r: r, limit: maxHeaderBytes}, chk: newChecker(lim)}
	v.tr = tar.NewReader(&v.rec)
	return v
}

// Stats returns what has been validated so far; after Read returned io.EOF
// it describes the whole archive.
func (v *ValidatingReader) Stats() Stats {
	s := v.chk.stats
	s.TarBytes = v.rec.n
	return s
}

// Read implements io.Reader.
func (v *ValidatingReader) Read(p []byte) (int, error) {
	for {
		if len(v.pending) > 0 {
			n := copy(p, v.pending)
			v.pending = v.pending[n:]
			return n, nil
		}
		if v.err != nil {
			return 0, v.err
		}
		if len(p) == 0 {
			return 0, nil
		}
		switch v.state {
		case stateHeader:
			v.nextHeader()
		case stateContent:
			if n, err := v.readContent(p); n > 0 || err != nil {
				return n, err
			}
		default:
			return v.readTrailer(p)
		}
	}
}

// nextHeader parses the next header, holding its bytes back until checked.
func (v *ValidatingReader) nextHeader() {
	start := v.rec.n + v.pad
	v.rec.start()
	hdr, err := v.tr.Next()
	captured := v.rec.stop()
	if errors.Is(err, tar.ErrInsecurePath) && hdr != nil {
		err = nil // GODEBUG=tarinsecurepath=0; our own rules decide
	}
	switch {
	case err == io.EOF:
		v.pending, v.state = captured, stateTrailer
		return
	case err != nil:
		v.err = v.headerError(err, captured, start)
		return
	}
	v.index++
	if reason := rawHeaderReason(captured[min(v.pad, int64(len(captured))):], hdr); reason != "" {
		v.err = &EntryError{Name: hdr.Name, Reason: reason, Index: v.index, Offset: start, Err: ErrUnsafeEntry}
		return
	}
	if e := v.chk.check(hdr); e != nil {
		e.Index, e.Offset = v.index, start
		v.err = e
		return
	}
	v.pending, v.last = captured, hdr.Name
	v.remaining, v.pad = 0, 0
	switch hdr.Typeflag {
	case tar.TypeReg: // archive/tar reads the legacy TypeRegA as TypeReg (or TypeDir)
		v.remaining, v.pad = hdr.Size, -hdr.Size&511
	case tar.TypeXGlobalHeader:
		// archive/tar has read the global header's records but not their
		// padding: the next header's capture starts with it.
		v.pad = -v.rec.n & 511
	}
	if v.remaining > 0 {
		v.state = stateContent
	}
}

// headerError explains why a header could not be parsed.
func (v *ValidatingReader) headerError(err error, captured []byte, start int64) error {
	if v.rec.srcErr != nil {
		return fmt.Errorf("reading tar stream: %w", v.rec.srcErr)
	}
	if v.index == 0 {
		if format := compression(captured); format != "" {
			return fmt.Errorf("%w: the stream starts with the %s magic number", ErrCompressed, format)
		}
	}
	reason := fmt.Sprintf("unreadable header: %v", err)
	sentinel := ErrMalformed
	switch {
	case v.rec.overflow:
		reason = fmt.Sprintf("header with extensions spans more than %d bytes", maxHeaderBytes)
		sentinel = ErrTooLarge
	case errors.Is(err, io.ErrUnexpectedEOF):
		reason = "archive truncated inside a header"
	}
	if v.last != "" {
		reason += fmt.Sprintf(" (after entry %q)", v.last)
	}
	return &EntryError{Reason: reason, Index: v.index + 1, Offset: start, Err: sentinel}
}

// readContent hands on an accepted file's content.
func (v *ValidatingReader) readContent(p []byte) (int, error) {
	if int64(len(p)) > v.remaining {
		p = p[:v.remaining]
	}
	n, err := v.tr.Read(p)
	v.remaining -= int64(n)
	if v.remaining == 0 {
		v.state = stateHeader
	}
	switch {
	case err == nil || (err == io.EOF && v.remaining == 0):
		return n, nil
	case v.rec.srcErr != nil:
		v.err = fmt.Errorf("reading tar stream: %w", v.rec.srcErr)
	default:
		v.err = &EntryError{Name: v.last, Reason: "archive truncated inside this file's content",
			Index: v.index, Offset: -1, Err: ErrMalformed}
	}
	return n, v.err
}

// readTrailer passes on the zero padding after the end-of-archive marker.
func (v *ValidatingReader) readTrailer(p []byte) (int, error) {
	n, err := v.rec.Read(p)
	for _, b := range p[:n] {
		if b != 0 {
			v.err = &EntryError{Reason: "non-zero data after the end-of-archive marker",
				Index: v.index + 1, Offset: v.rec.n - int64(n), Err: ErrMalformed}
			return 0, v.err
		}
	}
	if err != nil && err != io.EOF {
		err = fmt.Errorf("reading tar stream: %w", err)
	}
	if err != nil {
		v.err = err
	}
	return n, err
}

// recorder counts the bytes read from the source and, between start and
// stop, keeps a copy of them (bounded by limit).
type recorder struct {
	r        io.Reader
	buf      []byte
	on       bool
	limit    int
	overflow bool
	n        int64
	srcErr   error
}

func (r *recorder) start() { r.buf, r.on = r.buf[:0], true }

func (r *recorder) stop() []byte {
	r.on = false
	return r.buf
}

// Read implements io.Reader for archive/tar.
func (r *recorder) Read(p []byte) (int, error) {
	if r.on {
		room := r.limit - len(r.buf)
		if room <= 0 {
			r.overflow = true
			return 0, ErrTooLarge
		}
		p = p[:min(len(p), room)]
	}
	n, err := r.r.Read(p)
	r.n += int64(n)
	if r.on {
		r.buf = append(r.buf, p[:n]...)
	}
	if err != nil && err != io.EOF {
		r.srcErr = err
	}
	return n, err
}
