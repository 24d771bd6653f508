package sandbox

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The checkout script is plain sh and git, so these tests run it on the
// host's git (the images ship the same Debian git) against real
// directories; the integration tests run it in the sandbox.

// hostCheckout runs checkoutScript in dir with home as the sandbox user's
// home and path as PATH, and returns its exit code and stderr.
func hostCheckout(t *testing.T, dir, home, path string) (int, string) {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", checkoutScript, home)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=" + path, "HOME=" + home}, checkoutEnv()...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, stderr.String()
	case errors.As(err, &ee):
		return ee.ExitCode(), stderr.String()
	}
	t.Fatalf("running the checkout script: %v", err)
	return 0, ""
}

// hostGit runs git in dir as a step would (the home's config, nothing
// else) and returns its output.
func hostGit(t *testing.T, dir, home string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "GIT_CONFIG_NOSYSTEM=1", "LC_ALL=C",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func needGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git on this host")
	}
}

// writeTree writes files (path → content; a path ending in "*" is made
// executable, the star dropped) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		mode := os.FileMode(0o644)
		if n, ok := strings.CutSuffix(name, "*"); ok {
			name, mode = n, 0o755
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
	}
}

// The snapshot becomes the single commit: every file (a .gitignore'd one
// too, as a force-added tracked file is in CI's checkout), the same
// commit id for the same snapshot anywhere, a clean status, and the
// working tree byte for byte as it was (CRLF and a text=auto attribute
// included). The steps' git trusts the workspace through the home's
// config.
func TestCheckoutCommitsTheSnapshotAsItIs(t *testing.T) {
	needGit(t)
	files := map[string]string{
		"crlf.txt":        "one\r\ntwo\r\n",
		"src/main.c":      "int main(void) { return 0; }\n",
		".gitignore":      "*.log\n",
		"vendor/keep.log": "tracked although ignored\n",
		".gitattributes":  "* text=auto\n",
		"run.sh*":         "#!/bin/sh\necho run\n",
	}
	var heads []string
	for range 2 {
		dir, home := t.TempDir(), t.TempDir()
		writeTree(t, dir, files)
		if code, stderr := hostCheckout(t, dir, home, os.Getenv("PATH")); code != 0 {
			t.Fatalf("checkout exited %d: %s", code, stderr)
		}
		heads = append(heads, strings.TrimSpace(hostGit(t, dir, home, "rev-parse", "HEAD")))
		listed := strings.Fields(hostGit(t, dir, home, "ls-files"))
		want := []string{".gitattributes", ".gitignore", "crlf.txt", "run.sh", "src/main.c", "vendor/keep.log"}
		if !slices.Equal(listed, want) {
			t.Errorf("ls-files = %v, want %v", listed, want)
		}
		if st := hostGit(t, dir, home, "status", "--porcelain"); st != "" {
			t.Errorf("status is not clean:\n%s", st)
		}
		if got := hostGit(t, dir, home, "log", "-1", "--format=%an <%ae> %cn <%ce> %aI %cI"); !strings.Contains(got,
			"greenlight <greenlight@localhost> greenlight <greenlight@localhost> 2000-01-01T00:00:00+00:00 2000-01-01T00:00:00+00:00") {
			t.Errorf("commit identity and dates = %q", got)
		}
		if got := hostGit(t, dir, home, "rev-list", "--count", "HEAD"); strings.TrimSpace(got) != "1" {
			t.Errorf("commits = %s, want 1", got)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "crlf.txt")); string(b) != files["crlf.txt"] {
			t.Errorf("crlf.txt was rewritten: %q", b)
		}
		if fi, _ := os.Stat(filepath.Join(dir, "run.sh")); fi == nil || fi.Mode()&0o111 == 0 {
			t.Errorf("run.sh lost its mode: %v", fi)
		}
		if cfg, _ := os.ReadFile(filepath.Join(home, ".gitconfig")); !strings.Contains(string(cfg), "directory = *") {
			t.Errorf("the home's git config does not trust the workspace: %q", cfg)
		}
	}
	if heads[0] == "" || heads[0] != heads[1] {
		t.Errorf("the same snapshot gave commits %q and %q", heads[0], heads[1])
	}
}

// Nothing of the project's runs during greenlight's commit, even where a
// config would name it: the home's config sets core.hooksPath to the
// project's .githooks and defines the clean filter its .gitattributes
// names, yet neither the hooks nor the filter run (git reads no config but
// the command line's). The controls then show that the same hooks and
// filter do run when a step's git reads that config, so the markers would
// have appeared.
func TestCheckoutRunsNoProjectHookOrFilter(t *testing.T) {
	needGit(t)
	dir, home, marks := t.TempDir(), t.TempDir(), t.TempDir()
	hook := "#!/bin/sh\ntouch " + marks + "/$(basename $0)\n"
	writeTree(t, dir, map[string]string{
		".githooks/pre-commit*":  hook,
		".githooks/post-commit*": hook,
		".githooks/commit-msg*":  hook,
		".gitattributes":         "* filter=evil diff=evil\n",
		"a.txt":                  "a\n",
	})
	writeTree(t, home, map[string]string{".gitconfig": "[core]\n\thooksPath = " + filepath.Join(dir, ".githooks") +
		"\n[filter \"evil\"]\n\tclean = touch " + marks + "/filter && cat\n"})
	if code, stderr := hostCheckout(t, dir, home, os.Getenv("PATH")); code != 0 {
		t.Fatalf("checkout exited %d: %s", code, stderr)
	}
	if ran, _ := os.ReadDir(marks); len(ran) != 0 {
		t.Fatalf("greenlight's commit ran project code: %v", ran)
	}
	// Controls: a step's git, reading the home's config, runs both.
	writeTree(t, dir, map[string]string{"b.txt": "b\n"})
	hostGit(t, dir, home, "add", "b.txt")
	hostGit(t, dir, home, "commit", "-q", "-m", "step")
	var ran []string
	entries, _ := os.ReadDir(marks)
	for _, e := range entries {
		ran = append(ran, e.Name())
	}
	if want := []string{"commit-msg", "filter", "post-commit", "pre-commit"}; !slices.Equal(ran, want) {
		t.Errorf("the controls ran %v, want %v: the markers cannot show anything", ran, want)
	}
}

// A snapshot that brings its own .git keeps it untouched; an image
// without git, or a git that fails, leaves the workspace as the snapshot
// (no half-made .git), each with its own exit code.
func TestCheckoutLeavesTheWorkspaceAloneOtherwise(t *testing.T) {
	needGit(t)
	realGit, _ := exec.LookPath("git")
	failing := t.TempDir() // a git whose commit fails, in front of the real one
	writeTree(t, failing, map[string]string{"git*": "#!/bin/sh\nfor a; do [ \"$a\" = commit ] && { echo no space left >&2; exit 128; }; done\nexec " + realGit + " \"$@\"\n"})
	tests := []struct {
		name     string
		own      bool
		path     string
		wantCode int
		wantGit  bool
	}{
		{"own .git kept", true, os.Getenv("PATH"), checkoutKept, true},
		{"no git in the image", false, "/nonexistent", checkoutNoGit, false},
		{"git fails", false, failing + ":" + os.Getenv("PATH"), 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, home := t.TempDir(), t.TempDir()
			writeTree(t, dir, map[string]string{"a.txt": "a\n"})
			var before string
			if tt.own {
				hostGit(t, dir, home, "init", "-q")
				hostGit(t, dir, home, "add", "a.txt")
				hostGit(t, dir, home, "commit", "-q", "-m", "theirs")
				before = hostGit(t, dir, home, "log", "--format=%H %s")
			}
			code, stderr := hostCheckout(t, dir, home, tt.path)
			if code != tt.wantCode {
				t.Fatalf("exit code %d, want %d (stderr %q)", code, tt.wantCode, stderr)
			}
			_, err := os.Lstat(filepath.Join(dir, ".git"))
			if (err == nil) != tt.wantGit {
				t.Fatalf(".git exists: %v, want %v", err == nil, tt.wantGit)
			}
			if tt.own {
				if after := hostGit(t, dir, home, "log", "--format=%H %s"); after != before {
					t.Errorf("the snapshot's own history changed: %q → %q", before, after)
				}
			}
		})
	}
}

func TestCheckoutFits(t *testing.T) {
	tests := []struct {
		snapshot, workspace int64
		want                bool
	}{
		{0, 1 << 30, true},
		{256 << 20, 1 << 30, true},
		{256<<20 + 1, 1 << 30, false},
		{900 << 20, 1 << 30, false},
	}
	for _, tt := range tests {
		if got := checkoutFits(tt.snapshot, tt.workspace); got != tt.want {
			t.Errorf("checkoutFits(%d, %d) = %v, want %v", tt.snapshot, tt.workspace, got, tt.want)
		}
	}
}

// The checkout's environment names the fixed identity and date and keeps
// every config file but the repository's out.
func TestCheckoutEnv(t *testing.T) {
	env := checkoutEnv()
	for _, kv := range []string{"GIT_AUTHOR_DATE=" + checkoutDate, "GIT_COMMITTER_DATE=" + checkoutDate,
		"GIT_AUTHOR_NAME=greenlight", "GIT_COMMITTER_EMAIL=greenlight@localhost",
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null"} {
		if !slices.Contains(env, kv) {
			t.Errorf("checkout env lacks %s: %v", kv, env)
		}
	}
	for _, frag := range []string{"core.hooksPath=/dev/null", "--no-verify", "core.autocrlf=false", "add -A -f", "rm -rf .git"} {
		if !strings.Contains(checkoutScript, frag) {
			t.Errorf("checkout script lacks %q", frag)
		}
	}
}
