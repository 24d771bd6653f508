package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestUsageErrorsExit2WithOneLine(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{name: "too many dirs", args: []string{"verify", "a", "b"}, want: "verify: takes at most 1 argument"},
		{name: "unknown flag", args: []string{"verify", "--frobnicate"}, want: "unknown flag: --frobnicate"},
		{name: "unknown command", args: []string{"verfy"}, want: `unknown command "verfy"`},
		{name: "show without run", args: []string{"show"}, want: "show: needs a run id"},
		{name: "bad status", args: []string{"runs", "--status", "sideways"}, want: `unknown status "sideways"`},
		{name: "fix without provider", args: []string{"fix", examples("fail")}, want: "--provider is required"},
		{name: "openai without model", args: []string{"fix", "--provider", "openai"}, want: "--base-url URL and --model NAME"},
		{name: "bad size", args: []string{"verify", "--max-workspace-bytes", "lots"}, want: `"lots" is not a positive size`},
		{name: "bad addr", args: []string{"--addr", "nowhere", "runs"}, want: "--addr"},
		{name: "artifacts without -o", args: []string{"artifacts", "r_1"}, want: "-o DIR is required"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u := newUser(t)
			r := u.run(nil, tc.args...)
			r.wantExit(t, 2, strings.Join(tc.args, " "))
			r.wantOneLineError(t, tc.want)
		})
	}
}

func TestBadWorkspacesExit2AndStoreNothing(t *testing.T) {
	tmp := t.TempDir()
	big := filepath.Join(tmp, "big")
	if err := os.MkdirAll(big, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(big, "data.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(2 << 30); err != nil { // a 2 GiB sparse file: no disk used
		t.Fatal(err)
	}
	f.Close()
	small := filepath.Join(tmp, "small")
	copyDir(t, examples("pass"), small)
	if err := os.WriteFile(filepath.Join(small, "blob.bin"), make([]byte, 2<<20), 0o644); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name string
		args []string
		want string
	}{
		{name: "nonexistent dir", args: []string{"verify", filepath.Join(tmp, "nope")}, want: "nope: no such directory"},
		{name: "a file, not a dir", args: []string{"verify", filepath.Join(small, "pyproject.toml")}, want: "not a directory"},
		{name: "2 GB workspace over the default cap", args: []string{"verify", big}, want: "workspace too large"},
		{name: "over a small cap", args: []string{"verify", "--max-workspace-bytes", "1MiB", small}, want: "blob.bin"},
		{name: "discover over a small cap", args: []string{"discover", "--max-workspace-bytes", "1MiB", small}, want: "workspace too large"},
		{name: "fix of a nonexistent dir", args: []string{"fix", "--provider", "client", filepath.Join(tmp, "nope")}, want: "no such directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u := newUser(t)
			r := u.run(nil, tc.args...)
			r.wantExit(t, 2, strings.Join(tc.args, " "))
			r.wantOneLineError(t, tc.want)
			if n := blobCount(t, u.home); n != 0 {
				t.Errorf("%d blob(s) stored for a refused workspace", n)
			}
			if _, err := os.Stat(filepath.Join(u.home, "runs.db")); err == nil {
				t.Error("a run database was created for a refused workspace")
			}
		})
	}
}

func TestUnreadableFileExit2(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ws")
	copyDir(t, examples("pass"), dir)
	secret := filepath.Join(dir, "secret.py")
	if err := os.WriteFile(secret, []byte("x = 1\n"), 0o000); err != nil {
		t.Fatal(err)
	}
	u := newUser(t)
	var r result
	if os.Geteuid() == 0 {
		// root reads any file: run the CLI as nobody, for whom mode 000 means
		// unreadable, with a home and a workspace that nobody may use.
		const nobody = 65534
		for _, p := range []string{u.home, filepath.Dir(dir)} {
			_ = os.Chmod(p, 0o755)
			_ = filepath.Walk(p, func(p string, _ os.FileInfo, _ error) error { return os.Lchown(p, nobody, nobody) })
		}
		_ = os.Chmod(filepath.Dir(filepath.Dir(dir)), 0o755)
		_ = os.Chmod(filepath.Dir(bin), 0o755)
		r = runAs(t, u, nobody, "verify", dir)
	} else {
		r = u.run(nil, "verify", dir)
	}
	r.wantExit(t, 2, "verify of a dir with an unreadable file")
	r.wantOneLineError(t, "secret.py")
	if !strings.Contains(r.stderr, "permission denied") {
		t.Errorf("the error should say why: %s", r.stderr)
	}
	if n := blobCount(t, u.home); n != 0 {
		t.Errorf("%d blob(s) stored", n)
	}
}

// runAs runs the binary with another uid.
func runAs(t *testing.T, u *user, uid uint32, args ...string) result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = u.environ()
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: uid}}
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if cmd.ProcessState == nil {
		t.Fatalf("run as %d: %v", uid, err)
	}
	return result{code: cmd.ProcessState.ExitCode(), stdout: out.String(), stderr: errOut.String()}
}

func TestUnknownRunExit2(t *testing.T) {
	u := newUser(t)
	for _, args := range [][]string{
		{"show", "r_20200101T000000_nosuchid"},
		{"watch", "r_20200101T000000_nosuchid"},
		{"artifacts", "r_20200101T000000_nosuchid", "-o", t.TempDir()},
	} {
		r := u.run(nil, args...)
		r.wantExit(t, 2, strings.Join(args, " "))
		r.wantOneLineError(t, "r_20200101T000000_nosuchid")
		if !strings.Contains(r.stderr, "not found") {
			t.Errorf("%v: stderr should say not found: %s", args, r.stderr)
		}
	}
}

func TestLockedHomeExit2WithAdvice(t *testing.T) {
	u := newUser(t)
	f, err := os.Create(filepath.Join(u.home, "runs.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// bbolt's lock: another process (here: this test) holds runs.db.
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	r := u.run(nil, "verify", examples("pass"))
	r.wantExit(t, 2, "verify with a locked home")
	want := "greenlight: another greenlight process uses " + u.home + ": pass --home DIR for a separate data directory, " +
		"or --addr of the greenlight serve that uses it (default 127.0.0.1:7070)\n"
	if r.stderr != want {
		t.Errorf("stderr = %q, want %q", r.stderr, want)
	}
}

func TestVersionAndHelp(t *testing.T) {
	u := newUser(t)
	r := u.run(nil, "version")
	r.wantExit(t, 0, "version")
	if !strings.HasPrefix(r.stdout, "greenlight ") || !strings.Contains(r.stdout, "go1.") {
		t.Errorf("version output: %q", r.stdout)
	}
	r = u.run(nil, "--help")
	r.wantExit(t, 0, "--help")
	for _, cmd := range []string{"verify", "discover", "fix", "runs", "show", "watch", "artifacts", "eval", "serve", "version"} {
		if !strings.Contains(r.stdout, "  "+cmd+" ") {
			t.Errorf("--help does not list %s", cmd)
		}
	}
}

func TestRunsOnAFreshHome(t *testing.T) {
	u := newUser(t)
	r := u.run(nil, "runs")
	r.wantExit(t, 0, "runs")
	if strings.TrimSpace(r.stdout) != "RUN  KIND  STATUS  CREATED  DURATION  SOURCE" {
		t.Errorf("runs on a fresh home: %q", r.stdout)
	}
}
