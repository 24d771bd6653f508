package workspace

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

var sampleTree = map[string]string{
	"README.md":            "# sample\n",
	"src/main.go":          "package main\n\nfunc main() {}\n",
	"src/lib/util.go":      "package lib\n",
	"scripts/run.sh":       "#!/bin/sh\necho hi\n",
	"empty/":               "",
	"docs/café ünïcode.md": "non-ASCII names need PAX\n",
	"docs/" + strings.Repeat("x", 120) + ".md": "long name needs PAX\n",
}

// makeSample creates sampleTree in dir with file permissions perm (plus an
// executable script and a symlink), after setting the process umask.
func makeSample(t *testing.T, dir string, perm os.FileMode, umask int) {
	t.Helper()
	old := syscall.Umask(umask)
	defer syscall.Umask(old)
	for _, name := range sortedKeys(sampleTree) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			mustDo(t, os.MkdirAll(p, 0o777))
			continue
		}
		mustDo(t, os.MkdirAll(filepath.Dir(p), 0o777))
		mustDo(t, os.WriteFile(p, []byte(sampleTree[name]), perm))
		mustDo(t, os.Chmod(p, perm))
	}
	mustDo(t, os.Chmod(filepath.Join(dir, "scripts/run.sh"), perm|0o100))
	mustDo(t, os.Symlink("lib/util.go", filepath.Join(dir, "src/link.go")))
}

func TestPackIsDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	makeSample(t, a, 0o644, 0o022)
	makeSample(t, b, 0o600, 0o077) // other permissions, other umask
	data1, d1, st := pack(t, a, PackOptions{})
	_, d2, _ := pack(t, a, PackOptions{})
	if d1 != d2 {
		t.Fatalf("same tree packed twice: %v then %v", d1, d2)
	}
	future := time.Now().Add(48 * time.Hour)
	mustDo(t, filepath.Walk(a, func(p string, info os.FileInfo, err error) error {
		mustDo(t, err)
		if info.Mode()&os.ModeSymlink != 0 {
			return nil
		}
		return os.Chtimes(p, future, future)
	}))
	if _, d3, _ := pack(t, a, PackOptions{}); d3 != d1 {
		t.Fatalf("touching mtimes changed the digest: %v then %v", d1, d3)
	}
	if _, d4, _ := pack(t, b, PackOptions{}); d4 != d1 {
		t.Fatalf("same tree with other modes/umask: %v, want %v", d4, d1)
	}
	if st.Source != SourceWalk || st.Files != 6 || st.Symlinks != 1 || st.Dirs != 5 {
		t.Fatalf("stats = %+v", st)
	}

	// The digest must really depend on the content and the executable bit.
	mustDo(t, os.Chmod(filepath.Join(b, "README.md"), 0o755))
	if _, d5, _ := pack(t, b, PackOptions{}); d5 == d1 {
		t.Fatal("setting an executable bit did not change the digest")
	}
	mustDo(t, os.WriteFile(filepath.Join(a, "README.md"), []byte("# changed\n"), 0o644))
	if _, d6, _ := pack(t, a, PackOptions{}); d6 == d1 {
		t.Fatal("changing a file did not change the digest")
	}

	// Normalized headers, sorted entries.
	names := tarNames(t, data1)
	if !slices.IsSorted(names) {
		t.Fatalf("entries not sorted: %v", names)
	}
	for name, h := range tarHeaders(t, data1) {
		wantMode := int64(0o644)
		switch {
		case strings.HasSuffix(name, "/"), name == "scripts/run.sh":
			wantMode = 0o755
		case name == "src/link.go":
			wantMode = 0o777
		}
		if h.Mode != wantMode || h.Uid != 0 || h.Gid != 0 || h.Uname != "" || h.Gname != "" || !h.ModTime.Equal(packTime) {
			t.Errorf("%s: mode %o uid %d gid %d uname %q gname %q mtime %v", name, h.Mode, h.Uid, h.Gid, h.Uname, h.Gname, h.ModTime)
		}
	}
	if _, err := Validate(bytes.NewReader(data1), Limits{}); err != nil {
		t.Fatalf("packed tar does not validate: %v", err)
	}
}

func TestPackGitWorkTree(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	writeTree(t, repo, map[string]string{
		".gitignore":       "ignored.txt\n*.log\nout/\n",
		"tracked.txt":      "tracked\n",
		"deleted.txt":      "will be deleted\n",
		"sub/file.go":      "package sub\n",
		"sub/gone/x.txt":   "dir will be deleted\n",
		"dirlink/real.txt": "dir replaced by a symlink\n",
	})
	mustDo(t, os.Symlink("tracked.txt", filepath.Join(repo, "link-in")))
	git(t, repo, "init", "-q")
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "initial")
	writeTree(t, repo, map[string]string{
		"ignored.txt":       "ignored\n",
		"debug.log":         "ignored by glob\n",
		"out/bin":           "ignored dir\n",
		"untracked.txt":     "untracked, not ignored\n",
		"sub/new.go":        "package sub\n",
		"outside/secret":    "must not be read through dirlink\n",
		"node_modules/a.js": "untracked and not ignored: git decides\n",
	})
	mustDo(t, os.Remove(filepath.Join(repo, "deleted.txt")))
	mustDo(t, os.RemoveAll(filepath.Join(repo, "sub/gone")))
	mustDo(t, os.Symlink("../outside-repo", filepath.Join(repo, "link-out")))
	mustDo(t, os.Symlink("/etc/passwd", filepath.Join(repo, "link-abs")))
	mustDo(t, os.RemoveAll(filepath.Join(repo, "dirlink")))
	mustDo(t, os.Symlink(filepath.Join(repo, "outside"), filepath.Join(repo, "dirlink")))
	writeTree(t, repo, map[string]string{"outside/real.txt": "through the link\n"})

	data, _, st := pack(t, repo, PackOptions{})
	want := []string{".gitignore", "link-in", "node_modules/", "node_modules/a.js", "outside/",
		"outside/real.txt", "outside/secret", "sub/", "sub/file.go", "sub/new.go", "tracked.txt", "untracked.txt"}
	if got := tarNames(t, data); !slices.Equal(got, want) {
		t.Fatalf("git pack entries:\n got %v\nwant %v", got, want)
	}
	if st.Source != SourceGit {
		t.Fatalf("source = %q, want git", st.Source)
	}
	skipped := map[string]string{}
	for _, s := range st.Skipped {
		skipped[s.Path] = s.Reason
	}
	for path, reason := range map[string]string{
		"deleted.txt":      "deleted",
		"sub/gone/x.txt":   "deleted",
		"link-out":         "outside the root",
		"link-abs":         "absolute",
		"dirlink/real.txt": "symlink",
	} {
		if !strings.Contains(skipped[path], reason) {
			t.Errorf("skipped[%q] = %q, want a reason mentioning %q (all: %v)", path, skipped[path], reason, st.Skipped)
		}
	}

	// A subdirectory of a repository packs as its own root.
	sub, _, _ := pack(t, filepath.Join(repo, "sub"), PackOptions{})
	if got := tarNames(t, sub); !slices.Equal(got, []string{"file.go", "new.go"}) {
		t.Fatalf("subdirectory pack = %v", got)
	}
	// Extra exclude patterns apply to git listings too.
	ex, _, st2 := pack(t, repo, PackOptions{Exclude: []string{"node_modules/", "outside"}})
	if got := tarNames(t, ex); slices.Contains(got, "node_modules/a.js") || slices.Contains(got, "outside/secret") {
		t.Fatalf("Exclude ignored: %v", got)
	}
	if st2.Ignored != 3 {
		t.Fatalf("Ignored = %d, want 3", st2.Ignored)
	}
	// NoGit walks instead: .git is then excluded by the default rules.
	walked, _, st3 := pack(t, repo, PackOptions{NoGit: true})
	if st3.Source != SourceWalk || slices.Contains(tarNames(t, walked), ".git/") || slices.Contains(tarNames(t, walked), "ignored.txt") {
		t.Fatalf("NoGit pack: source %q, entries %v", st3.Source, tarNames(t, walked))
	}
}

func TestPackGitNestedRepository(t *testing.T) {
	repo := t.TempDir()
	writeTree(t, repo, map[string]string{"a.txt": "a\n", "nested/b.txt": "b\n", "nested/.gitignore": "skip.me\n", "nested/skip.me": "x"})
	git(t, filepath.Join(repo, "nested"), "init", "-q")
	git(t, repo, "init", "-q")
	data, _, _ := pack(t, repo, PackOptions{})
	want := []string{"a.txt", "nested/", "nested/.gitignore", "nested/b.txt"}
	if got := tarNames(t, data); !slices.Equal(got, want) {
		t.Fatalf("entries = %v, want %v", got, want)
	}
}

func TestPackWalkExclusions(t *testing.T) {
	dir := t.TempDir()
	files := map[string]bool{
		"src/main.py":                 true,
		"node_modules/left/index.js":  false,
		"web/node_modules/x/index.js": false,
		".venv/bin/python":            false,
		"venv/lib/site.py":            false,
		"env2/pyvenv.cfg":             false,
		"pkg/__pycache__/m.pyc":       false,
		".pytest_cache/v/cache":       false,
		".mypy_cache/3.12/x.json":     false,
		".tox/py312/bin/python":       false,
		"rust/Cargo.toml":             true,
		"rust/target/debug/app":       false,
		"target/no-manifest-here.txt": true,
		"web/package.json":            true,
		"web/dist/bundle.js":          false,
		"web/build/bundle.js":         false,
		"internal/build/build.go":     true,
		"web/.next/cache/x":           false,
		"java/.gradle/caches/x":       false,
		"cache/CACHEDIR.TAG":          false,
		".git/config":                 false,
		"app.log":                     false,
		"keep.log":                    true,
		"secret/key":                  false,
		"sub/local.txt":               false,
		"local.txt":                   true,
		"sub/kept.txt":                true,
		"docs/guide.md":               false,
		"a/b/c/deep.txt":              true,
		".gitignore":                  true,
		"sub/.gitignore":              true,
		"ignored-dir-pattern/x/y.txt": false,
		"src/ignored-dir-pattern.txt": true,
	}
	content := map[string]string{}
	for name := range files {
		content[name] = "content of " + name + "\n"
	}
	content[".gitignore"] = "# comment\n*.log\n!keep.log\nsecret/\nignored-dir-pattern/\n"
	content["sub/.gitignore"] = "local.txt\n"
	content["empty/"] = ""
	writeTree(t, dir, content)
	mustDo(t, os.Symlink("src/main.py", filepath.Join(dir, "link-in")))
	mustDo(t, os.Symlink("../../etc", filepath.Join(dir, "link-out")))
	mustDo(t, syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644))

	data, _, st := pack(t, dir, PackOptions{Exclude: []string{"docs/"}})
	got := map[string]bool{}
	for _, n := range tarNames(t, data) {
		got[strings.TrimSuffix(n, "/")] = true
	}
	for name, want := range files {
		if got[name] != want {
			t.Errorf("%s: packed = %v, want %v", name, got[name], want)
		}
	}
	for name, want := range map[string]bool{"empty": true, "link-in": true, "link-out": false, "fifo": false} {
		if got[name] != want {
			t.Errorf("%s: packed = %v, want %v", name, got[name], want)
		}
	}
	reasons := map[string]string{}
	for _, s := range st.Skipped {
		reasons[s.Path] = s.Reason
	}
	for path, reason := range map[string]string{
		"node_modules": "npm", "env2": "virtualenv", "rust/target": "Cargo.toml",
		"web/dist": "package.json", "cache": "CACHEDIR.TAG", "secret": ".gitignore",
		"docs": "pattern", "link-out": "outside", "fifo": "special file",
	} {
		if !strings.Contains(reasons[path], reason) {
			t.Errorf("skip reason for %s = %q, want it to mention %q", path, reasons[path], reason)
		}
	}
	if st.Source != SourceWalk {
		t.Fatalf("source = %q", st.Source)
	}
}

func TestPackLimits(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a": "12345", "b": "12345", "c/d": "12345", "e/f/g/h": "1"})
	cases := []struct {
		name  string
		lim   Limits
		want  error
		entry string
	}{
		{"too many files", Limits{MaxFiles: 3}, ErrTooManyFiles, "c/d"},
		{"too large", Limits{MaxBytes: 12}, ErrTooLarge, "c/d"},
		{"file too large", Limits{MaxFileBytes: 4}, ErrTooLarge, "a"},
		{"too deep", Limits{MaxDepth: 3}, ErrUnsafeEntry, "e/f/g/h"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			_, err := Pack(context.Background(), dir, &buf, PackOptions{Limits: tc.lim})
			var ee *EntryError
			if !errors.Is(err, tc.want) || !errors.As(err, &ee) || ee.Name != tc.entry {
				t.Fatalf("error = %v, want %v naming %q", err, tc.want, tc.entry)
			}
			if buf.Len() != 0 {
				t.Fatalf("%d bytes written before a limit error", buf.Len())
			}
		})
	}
}

func TestPackCanceled(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a": "1"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Pack(ctx, dir, &bytes.Buffer{}, PackOptions{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v, want context.Canceled", err)
	}
}

func TestPackToFileAndDigest(t *testing.T) {
	dir := t.TempDir()
	makeSample(t, dir, 0o644, 0o022)
	dst := filepath.Join(t.TempDir(), "snap.tar")
	d, _, err := PackToFile(context.Background(), dir, dst, PackOptions{})
	mustDo(t, err)
	f, err := os.Open(dst)
	mustDo(t, err)
	defer f.Close()
	again, err := DigestReader(f)
	mustDo(t, err)
	if again != d || len(d.Hash) != 64 || strings.ToLower(d.Hash) != d.Hash {
		t.Fatalf("file digest %v, pack digest %v", again, d)
	}
	if !strings.HasPrefix(d.String(), "sha256:"+d.Hash) {
		t.Fatalf("String() = %q", d.String())
	}
	if _, _, err := PackToFile(context.Background(), filepath.Join(dir, "missing"), dst+"2", PackOptions{}); err == nil {
		t.Fatal("packing a missing directory succeeded")
	}
	if _, err := os.Stat(dst + "2"); !os.IsNotExist(err) {
		t.Fatalf("failed pack left %s behind: %v", dst+"2", err)
	}
}
