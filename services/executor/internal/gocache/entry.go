package gocache

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"time"
)

// hashSize is the size of action and output IDs (sha256).
const hashSize = 32

// entrySize is the exact size of an index entry file, as the go command
// writes it (cmd/go/internal/cache: "v1 <action hex> <output hex>
// <size, space-padded to 20> <unixnano, space-padded to 20>\n").
const entrySize = 2 + 1 + 2*hashSize + 1 + 2*hashSize + 1 + 20 + 1 + 20 + 1

// entry is one index entry: the output an action produced.
type entry struct {
	action [hashSize]byte
	output [hashSize]byte
	size   int64
	time   time.Time
}

// errBadEntry marks an index entry the go command would not accept either.
var errBadEntry = errors.New("invalid index entry")

// fileName is where id's file of the given kind ("a" for the index entry,
// "d" for content) lies in the cache directory dir.
func fileName(dir string, id [hashSize]byte, kind string) string {
	return filepath.Join(dir, hex.EncodeToString(id[:1]), hex.EncodeToString(id[:])+"-"+kind)
}

// format renders e exactly as the go command writes it.
func (e entry) format() []byte {
	return fmt.Appendf(nil, "v1 %x %x %20d %20d\n", e.action, e.output, e.size, e.time.UnixNano())
}

// parseEntry parses an index entry the way the go command does, refusing
// anything it would refuse (other sizes, bad separators, bad hex, negative
// numbers).
func parseEntry(b []byte) (entry, error) {
	var e entry
	if len(b) != entrySize {
		return e, fmt.Errorf("%w: %d bytes, want %d", errBadEntry, len(b), entrySize)
	}
	const (
		outAt  = 3 + 2*hashSize + 1
		sizeAt = outAt + 2*hashSize + 1
		timeAt = sizeAt + 21
	)
	if !bytes.HasPrefix(b, []byte("v1 ")) || b[outAt-1] != ' ' || b[sizeAt-1] != ' ' || b[timeAt-1] != ' ' || b[entrySize-1] != '\n' {
		return e, fmt.Errorf("%w: bad header", errBadEntry)
	}
	if _, err := hex.Decode(e.action[:], b[3:outAt-1]); err != nil {
		return e, fmt.Errorf("%w: action ID: %v", errBadEntry, err)
	}
	if _, err := hex.Decode(e.output[:], b[outAt:sizeAt-1]); err != nil {
		return e, fmt.Errorf("%w: output ID: %v", errBadEntry, err)
	}
	size, err := paddedInt(b[sizeAt : timeAt-1])
	if err != nil {
		return e, fmt.Errorf("%w: size: %v", errBadEntry, err)
	}
	nano, err := paddedInt(b[timeAt : entrySize-1])
	if err != nil {
		return e, fmt.Errorf("%w: time: %v", errBadEntry, err)
	}
	e.size, e.time = size, time.Unix(0, nano)
	return e, nil
}

// paddedInt parses a left-space-padded non-negative decimal.
func paddedInt(b []byte) (int64, error) {
	n, err := strconv.ParseInt(string(bytes.TrimLeft(b, " ")), 10, 64)
	if err == nil && n < 0 {
		err = errors.New("negative")
	}
	return n, err
}

// readEntry reads and parses the index entry of action in dir, checking
// that it names that action.
func readEntry(dir string, action [hashSize]byte) (entry, error) {
	f, err := openRegular(fileName(dir, action, "a"))
	if err != nil {
		return entry{}, err
	}
	defer f.Close()
	buf := make([]byte, entrySize+1) // one more, to see a file too long
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return entry{}, err
	}
	e, err := parseEntry(buf[:n])
	if err != nil {
		return entry{}, err
	}
	if e.action != action {
		return entry{}, fmt.Errorf("%w: names action %x", errBadEntry, e.action)
	}
	return e, nil
}
