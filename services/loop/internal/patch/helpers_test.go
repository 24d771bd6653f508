package patch

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/pkg/workspace"
)

// tree describes a workspace: path → content. A content starting with
// "-> " is a symlink target; a path ending in "*" is an executable file
// (the "*" is not part of the name).
type tree map[string]string

// writeTree creates the tree under dir.
func writeTree(t *testing.T, dir string, files tree) {
	t.Helper()
	for name, content := range files {
		mode := os.FileMode(0o644)
		if strings.HasSuffix(name, "*") {
			name, mode = strings.TrimSuffix(name, "*"), 0o755
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		if target, ok := strings.CutPrefix(content, "-> "); ok {
			must(t, os.Symlink(target, p))
			continue
		}
		must(t, os.WriteFile(p, []byte(content), mode))
	}
}

// snapshot packs a tree with the real workspace.Pack and returns the tar.
func snapshot(t *testing.T, files tree) []byte {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, files)
	var buf bytes.Buffer
	if _, err := workspace.Pack(context.Background(), dir, &buf, workspace.PackOptions{NoGit: true}); err != nil {
		t.Fatalf("pack: %v", err)
	}
	return buf.Bytes()
}

// readTar returns a tar's files as a tree ("*" marks executables, "-> "
// symlinks); directories are left out.
func readTar(t *testing.T, r io.Reader) tree {
	t.Helper()
	out := tree{}
	tr := tar.NewReader(r)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return out
		}
		must(t, err)
		switch hdr.Typeflag {
		case tar.TypeDir:
		case tar.TypeSymlink:
			out[hdr.Name] = "-> " + hdr.Linkname
		default:
			b, err := io.ReadAll(tr)
			must(t, err)
			name := hdr.Name
			if hdr.Mode&0o111 != 0 {
				name += "*"
			}
			out[name] = string(b)
		}
	}
}

// applyOK parses and applies reply to files and returns the new tree and
// the result (closed at the end of the test).
func applyOK(t *testing.T, files tree, reply string, g Guardrails) (tree, *Result) {
	t.Helper()
	p, err := Parse(reply)
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, reply)
	}
	res, err := Apply(context.Background(), bytes.NewReader(snapshot(t, files)), p, Options{Guardrails: g, TempDir: t.TempDir()})
	if err != nil {
		t.Fatalf("apply: %v\n%s", err, reply)
	}
	t.Cleanup(func() { res.Close() })
	f, err := res.Open()
	must(t, err)
	defer f.Close()
	return readTar(t, f), res
}

// applyErr parses and applies reply and returns the error, checking that
// the snapshot file passed in was not modified and that no work
// directory was left behind.
func applyErr(t *testing.T, files tree, reply string, g Guardrails) error {
	t.Helper()
	p, err := Parse(reply)
	if err != nil {
		return err
	}
	return applyParsedErr(t, snapshot(t, files), p, g)
}

// applyParsedErr applies p to the snapshot bytes through a file and
// returns the error, checking the file is unchanged and nothing is left.
func applyParsedErr(t *testing.T, snap []byte, p *Patch, g Guardrails) error {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "snapshot.tar")
	must(t, os.WriteFile(path, snap, 0o444))
	before := fileDigest(t, path)
	f, err := os.Open(path)
	must(t, err)
	defer f.Close()
	tmp := t.TempDir()
	res, err := Apply(context.Background(), f, p, Options{Guardrails: g, TempDir: tmp})
	if err == nil {
		res.Close()
		t.Fatalf("apply succeeded, want an error")
	}
	if after := fileDigest(t, path); after != before {
		t.Fatalf("snapshot changed: %s → %s", before, after)
	}
	left, _ := os.ReadDir(tmp)
	if len(left) != 0 {
		t.Fatalf("work directory left behind: %v", left)
	}
	return err
}

// fileDigest hashes a file.
func fileDigest(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	must(t, err)
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// refusal asserts err is a *Refusal of the given rule and returns it.
func refusal(t *testing.T, err error, rule Rule) *Refusal {
	t.Helper()
	var r *Refusal
	if !errors.As(err, &r) || !errors.Is(err, ErrRefused) {
		t.Fatalf("error %v is not a refusal", err)
	}
	if r.Rule != rule {
		t.Fatalf("refused by %s (%v), want %s", r.Rule, err, rule)
	}
	return r
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// run runs a real binary in dir; ok exit codes are listed (0 if none).
func run(t *testing.T, dir string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1 && (name == "diff" || (len(args) > 0 && args[0] == "diff"))) {
		t.Fatalf("%s %v: %v\n%s%s", name, args, err, out.String(), errb.String())
	}
	return out.String()
}

// packGit packs a git work tree with workspace.Pack (git mode).
func packGit(t *testing.T, dir string) []byte {
	t.Helper()
	var buf bytes.Buffer
	st, err := workspace.Pack(context.Background(), dir, &buf, workspace.PackOptions{})
	must(t, err)
	if st.Source != workspace.SourceGit {
		t.Fatalf("packed by %s, want git", st.Source)
	}
	return buf.Bytes()
}
