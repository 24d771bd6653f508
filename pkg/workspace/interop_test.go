package workspace

import (
	"archive/tar"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestValidateAcceptsRealTools validates archives written by GNU tar (in
// each of its formats) and git archive: real snapshots must pass.
func TestValidateAcceptsRealTools(t *testing.T) {
	dir := t.TempDir()
	makeSample(t, dir, 0o644, 0o022)
	mustDo(t, os.Link(filepath.Join(dir, "README.md"), filepath.Join(dir, "hard.md")))
	deep := filepath.Join(dir, strings.Repeat("very-long-directory-name/", 7))
	writeTree(t, deep, map[string]string{strings.Repeat("n", 150) + ".txt": "long\n"})
	run := func(dir string, args ...string) []byte {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return out
	}
	cases := map[string][]byte{}
	for _, format := range []string{"gnu", "posix", "oldgnu"} {
		cases["tar "+format] = run(dir, "tar", "--format="+format, "-cf", "-", ".")
	}
	repo := t.TempDir()
	makeSample(t, repo, 0o644, 0o022)
	git(t, repo, "init", "-q")
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "x")
	cases["git archive"] = run(repo, "git", "archive", "--format=tar", "HEAD")

	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			st, err := Validate(bytes.NewReader(data), Limits{})
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if st.Files < 5 || st.TarBytes != int64(len(data)) {
				t.Fatalf("stats = %+v", st)
			}
		})
	}
}

// TestValidateRefusesParserDifferentials covers headers that archive/tar
// and GNU tar (the sandbox's extractor) would read differently.
func TestValidateRefusesParserDifferentials(t *testing.T) {
	star := rawHeader("x", tar.TypeReg, 0, "")
	copy(star[345:], strings.Repeat("p", 131))
	copy(star[508:], "tar\x00")
	star = rechecksum(star)
	cases := []struct {
		name   string
		raw    []byte
		reason string
	}{
		{"GNU long name and PAX path", cat(gnuLong(tar.TypeGNULongName, "safe"), paxHeader("path", "../../evil"), rawHeader("x", tar.TypeReg, 0, "")), "both PAX and GNU"},
		{"two PAX headers", cat(paxHeader("path", "a"), paxHeader("path", "b"), rawHeader("x", tar.TypeReg, 0, "")), "repeated"},
		{"two GNU long names", cat(gnuLong(tar.TypeGNULongName, "a"), gnuLong(tar.TypeGNULongName, "b"), rawHeader("x", tar.TypeReg, 0, "")), "repeated"},
		{"star prefix", star, "star-format"},
		{"global path record", cat(paxGlobal("path", "evil"), rawHeader("x", tar.TypeReg, 0, "")), `global PAX record "path"`},
		{"vendor record", cat(paxHeader("RHT.security.selinux", "system_u"), rawHeader("x", tar.TypeReg, 0, "")), `"RHT.security.selinux"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data := append(append([]byte{}, tc.raw...), make([]byte, 1024)...)
			_, err := Validate(bytes.NewReader(data), Limits{})
			var ee *EntryError
			if !errors.Is(err, ErrUnsafeEntry) || !errors.As(err, &ee) || !strings.Contains(err.Error(), tc.reason) {
				t.Fatalf("error = %v, want ErrUnsafeEntry mentioning %q", err, tc.reason)
			}
		})
	}

	// Sanity: the same building blocks, used alone, are accepted, and a
	// USTAR prefix is joined as both parsers join it.
	prefixed := rawHeader("x", tar.TypeReg, 0, "")
	copy(prefixed[345:], "pre/fix")
	for _, raw := range [][]byte{
		cat(gnuLong(tar.TypeGNULongName, "long"), rawHeader("x", tar.TypeReg, 0, "")),
		cat(gnuLong(tar.TypeGNULongLink, "target"), gnuLong(tar.TypeGNULongName, "link"), rawHeader("l", tar.TypeSymlink, 0, "t")),
		cat(paxHeader("path", "from-pax"), rawHeader("x", tar.TypeReg, 0, "")),
		cat(paxGlobal("comment", "abc"), rawHeader("x", tar.TypeReg, 0, "")),
		rechecksum(prefixed),
	} {
		st, err := Validate(bytes.NewReader(append(raw, make([]byte, 1024)...)), Limits{})
		if err != nil || st.Entries != 1 {
			t.Fatalf("accepted-form refused: %v (%+v)", err, st)
		}
	}
	v := NewValidatingReader(bytes.NewReader(append(rechecksum(prefixed), make([]byte, 1024)...)), Limits{})
	if _, err := bytes.NewBuffer(nil).ReadFrom(v); err != nil || v.chk.seen["pre/fix/x"] != kindFile {
		t.Fatalf("prefix not joined: %v %v", err, v.chk.seen)
	}
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// padded returns data padded to whole blocks.
func padded(data []byte) []byte {
	return append(data, make([]byte, -len(data)&511)...)
}

func gnuLong(flag byte, name string) []byte {
	body := name + "\x00"
	return cat(gnuHeader(rawHeader("././@LongLink", flag, int64(len(body)), "")), padded([]byte(body)))
}

func paxRecord(key, value string) string {
	rec := " " + key + "=" + value + "\n"
	n := len(rec) + 1
	for len(rec)+len(strconv.Itoa(n)) != n {
		n = len(rec) + len(strconv.Itoa(n))
	}
	return strconv.Itoa(n) + rec
}

func paxHeader(key, value string) []byte {
	body := paxRecord(key, value)
	return cat(rawHeader("PaxHeaders/x", tar.TypeXHeader, int64(len(body)), ""), padded([]byte(body)))
}

func paxGlobal(key, value string) []byte {
	body := paxRecord(key, value)
	return cat(rawHeader("GlobalHead", tar.TypeXGlobalHeader, int64(len(body)), ""), padded([]byte(body)))
}

// rechecksum recomputes a raw header's checksum after an edit.
func rechecksum(b []byte) []byte {
	copy(b[148:156], "        ")
	var sum int64
	for _, c := range b {
		sum += int64(c)
	}
	copy(b[148:156], octal(sum, 7)+" ")
	return b
}
