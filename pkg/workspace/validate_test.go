package workspace

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

// badCase is an archive that must be refused at entry bad (index into
// entries), with an error wrapping want whose message names name.
type badCase struct {
	name    string
	entries []tentry
	lim     Limits
	bad     int
	want    error
	entry   string // expected EntryError.Name; "" when the header is unparseable
}

func badCases() []badCase {
	long := strings.Repeat("d/", 60) + "x"
	sparse := gnuHeader(rawHeader("sparse", tar.TypeGNUSparse, 0, ""))
	return []badCase{
		{name: "dotdot", entries: []tentry{file("ok", "1"), file("../x", "evil")}, bad: 1, want: ErrUnsafeEntry, entry: "../x"},
		{name: "dotdot inside", entries: []tentry{file("a/../../x", "evil")}, want: ErrUnsafeEntry, entry: "a/../../x"},
		{name: "absolute", entries: []tentry{dirEntry("d/"), file("/abs", "evil")}, bad: 1, want: ErrUnsafeEntry, entry: "/abs"},
		{name: "long dotdot name via PAX", entries: []tentry{file("ok", "1"), file("../"+long, "evil")}, bad: 1, want: ErrUnsafeEntry, entry: "../" + long},
		{name: "hard link outside", entries: []tentry{file("f", "1"), hardlink("h", "../etc/passwd")}, bad: 1, want: ErrUnsafeEntry, entry: "h"},
		{name: "hard link absolute", entries: []tentry{hardlink("h", "/etc/passwd")}, want: ErrUnsafeEntry, entry: "h"},
		{name: "hard link to unknown", entries: []tentry{file("f", "1"), hardlink("h", "nothere")}, bad: 1, want: ErrUnsafeEntry, entry: "h"},
		{name: "hard link to directory", entries: []tentry{dirEntry("d/"), hardlink("h", "d")}, bad: 1, want: ErrUnsafeEntry, entry: "h"},
		{name: "hard link to later file", entries: []tentry{hardlink("h", "f"), file("f", "1")}, want: ErrUnsafeEntry, entry: "h"},
		{name: "symlink absolute", entries: []tentry{symlink("s", "/etc")}, want: ErrUnsafeEntry, entry: "s"},
		{name: "symlink relative out", entries: []tentry{dirEntry("a/"), symlink("a/s", "../../x")}, bad: 1, want: ErrUnsafeEntry, entry: "a/s"},
		{name: "symlink out then file through it", entries: []tentry{symlink("a", "../x"), file("a/passwd", "evil")}, want: ErrUnsafeEntry, entry: "a"},
		{name: "symlink then file through it", entries: []tentry{dirEntry("sub/"), symlink("a", "sub"), file("a/passwd", "evil")}, bad: 2, want: ErrUnsafeEntry, entry: "a/passwd"},
		{name: "dir/link to dot then through it", entries: []tentry{dirEntry("dir/"), symlink("dir/link", "."), file("dir/link/x", "1")}, bad: 2, want: ErrUnsafeEntry, entry: "dir/link/x"},
		{name: "link to dot then dotdot through it", entries: []tentry{symlink("p", "."), symlink("q", "p/..")}, bad: 1, want: ErrUnsafeEntry, entry: "q"},
		{name: "empty symlink target", entries: []tentry{symlink("s", "")}, want: ErrUnsafeEntry, entry: "s"},
		{name: "char device", entries: []tentry{file("a", "1"), special("dev/null", tar.TypeChar)}, bad: 1, want: ErrUnsafeEntry, entry: "dev/null"},
		{name: "block device", entries: []tentry{special("sda", tar.TypeBlock)}, want: ErrUnsafeEntry, entry: "sda"},
		{name: "fifo", entries: []tentry{special("pipe", tar.TypeFifo)}, want: ErrUnsafeEntry, entry: "pipe"},
		{name: "sparse", entries: []tentry{{raw: sparse}}, want: ErrUnsafeEntry, entry: "sparse"},
		{name: "symlink carrying data", entries: []tentry{file("a", "1"), {raw: append(rawHeader("s", tar.TypeSymlink, 512, "a"), make([]byte, 512)...)}}, bad: 1, want: ErrUnsafeEntry, entry: "s"},
		{name: "xattr record", entries: []tentry{{hdr: tar.Header{Name: "x", Typeflag: tar.TypeReg, Format: tar.FormatPAX,
			PAXRecords: map[string]string{"SCHILY.xattr.security.capability": "v"}}}}, want: ErrUnsafeEntry, entry: "x"},
		{name: "file over per-file limit", entries: []tentry{file("small", "1234"), file("big", strings.Repeat("x", 11))}, lim: Limits{MaxFileBytes: 10}, bad: 1, want: ErrTooLarge, entry: "big"},
		{name: "over total size", entries: []tentry{file("a", strings.Repeat("x", 10)), file("b", strings.Repeat("x", 10))}, lim: Limits{MaxBytes: 15}, bad: 1, want: ErrTooLarge, entry: "b"},
		{name: "over file count", entries: []tentry{file("a", "1"), dirEntry("d/"), file("d/c", "3")}, lim: Limits{MaxFiles: 2}, bad: 2, want: ErrTooManyFiles, entry: "d/c"},
		{name: "too deep", entries: []tentry{file("a/b/c", "1"), file("a/b/c2/d", "1")}, lim: Limits{MaxDepth: 3}, bad: 1, want: ErrUnsafeEntry, entry: "a/b/c2/d"},
		{name: "file then dir of same name", entries: []tentry{file("x", "1"), dirEntry("x/")}, bad: 1, want: ErrUnsafeEntry, entry: "x/"},
		{name: "dir then symlink of same name", entries: []tentry{dirEntry("d/"), symlink("d", ".")}, bad: 1, want: ErrUnsafeEntry, entry: "d"},
		{name: "implied dir then symlink", entries: []tentry{file("a/b", "1"), symlink("a", ".")}, bad: 1, want: ErrUnsafeEntry, entry: "a"},
		{name: "entry under a file", entries: []tentry{file("f", "1"), file("f/x", "1")}, bad: 1, want: ErrUnsafeEntry, entry: "f/x"},
		{name: "root as a file", entries: []tentry{file(".", "")}, want: ErrUnsafeEntry, entry: "."},
		{name: "NUL in PAX path", entries: []tentry{file("ok", "1"), {raw: paxWithNUL()}}, bad: 1, want: ErrMalformed},
	}
}

// paxWithNUL is a PAX extended header whose path record holds a NUL, which
// archive/tar refuses to write, followed by the file it describes.
func paxWithNUL() []byte {
	rec := "a\x00b"
	line := " path=" + rec + "\n"
	n := len(line) + 2
	line = strconv.Itoa(n) + line
	body := make([]byte, 512)
	copy(body, line)
	out := rawHeader("PaxHeaders/x", tar.TypeXHeader, int64(len(line)), "")
	out = append(out, body...)
	return append(out, rawHeader("x", tar.TypeReg, 0, "")...)
}

func TestValidateRefusesBadEntries(t *testing.T) {
	for _, tc := range badCases() {
		t.Run(tc.name, func(t *testing.T) {
			data, offsets := buildTar(t, tc.entries...)
			_, err := Validate(bytes.NewReader(data), tc.lim)
			checkRefusal(t, err, tc)

			// The streaming form must hand on a prefix of the archive that
			// stops before the bad entry's header, whatever the read size.
			for _, size := range []int{1, 7, 512, 64 << 10} {
				var got bytes.Buffer
				_, err := io.CopyBuffer(&got, struct{ io.Reader }{NewValidatingReader(bytes.NewReader(data), tc.lim)}, make([]byte, size))
				checkRefusal(t, err, tc)
				if !bytes.HasPrefix(data, got.Bytes()) {
					t.Fatalf("read size %d: delivered bytes are not a prefix of the archive", size)
				}
				if got.Len() > offsets[tc.bad] {
					t.Fatalf("read size %d: delivered %d bytes, past the bad header at %d", size, got.Len(), offsets[tc.bad])
				}
			}
		})
	}
}

func checkRefusal(t *testing.T, err error, tc badCase) {
	t.Helper()
	if !errors.Is(err, tc.want) {
		t.Fatalf("error = %v, want %v", err, tc.want)
	}
	var ee *EntryError
	if !errors.As(err, &ee) {
		t.Fatalf("error %v is not an *EntryError", err)
	}
	if ee.Name != tc.entry {
		t.Fatalf("EntryError.Name = %q, want %q (%v)", ee.Name, tc.entry, err)
	}
	if tc.entry != "" && !strings.Contains(err.Error(), tc.entry) {
		t.Fatalf("message %q does not name %q", err.Error(), tc.entry)
	}
	if tc.entry == "" && ee.Index != tc.bad+1 {
		t.Fatalf("EntryError.Index = %d, want %d (%v)", ee.Index, tc.bad+1, err)
	}
}

func TestValidateRefusesCompressedInput(t *testing.T) {
	valid, _ := buildTar(t, file("a", "hello"))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write(valid)
	mustDo(t, zw.Close())
	cases := []struct {
		name   string
		data   []byte
		format string
	}{
		{"gzip", gz.Bytes(), "gzip"},
		{"bzip2", append([]byte("BZh91AY&SY"), make([]byte, 600)...), "bzip2"},
		{"xz", append([]byte{0xfd, '7', 'z', 'X', 'Z', 0}, make([]byte, 600)...), "xz"},
		{"zstd", append([]byte{0x28, 0xb5, 0x2f, 0xfd}, make([]byte, 10)...), "zstd"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got bytes.Buffer
			_, err := io.Copy(&got, NewValidatingReader(bytes.NewReader(tc.data), Limits{}))
			if !errors.Is(err, ErrCompressed) || !strings.Contains(err.Error(), tc.format) {
				t.Fatalf("error = %v, want ErrCompressed naming %s", err, tc.format)
			}
			if got.Len() != 0 {
				t.Fatalf("%d bytes of compressed input were handed on", got.Len())
			}
		})
	}
}

func TestValidatingReaderPassesValidTarUnchanged(t *testing.T) {
	long := strings.Repeat("long-directory-name/", 8) + "file.txt"
	data, _ := buildTar(t,
		dirEntry("./"),
		dirEntry("src/"),
		file("src/main.go", strings.Repeat("package main\n", 100)),
		file("empty", ""),
		file(long, "deep"),
		symlink("src/link", "main.go"),
		symlink("up", "src/../src"[:3]),
		symlink("src/parent", "../empty"),
		hardlink("hard", "src/main.go"),
		file("src/main.go", "overwritten later, same kind"),
		tentry{hdr: tar.Header{Name: "pax_global_header", Typeflag: tar.TypeXGlobalHeader, PAXRecords: map[string]string{"comment": "abc"}}},
		file("after-global", "x"),
	)
	data = append(data, make([]byte, 10240-len(data)%10240)...) // record padding, as GNU tar writes
	for _, r := range []struct {
		name string
		r    io.Reader
	}{
		{"whole", bytes.NewReader(data)},
		{"one byte", iotest.OneByteReader(bytes.NewReader(data))},
		{"half", iotest.HalfReader(bytes.NewReader(data))},
		{"data with EOF", iotest.DataErrReader(bytes.NewReader(data))},
	} {
		t.Run(r.name, func(t *testing.T) {
			vr := NewValidatingReader(r.r, Limits{})
			got, err := io.ReadAll(vr)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, data) {
				t.Fatalf("passed %d bytes, want the %d input bytes unchanged", len(got), len(data))
			}
			st := vr.Stats()
			want := Stats{Entries: 11, Files: 5, Dirs: 2, Symlinks: 3, HardLinks: 1, Bytes: st.Bytes, TarBytes: int64(len(data))}
			if st != want {
				t.Fatalf("stats = %+v, want %+v", st, want)
			}
		})
	}
}

func TestValidateRefusesTrailingGarbageAndTruncation(t *testing.T) {
	data, _ := buildTar(t, file("a", strings.Repeat("x", 1000)))
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"garbage after end", append(append([]byte{}, data...), []byte("hidden")...), "after the end-of-archive"},
		{"truncated content", data[:700], "truncated"},
		{"truncated header", data[:300], "truncated"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Validate(bytes.NewReader(tc.data), Limits{})
			if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want ErrMalformed mentioning %q", err, tc.want)
			}
		})
	}
}

func TestValidateBoundsExtensionHeaderChains(t *testing.T) {
	// Many PAX headers before one entry: archive/tar accepts any number,
	// the validating reader must not buffer them all.
	var raw []byte
	line := "30 comment=" + strings.Repeat("c", 18) + "\n"
	for len(raw) < maxHeaderBytes+4096 {
		body := make([]byte, 512)
		copy(body, line)
		raw = append(raw, rawHeader("PaxHeaders/x", tar.TypeXHeader, int64(len(line)), "")...)
		raw = append(raw, body...)
	}
	raw = append(raw, rawHeader("x", tar.TypeReg, 0, "")...)
	_, err := Validate(bytes.NewReader(raw), Limits{})
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("error = %v, want ErrTooLarge", err)
	}
}

func TestValidateSourceErrorIsKept(t *testing.T) {
	boom := errors.New("connection reset")
	data, _ := buildTar(t, file("a", strings.Repeat("x", 4000)))
	r := io.MultiReader(bytes.NewReader(data[:1000]), iotest.ErrReader(boom))
	_, err := Validate(r, Limits{})
	if !errors.Is(err, boom) {
		t.Fatalf("error = %v, want the source's error", err)
	}
}

func TestLimitsDefaultsAndUnlimited(t *testing.T) {
	data, _ := buildTar(t, file("a", strings.Repeat("x", 100)), file("b/c/d", "1"))
	if _, err := Validate(bytes.NewReader(data), Limits{MaxBytes: -1, MaxFiles: -1, MaxDepth: -1, MaxFileBytes: -1}); err != nil {
		t.Fatalf("unlimited: %v", err)
	}
	if got := (Limits{}).withDefaults(); got != DefaultLimits() {
		t.Fatalf("zero limits = %+v, want defaults %+v", got, DefaultLimits())
	}
}
