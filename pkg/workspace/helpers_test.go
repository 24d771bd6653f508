package workspace

import (
	"archive/tar"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
)

// writeTree creates files (path → content) under dir; a path ending in "/"
// is an empty directory.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if name[len(name)-1] == '/' {
			mustDo(t, os.MkdirAll(p, 0o755))
			continue
		}
		mustDo(t, os.MkdirAll(filepath.Dir(p), 0o755))
		mustDo(t, os.WriteFile(p, []byte(content), 0o644))
	}
}

func mustDo(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// git runs the real git binary in dir with a fixed identity.
func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	base := []string{"-c", "user.email=test@example.com", "-c", "user.name=Test",
		"-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"}
	cmd := exec.Command("git", append(base, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// pack packs dir and returns the tar bytes, the digest and the stats.
func pack(t *testing.T, dir string, opts PackOptions) ([]byte, Digest, PackStats) {
	t.Helper()
	var buf bytes.Buffer
	d, st, err := PackDigest(context.Background(), dir, &buf, opts)
	if err != nil {
		t.Fatalf("pack %s: %v", dir, err)
	}
	return buf.Bytes(), d, st
}

// tarNames lists the entry names of a tar, in archive order.
func tarNames(t *testing.T, data []byte) []string {
	t.Helper()
	var names []string
	tr := tar.NewReader(bytes.NewReader(data))
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return names
		}
		if err != nil {
			t.Fatalf("reading tar: %v", err)
		}
		names = append(names, hdr.Name)
	}
}

// tarHeaders maps entry names to headers.
func tarHeaders(t *testing.T, data []byte) map[string]*tar.Header {
	t.Helper()
	out := make(map[string]*tar.Header)
	tr := tar.NewReader(bytes.NewReader(data))
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("reading tar: %v", err)
		}
		out[hdr.Name] = hdr
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// tentry is one entry of a crafted archive. raw, when set, is written
// verbatim instead of the header (for what archive/tar refuses to write).
type tentry struct {
	hdr  tar.Header
	body string
	raw  []byte
}

func file(name, body string) tentry {
	return tentry{hdr: tar.Header{Name: name, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(body))}, body: body}
}

func dirEntry(name string) tentry {
	return tentry{hdr: tar.Header{Name: name, Typeflag: tar.TypeDir, Mode: 0o755}}
}

func symlink(name, target string) tentry {
	return tentry{hdr: tar.Header{Name: name, Typeflag: tar.TypeSymlink, Linkname: target, Mode: 0o777}}
}

func hardlink(name, target string) tentry {
	return tentry{hdr: tar.Header{Name: name, Typeflag: tar.TypeLink, Linkname: target, Mode: 0o644}}
}

func special(name string, flag byte) tentry {
	return tentry{hdr: tar.Header{Name: name, Typeflag: flag, Mode: 0o644, Devmajor: 1, Devminor: 3}}
}

// buildTar writes entries and returns the archive and the byte offset at
// which each entry's header (extension headers included) starts.
func buildTar(t testing.TB, entries ...tentry) ([]byte, []int) {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	offsets := make([]int, len(entries))
	for i, e := range entries {
		mustDo(t, tw.Flush())
		offsets[i] = buf.Len()
		if e.raw != nil {
			buf.Write(e.raw)
			continue
		}
		mustDo(t, tw.WriteHeader(&e.hdr))
		if _, err := io.WriteString(tw, e.body); err != nil {
			t.Fatal(err)
		}
	}
	mustDo(t, tw.Close())
	return buf.Bytes(), offsets
}

// rawHeader builds a 512-byte ustar header by hand, with a correct
// checksum, for headers archive/tar would not write.
func rawHeader(name string, flag byte, size int64, linkname string) []byte {
	b := make([]byte, 512)
	copy(b[0:100], name)
	copy(b[100:108], "0000644\x00")
	copy(b[108:116], "0000000\x00")
	copy(b[116:124], "0000000\x00")
	copy(b[124:136], octal(size, 12))
	copy(b[136:148], octal(0, 12))
	b[156] = flag
	copy(b[157:257], linkname)
	copy(b[257:263], "ustar\x00")
	copy(b[263:265], "00")
	copy(b[148:156], "        ")
	var sum int64
	for _, c := range b {
		sum += int64(c)
	}
	copy(b[148:156], octal(sum, 7)+" ")
	return b
}

// gnuHeader turns a rawHeader into an old-GNU-format header (the format of
// GNU sparse entries), fixing the checksum.
func gnuHeader(b []byte) []byte {
	copy(b[257:265], "ustar  \x00")
	copy(b[148:156], "        ")
	var sum int64
	for _, c := range b {
		sum += int64(c)
	}
	copy(b[148:156], octal(sum, 7)+" ")
	return b
}

func octal(v int64, width int) string {
	s := []byte{}
	for i := 0; i < width-1; i++ {
		s = append([]byte{byte('0' + v&7)}, s...)
		v >>= 3
	}
	return string(s) + "\x00"
}
