package image

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/pkg/toolchain/rust"
)

// requireEngine skips only when GREENLIGHT_INTEGRATION is unset; with it set,
// a missing docker client or engine fails the test.
func requireEngine(t *testing.T) {
	t.Helper()
	if os.Getenv("GREENLIGHT_INTEGRATION") == "" {
		t.Skip("set GREENLIGHT_INTEGRATION=1 to run against a real Docker engine")
	}
	if _, err := exec.LookPath("docker"); err != nil {
		t.Fatalf("docker client not found (%v): install docker.io and run bash scripts/ensure-docker.sh", err)
	}
	if out, err := docker(t, 20*time.Second, "version", "--format", "{{.Server.Version}}"); err != nil {
		t.Fatalf("Docker engine not reachable (%v): %s\nstart it with: bash scripts/ensure-docker.sh", err, out)
	}
}

// docker runs the docker CLI with a deadline and returns its combined output.
func docker(t *testing.T, timeout time.Duration, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, "docker", args...)
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// requireImage fails, saying how to build it, when the image is missing.
func requireImage(t *testing.T, ref string) {
	t.Helper()
	if out, err := docker(t, 20*time.Second, "image", "inspect", "--format", "{{.Id}}", ref); err != nil {
		rt, _ := OfflineRuntime(ref)
		t.Fatalf("image %s is missing (%v: %s): run `%s` "+
			"(bash scripts/ensure-docker.sh && bash images/build.sh %s)", ref, err, strings.TrimSpace(out), BuildCommand(rt), rt)
	}
}

// sandboxRun runs script in the image under the executor's hardening: no
// network, read-only root, tmpfs scratch, uid 10001, no capabilities, init.
func sandboxRun(t *testing.T, ref, script string) string {
	t.Helper()
	out, err := docker(t, 3*time.Minute, "run", "--rm", "--init", "--network", "none", "--read-only",
		"--tmpfs", "/tmp:exec,mode=1777",
		"--tmpfs", "/home/sandbox:exec,uid=10001,gid=10001",
		"--tmpfs", "/workspace:exec,uid=10001,gid=10001",
		"--user", "10001:10001", "--cap-drop", "ALL", "--security-opt", "no-new-privileges",
		"--pids-limit", "256", "--memory", "2g",
		ref, "sh", "-ec", script)
	if err != nil {
		t.Fatalf("docker run %s failed: %v\n%s", ref, err, out)
	}
	return out
}

// commonScript checks what every image promises: the sandbox user, HOME,
// /workspace as working directory, a read-only root and no network.
const commonScript = `
echo "uid=$(id -u) gid=$(id -g) user=$(id -un) home=$HOME pwd=$(pwd) lang=$LANG"
if touch /etc/greenlight-probe 2>/dev/null; then echo "root writable"; else echo "root read-only"; fi
touch /workspace/ok /tmp/ok "$HOME/ok" && echo "scratch writable"
if [ -e /sys/class/net/eth0 ]; then echo "has eth0"; else echo "no eth0"; fi
`

func TestOfflineImages(t *testing.T) {
	requireEngine(t)
	tests := []struct {
		runtime string
		script  string
		want    []string // regular expressions the output must match
	}{
		{
			runtime: Python,
			script: `python3 --version; python3 -m pytest --version; python3 -m flake8 --version
python3 -m pyflakes --version; python3 -m mypy --version; python3 -m pip --version
tox --version; nox --version 2>&1; pylint --version | head -n 1; make --version | head -n 1
printf 'def test_add():\n    assert 1 + 1 == 2\n\ndef test_fail():\n    assert 1 == 2\n' >test_x.py
python3 -m pytest -q test_x.py || echo "pytest exit $?"`,
			want: []string{`Python 3\.\d+`, `pytest \d+\.\d+`, `pycodestyle`, `mypy \d+\.\d+`, `pip \d+`,
				`\d+\.\d+\.\d+ imported from .*tox`, `20\d\d\.\d+\.\d+`, `pylint \d`, `GNU Make`,
				`1 failed, 1 passed`, `pytest exit 1`},
		},
		{
			runtime: Go,
			script: `go version; echo "goroot=$(go env GOROOT) cgo=$(go env CGO_ENABLED) toolchain=$(go env GOTOOLCHAIN)"
go mod init example.com/x >/dev/null 2>&1
printf 'package x\n\nimport "testing"\n\nfunc TestOK(t *testing.T) {}\n' >x_test.go
go vet ./... && go test -count=1 ./...; make --version | head -n 1`,
			want: []string{`go version go1\.\d+`, `goroot=/usr/local/go cgo=1 toolchain=local`, `ok\s+example\.com/x`, `GNU Make`},
		},
		{
			runtime: Node,
			script: `echo "node $(node --version)"; echo "npm $(npm --version)"
echo "yarn $(yarn --version)"; echo "pnpm $(pnpm --version)"; make --version | head -n 1
node -e 'require("assert").strictEqual(2 + 2, 4); console.log("assert ok")'`,
			want: []string{`node v\d+\.\d+`, `npm \d+\.\d+`, `yarn 1\.\d+`, `pnpm \d+\.\d+`, `GNU Make`, `assert ok`},
		},
		{
			runtime: Generic,
			script: `make --version | head -n 1; git --version; jq --version; curl --version | head -n 1
printf 'test:\n\t@echo shell ok\n' >Makefile && make -s test`,
			want: []string{`GNU Make \d`, `git version`, `jq-1\.\d`, `curl \d`, `shell ok`},
		},
		{
			runtime: Cpp,
			script: `printf '#include <stdio.h>\nint main(void){puts("c ok");return 0;}\n' >x.c
cc -o x x.c && ./x; clang -o y x.c && ./y
printf 'cmake_minimum_required(VERSION 3.13)\nproject(p C)\nenable_testing()\nadd_executable(t x.c)\nadd_test(NAME t COMMAND t)\n' >CMakeLists.txt
cmake -S . -B build -G Ninja >/dev/null && cmake --build build >/dev/null && cd build && ctest`,
			want: []string{`c ok`, `100% tests passed, 0 tests failed out of 1`},
		},
		{
			runtime: rust.Name,
			script: `cargo new --lib --vcs none c >/dev/null 2>&1 && cd c
printf '#[test]\nfn ok() {}\n#[test]\nfn bad() { assert_eq!(1, 2); }\n' >>src/lib.rs
cargo test --offline 2>&1 || echo "cargo exit $?"`,
			want: []string{`test bad \.\.\. FAILED`, `test ok \.\.\. ok`, `2 passed; 1 failed`, `cargo exit 101`},
		},
		{
			runtime: Java,
			script: `java -version 2>&1 | head -n 1; mvn --version | head -n 1; gradle --version | grep '^Gradle'
test "$(awk -F'[<>]' '/<url>/{print $3; exit}' /etc/maven/settings.xml)" = file:///usr/share/maven-repo && echo "debian repo first"`,
			want: []string{`openjdk version "17`, `Apache Maven 3\.`, `Gradle \d`, `debian repo first`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.runtime, func(t *testing.T) {
			ref, err := Resolve(tt.runtime)
			if err != nil {
				t.Fatalf("Resolve(%q): %v", tt.runtime, err)
			}
			requireImage(t, ref.Image)
			out := sandboxRun(t, ref.Image, commonScript+tt.script)
			want := append([]string{
				`uid=10001 gid=10001 user=sandbox home=/home/sandbox pwd=/workspace lang=C\.UTF-8`,
				`root read-only`, `scratch writable`, `no eth0`,
			}, tt.want...)
			for _, w := range want {
				if !regexp.MustCompile(w).MatchString(out) {
					t.Errorf("output does not match %q:\n%s", w, out)
				}
			}
		})
	}
}

func TestOfflineImageConfig(t *testing.T) {
	requireEngine(t)
	for _, rt := range Defaults().Runtimes() {
		t.Run(rt, func(t *testing.T) {
			ref := Defaults()[rt]
			requireImage(t, ref)
			out, err := docker(t, 20*time.Second, "image", "inspect", "--format",
				`{{.Config.User}}|{{.Config.WorkingDir}}|{{index .Config.Labels "greenlight.image"}}|{{join .Config.Env ";"}}`, ref)
			if err != nil {
				t.Fatalf("inspect %s: %v: %s", ref, err, out)
			}
			parts := strings.Split(strings.TrimSpace(out), "|")
			if len(parts) != 4 {
				t.Fatalf("unexpected inspect output %q", out)
			}
			if parts[0] != "10001:10001" || parts[1] != "/workspace" || parts[2] != rt {
				t.Errorf("user|workdir|label = %q|%q|%q, want 10001:10001|/workspace|%s", parts[0], parts[1], parts[2], rt)
			}
			for _, env := range []string{"LANG=C.UTF-8", "HOME=/home/sandbox", "PATH="} {
				if !strings.Contains(parts[3], env) {
					t.Errorf("env %q lacks %q", parts[3], env)
				}
			}
		})
	}
}
