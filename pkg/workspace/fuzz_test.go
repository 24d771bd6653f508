package workspace

import (
	"archive/tar"
	"bytes"
	"io"
	"path/filepath"
	"testing"
)

// FuzzValidate feeds arbitrary bytes to the validator. It must never panic,
// must only ever hand on a prefix of its input (all of it when it accepts),
// and every archive it accepts must, read independently with archive/tar,
// hold only local names and the allowed entry types.
func FuzzValidate(f *testing.F) {
	for _, tc := range badCases() {
		data, _ := buildTar(f, tc.entries...)
		f.Add(data)
	}
	valid, _ := buildTar(f, dirEntry("d/"), file("d/a", "hello"), symlink("d/l", "a"), hardlink("h", "d/a"))
	f.Add(valid)
	end := make([]byte, 1024)
	f.Add(cat(gnuLong(tar.TypeGNULongLink, "t"), gnuLong(tar.TypeGNULongName, "l"), rawHeader("l", tar.TypeSymlink, 0, "t"), end))
	f.Add(cat(paxHeader("path", "p"), rawHeader("x", tar.TypeReg, 0, ""), end))
	f.Add(cat(paxGlobal("comment", "c"), rawHeader("x", tar.TypeReg, 0, ""), end))
	f.Add(cat(gnuLong(tar.TypeGNULongName, "a"), paxHeader("path", "b"), rawHeader("x", tar.TypeReg, 0, ""), end))
	f.Add([]byte{})
	f.Add([]byte{0x1f, 0x8b, 8, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		lim := Limits{MaxBytes: 1 << 20, MaxFiles: 100, MaxDepth: 16, MaxFileBytes: 1 << 20}
		var out bytes.Buffer
		_, err := io.Copy(&out, NewValidatingReader(bytes.NewReader(data), lim))
		if !bytes.HasPrefix(data, out.Bytes()) {
			t.Fatalf("handed on bytes that are not a prefix of the input")
		}
		_, verr := Validate(bytes.NewReader(data), lim)
		if (err == nil) != (verr == nil) {
			t.Fatalf("streaming error %v but Validate error %v", err, verr)
		}
		if err != nil {
			return
		}
		if out.Len() != len(data) {
			t.Fatalf("accepted but handed on %d of %d bytes", out.Len(), len(data))
		}
		checkAccepted(t, data)
	})
}

// checkAccepted re-reads an accepted archive with archive/tar alone.
func checkAccepted(t *testing.T, data []byte) {
	tr := tar.NewReader(bytes.NewReader(data))
	for {
		hdr, err := tr.Next()
		if err != nil {
			return
		}
		switch hdr.Typeflag {
		case tar.TypeReg, tar.TypeDir, tar.TypeSymlink, tar.TypeLink, tar.TypeXGlobalHeader:
		default:
			t.Fatalf("accepted entry %q of type %q", hdr.Name, hdr.Typeflag)
		}
		if hdr.Typeflag != tar.TypeXGlobalHeader && !filepath.IsLocal(hdr.Name) && filepath.Clean(hdr.Name) != "." {
			t.Fatalf("accepted non-local name %q", hdr.Name)
		}
		if hdr.Typeflag == tar.TypeSymlink && (filepath.IsAbs(hdr.Linkname) || hdr.Linkname == "") {
			t.Fatalf("accepted symlink %q -> %q", hdr.Name, hdr.Linkname)
		}
	}
}
