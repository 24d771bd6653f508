package gocache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// goEntry is an index entry as the go command writes it
// (cmd/go/internal/cache.putIndexEntry: "v1 %x %x %20d %20d\n"), built
// without the format string under test.
func goEntry(action, output [hashSize]byte, size, nano int64) []byte {
	var b bytes.Buffer
	b.WriteString("v1 ")
	b.WriteString(hex.EncodeToString(action[:]))
	b.WriteString(" ")
	b.WriteString(hex.EncodeToString(output[:]))
	b.WriteString(" ")
	b.WriteString(padLeft(size))
	b.WriteString(" ")
	b.WriteString(padLeft(nano))
	b.WriteString("\n")
	return b.Bytes()
}

// padLeft is n in decimal, space-padded on the left to 20 bytes.
func padLeft(n int64) string {
	s := strconv.FormatInt(n, 10)
	return strings.Repeat(" ", 20-len(s)) + s
}

func TestParseEntry(t *testing.T) {
	action, output := sha256.Sum256([]byte("action")), sha256.Sum256([]byte("output"))
	good := goEntry(action, output, 1234, 1700000000123456789)
	replace := func(at int, with string) []byte {
		b := bytes.Clone(good)
		copy(b[at:], with)
		return b
	}
	cases := []struct {
		name string
		in   []byte
		ok   bool
	}{
		{"as the go command writes it", good, true},
		{"empty", nil, false},
		{"one byte short", good[:len(good)-1], false},
		{"one byte long", append(bytes.Clone(good), ' '), false},
		{"another version", replace(1, "2"), false},
		{"a separator missing", replace(3+64, "x"), false},
		{"no newline", replace(len(good)-1, " "), false},
		{"bad hex in the action", replace(3, "zz"), false},
		{"bad hex in the output", replace(3+65, "zz"), false},
		{"negative size", replace(3+65+65, strings.Repeat(" ", 18)+"-1"), false},
		{"size not a number", replace(3+65+65, strings.Repeat(" ", 19)+"x"), false},
		{"negative time", replace(3+65+65+21, strings.Repeat(" ", 18)+"-5"), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e, err := parseEntry(tc.in)
			if tc.ok != (err == nil) {
				t.Fatalf("parseEntry: err %v, want ok=%v", err, tc.ok)
			}
			if !tc.ok {
				if !errors.Is(err, errBadEntry) {
					t.Errorf("err %v is not errBadEntry", err)
				}
				return
			}
			if e.action != action || e.output != output || e.size != 1234 || e.time.UnixNano() != 1700000000123456789 {
				t.Errorf("parsed %+v", e)
			}
			if got := e.format(); !bytes.Equal(got, tc.in) {
				t.Errorf("format:\n%q\nwant\n%q", got, tc.in)
			}
		})
	}
}

func TestReadEntry(t *testing.T) {
	action, other := sha256.Sum256([]byte("a")), sha256.Sum256([]byte("b"))
	output := sha256.Sum256([]byte("out"))
	cases := []struct {
		name    string
		content []byte // nil: no file
		ok      bool
	}{
		{"present", entry{action, output, 3, time.Unix(0, 42)}.format(), true},
		{"missing", nil, false},
		{"names another action", entry{other, output, 3, time.Unix(0, 42)}.format(), false},
		{"too long", append(entry{action, output, 3, time.Unix(0, 42)}.format(), '\n'), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.content != nil {
				path := fileName(dir, action, "a")
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, tc.content, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			e, err := readEntry(dir, action)
			if tc.ok != (err == nil) {
				t.Fatalf("readEntry: %v, want ok=%v", err, tc.ok)
			}
			if tc.ok && (e.output != output || e.size != 3) {
				t.Errorf("read %+v", e)
			}
		})
	}
}

func TestFileName(t *testing.T) {
	id := sha256.Sum256(nil) // e3b0c442...
	got := fileName("/c", id, "d")
	want := "/c/e3/e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855-d"
	if got != want {
		t.Errorf("fileName = %s, want %s", got, want)
	}
}
