package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The release version the archive test stamps: not what make build would
// stamp, so the test sees that the archive's binary is the one it built.
const releaseTestVersion = "v0.0.0-archive-test"

// From a release archive built by make dist (this machine's archive alone),
// on a "machine without Go or the source tree": the checksums hold, the
// archive has what INSTALL.md says, the SBOM covers its binaries; installed
// onto PATH and run from outside the repository with a PATH that has no Go,
// greenlight prints the stamped version and verifies a copy of a real small
// project through the embedded stack with the expected verdicts; its hints
// name it as invoked; and the images' build script in the archive builds an
// image with the archive's prebuilt runner, without Go or the sources.
func TestReleaseArchiveInstallsAndVerifies(t *testing.T) {
	requireDocker(t)
	if runtime.GOOS != "linux" {
		t.Skip("the archive test builds a Linux machine's archive")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	distDir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	// make dist-tools installs the pinned GoReleaser and cyclonedx-gomod
	// into .bin/ when missing; dist --host is make dist for this machine.
	// The commit is read once: in a shared work tree HEAD may move while
	// the archive builds.
	head, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatalf("git rev-parse HEAD: %v", err)
	}
	commit := strings.TrimSpace(string(head))
	mk := exec.CommandContext(ctx, "make", "--no-print-directory", "-C", root, "dist", "DIST_ARGS=--host", "VERSION="+releaseTestVersion, "COMMIT="+commit)
	mk.Env = append(os.Environ(), "DIST_DIR="+distDir)
	if out, err := mk.CombinedOutput(); err != nil {
		t.Fatalf("make dist DIST_ARGS=--host: %v\n%s", err, out)
	}

	archName := "greenlight_" + releaseTestVersion + "_linux_" + runtime.GOARCH
	archive := filepath.Join(distDir, archName+".tar.gz")
	sums := mustRun(t, distDir, nil, "sha256sum", "-c", "SHA256SUMS")
	for _, f := range []string{archName + ".tar.gz: OK", archName + ".tar.gz.cdx.json: OK"} {
		if !strings.Contains(sums, f) {
			t.Errorf("sha256sum -c SHA256SUMS lacks %q:\n%s", f, sums)
		}
	}
	binaries := []string{"greenlight", "greenlight-discovery", "greenlight-executor", "greenlight-loop", "greenlight-gateway", "greenlight-runner"}
	checkSBOM(t, archive+".cdx.json", archName)

	// The "machine": a directory outside the repository, a PATH with the
	// installed binaries and the system's tools but no Go.
	machine := t.TempDir()
	mustRun(t, machine, nil, "tar", "-xzf", archive)
	extracted := filepath.Join(machine, archName)
	for _, f := range append([]string{"README.md", "INSTALL.md", "images/build.sh", "images/lib/runner.sh", "images/python/packages", "scripts/ensure-docker.sh",
		"share/man/man1/greenlight.1", "share/man/man1/greenlight-verify.1", "share/completions/greenlight.bash", "share/completions/_greenlight", "share/completions/greenlight.fish"}, binaries...) {
		if _, err := os.Stat(filepath.Join(extracted, f)); err != nil {
			t.Errorf("the archive lacks %s: %v", f, err)
		}
	}
	binDir := filepath.Join(machine, "bin")
	if err := os.MkdirAll(binDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, b := range binaries[:5] {
		mustRun(t, machine, nil, "install", "-m", "0755", filepath.Join(extracted, b), binDir)
	}
	home := filepath.Join(machine, "home")
	const systemPath = "/usr/sbin:/usr/bin:/sbin:/bin"
	base := []string{"HOME=" + home, "GREENLIGHT_HOME=" + filepath.Join(home, "greenlight")}
	if h := os.Getenv("DOCKER_HOST"); h != "" {
		base = append(base, "DOCKER_HOST="+h)
	}
	env := append([]string{"PATH=" + binDir + ":" + systemPath}, base...)
	if r := runIn(t, machine, env, "sh", "-c", "command -v go"); r.code == 0 {
		t.Fatalf("the test's PATH finds a go at %s: the machine must have none", r.stdout)
	}
	work := filepath.Join(machine, "work")

	version := mustRun(t, machine, env, "greenlight", "--version")
	if !strings.HasPrefix(version, "greenlight "+releaseTestVersion+" (commit ") || strings.Contains(version, "commit unknown") {
		t.Errorf("greenlight --version printed %q, want the stamped %s and a commit", version, releaseTestVersion)
	}
	for _, svc := range []string{"discovery", "executor", "loop", "gateway"} {
		line := strings.TrimSpace(mustRun(t, machine, env, "greenlight-"+svc, "--version"))
		if want := "greenlight-" + svc + " " + releaseTestVersion + " (commit " + commit + ")"; line != want {
			t.Errorf("greenlight-%s --version printed %q, want %q", svc, line, want)
		}
	}
	var info map[string]any
	if err := json.Unmarshal([]byte(mustRun(t, machine, env, "greenlight", "version", "--json")), &info); err != nil {
		t.Fatal(err)
	}
	if info["commit"] != commit {
		t.Errorf("version --json commit %v, want the repository's HEAD %s", info["commit"], commit)
	}

	// A real small project, copied outside the tree: FAIL with the failure
	// located, through the greenlight on PATH.
	copyDir(t, examples("fail"), filepath.Join(work, "fail"))
	fail := runIn(t, work, env, "greenlight", "verify", "fail")
	fail.wantExit(t, 1, "greenlight verify fail (installed from the archive)")
	for _, want := range []string{" FAIL ", "tests/test_temperature.py:17", "2 passed, 1 failed", "greenlight show r_"} {
		if !strings.Contains(fail.stdout, want) {
			t.Errorf("verify of the failing project lacks %q:\nstdout:\n%s\nstderr:\n%s", want, fail.stdout, fail.stderr)
		}
	}
	// The passing one with the extracted binary run by its path, as one
	// would before putting it on PATH: the hint names that path.
	copyDir(t, examples("pass"), filepath.Join(work, "pass"))
	self := filepath.Join("..", archName, "greenlight")
	pass := runIn(t, work, append([]string{"PATH=" + systemPath}, base...), self, "verify", "pass")
	pass.wantExit(t, 0, "verify pass with the extracted binary")
	for _, want := range []string{" PASS ", "3 passed, 0 failed", self + " show r_"} {
		if !strings.Contains(pass.stdout, want) {
			t.Errorf("verify of the passing project lacks %q:\nstdout:\n%s\nstderr:\n%s", want, pass.stdout, pass.stderr)
		}
	}

	// The archive's images/build.sh builds an image (the smallest) without
	// Go on PATH or the sources, with the archive's prebuilt runner, under a
	// prefix of its own that is removed afterwards.
	const prefix = "greenlight-releasetest/sandbox-"
	t.Cleanup(func() {
		out, _ := exec.Command("docker", "images", "--format", "{{.Repository}}:{{.Tag}}", prefix+"generic").Output()
		for _, ref := range strings.Fields(string(out)) {
			_ = exec.Command("docker", "rmi", ref).Run()
		}
	})
	build := runIn(t, extracted, append([]string{"GREENLIGHT_IMAGE_PREFIX=" + prefix}, env...), "bash", "images/build.sh", "generic")
	if build.code != 0 || !strings.Contains(build.stderr, "greenlight-runner protocol") {
		t.Fatalf("images/build.sh generic from the archive: exit %d\n%s%s", build.code, build.stdout, build.stderr)
	}
	label := mustRun(t, machine, nil, "docker", "image", "inspect", "-f", `{{index .Config.Labels "greenlight.runner"}}`, prefix+"generic:latest")
	if strings.TrimSpace(label) == "" {
		t.Errorf("the image built from the archive has no greenlight.runner label")
	}
}

// checkSBOM checks the archive's CycloneDX SBOM: its subject is the
// archive, each Go binary's main module is a component of it, and the
// modules the CLI links (gRPC, bbolt) are listed with versions.
func checkSBOM(t *testing.T, path, archName string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var bom struct {
		BOMFormat   string `json:"bomFormat"`
		SpecVersion string `json:"specVersion"`
		Metadata    struct {
			Component struct {
				Name       string `json:"name"`
				Version    string `json:"version"`
				Components []struct {
					BOMRef string `json:"bom-ref"`
				} `json:"components"`
			} `json:"component"`
		} `json:"metadata"`
		Components []struct {
			Name    string `json:"name"`
			Version string `json:"version"`
			PURL    string `json:"purl"`
		} `json:"components"`
	}
	if err := json.Unmarshal(b, &bom); err != nil {
		t.Fatalf("SBOM is not JSON: %v", err)
	}
	if bom.BOMFormat != "CycloneDX" || bom.SpecVersion == "" || bom.Metadata.Component.Name != archName || bom.Metadata.Component.Version != releaseTestVersion {
		t.Errorf("SBOM header: format %q spec %q subject %q %q", bom.BOMFormat, bom.SpecVersion, bom.Metadata.Component.Name, bom.Metadata.Component.Version)
	}
	var refs []string
	for _, c := range bom.Metadata.Component.Components {
		refs = append(refs, c.BOMRef)
	}
	for _, want := range []string{"cmd/greenlight@", "#cmd/greenlight-discovery", "#cmd/greenlight-executor", "#cmd/greenlight-loop", "#cmd/greenlight-gateway", "#cmd/greenlight-runner"} {
		if !strings.Contains(strings.Join(refs, "\n"), want) {
			t.Errorf("SBOM subject's components lack %q: %v", want, refs)
		}
	}
	found := map[string]bool{}
	platform := "goarch=" + runtime.GOARCH + "&goos=linux&"
	for _, c := range bom.Components {
		if c.Version != "" && strings.HasPrefix(c.PURL, "pkg:golang/") {
			found[c.Name] = true
		}
		if !strings.Contains(c.PURL, platform) {
			t.Errorf("SBOM component %s is not of the archive's platform (%s)", c.PURL, platform)
		}
	}
	for _, mod := range []string{"google.golang.org/grpc", "go.etcd.io/bbolt", "github.com/spf13/cobra"} {
		if !found[mod] {
			t.Errorf("SBOM lists no %s with a version (%d components)", mod, len(bom.Components))
		}
	}
}

// mustRun runs a command in dir with env (nil: the test's) and returns its
// stdout, failing the test when it fails.
func mustRun(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	r := runIn(t, dir, env, name, args...)
	if r.code != 0 {
		t.Fatalf("%s %s: exit %d\nstdout:\n%s\nstderr:\n%s", name, strings.Join(args, " "), r.code, r.stdout, r.stderr)
	}
	return r.stdout
}

// runIn runs a command to completion in dir with env (nil: the test's).
func runIn(t *testing.T, dir string, env []string, name string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	// A bare name is looked up in env's PATH, as a shell there would, and
	// keeps the name as argv[0].
	path := name
	if env != nil && !strings.Contains(name, "/") {
		path = lookPathIn(t, env, name)
	}
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Args[0], cmd.Dir, cmd.Env = name, dir, env
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	res := result{stdout: out.String(), stderr: errOut.String(), code: -1}
	if cmd.ProcessState != nil {
		res.code = cmd.ProcessState.ExitCode()
	}
	if err != nil && cmd.ProcessState == nil {
		t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	}
	return res
}

// lookPathIn finds an executable name in the PATH of env.
func lookPathIn(t *testing.T, env []string, name string) string {
	t.Helper()
	for _, kv := range env {
		if p, ok := strings.CutPrefix(kv, "PATH="); ok {
			for _, d := range filepath.SplitList(p) {
				if fi, err := os.Stat(filepath.Join(d, name)); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
					return filepath.Join(d, name)
				}
			}
		}
	}
	t.Fatalf("%s is not on the PATH of %v", name, env)
	return ""
}
