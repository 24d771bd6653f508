package gocache

import (
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// These tests drive the real go command with GOCACHEPROG set to the real
// binary (cmd/greenlight-gocache, built once by TestMain). Their evidence
// is what go itself reports: `go build -x` prints every compiler run, and
// `go list -export` the file a package's export data was served from.

// progBin is the built greenlight-gocache.
var progBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "greenlight-gocache-test")
	if err != nil {
		panic(err)
	}
	progBin = filepath.Join(dir, "greenlight-gocache")
	build := exec.Command("go", "build", "-o", progBin, "github.com/greenlight-dev/greenlight/services/executor/cmd/greenlight-gocache")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building greenlight-gocache: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// module writes a module into a temporary directory: packages without
// imports (so that building them compiles nothing else) and lib, which
// has a test.
func module(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":          "module example.com/m\n\ngo 1.21\n",
		"nodeps/a.go":     "package nodeps\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n",
		"nodeps2/b.go":    "package nodeps2\n\n// Mul multiplies.\nfunc Mul(a, b int) int { return a * b }\n",
		"nodeps3/c.go":    "package nodeps3\n\n// Neg negates.\nfunc Neg(a int) int { return -a }\n",
		"lib/lib.go":      "package lib\n\nimport \"strconv\"\n\n// Itoa formats i.\nfunc Itoa(i int) string { return strconv.Itoa(i) }\n",
		"lib/lib_test.go": "package lib\n\nimport \"testing\"\n\nfunc TestItoa(t *testing.T) {\n\tif Itoa(3) != \"3\" {\n\t\tt.Fatal(Itoa(3))\n\t}\n}\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// cacheEnv is how one go command finds its cache: $GOCACHE, and when prog
// is set, GOCACHEPROG with the layers.
type cacheEnv struct {
	gocache string
	prog    bool
	layers  []string
}

// goCmd runs the go command in dir with a clean Go environment and
// returns its combined output.
func goCmd(t *testing.T, dir string, c cacheEnv, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GO") && !strings.HasPrefix(kv, "GREENLIGHT_") && !strings.HasPrefix(kv, "CGO_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "GOENV=off", "GOFLAGS=", "GOWORK=off", "GOTOOLCHAIN=local", "GOPROXY=off", "GOCACHE="+c.gocache)
	if c.prog {
		cmd.Env = append(cmd.Env, "GOCACHEPROG="+progBin, EnvLayers+"="+strings.Join(c.layers, ":"))
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// compileRun matches a compiler run in `go build -x` output.
var compileRun = regexp.MustCompile(`(?m)/compile( |$)`)

// snapshot lists every file under dir with its size, mode and mtime.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		files[p] = fmt.Sprintf("%d %s %d", fi.Size(), fi.Mode(), fi.ModTime().UnixNano())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// A cache directory filled by one go command serves another, whichever
// wrote it and whichever reads it: through this program, as a read-only
// layer behind an empty $GOCACHE (which the layer never receives a write
// from), or by the go command itself as its plain GOCACHE.
func TestGoBuildReadsLayers(t *testing.T) {
	cases := []struct {
		name                   string
		writeProg, readAsLayer bool
	}{
		{"written through the program, read as a layer", true, true},
		{"written by go itself, read as a layer", false, true},
		{"written through the program, read by go itself", true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mod, root := module(t), t.TempDir()
			layer, empty := filepath.Join(root, "layer"), filepath.Join(root, "gocache")
			out := goCmd(t, mod, cacheEnv{gocache: layer, prog: tc.writeProg}, "build", "-x", "./nodeps")
			if !compileRun.MatchString(out) {
				t.Fatalf("the first build compiled nothing:\n%s", out)
			}
			reader := cacheEnv{gocache: layer}
			if tc.readAsLayer {
				reader = cacheEnv{gocache: empty, prog: true, layers: []string{layer}}
				if err := exec.Command("chmod", "-R", "a-w", layer).Run(); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { exec.Command("chmod", "-R", "u+w", root).Run() })
			}
			before := snapshot(t, layer)
			if out := goCmd(t, mod, reader, "build", "-x", "./nodeps"); compileRun.MatchString(out) {
				t.Errorf("the second build compiled again:\n%s", out)
			}
			export := strings.TrimSpace(goCmd(t, mod, reader, "list", "-export", "-f", "{{.Export}}", "./nodeps"))
			if !strings.HasPrefix(export, layer+string(filepath.Separator)) {
				t.Errorf("export data served from %s, want a file in %s", export, layer)
			}
			if !tc.readAsLayer {
				return
			}
			after := snapshot(t, layer)
			if fmt.Sprint(before) != fmt.Sprint(after) {
				t.Errorf("the layer changed:\nbefore %v\nafter  %v", before, after)
			}
		})
	}
}

// `go test` replays a result recorded in the writable $GOCACHE, as go
// does, but never one found in a layer: there it runs the test, with every
// package (the test's own included) still served from the layers.
func TestGoTestResultsAreNotReplayedFromLayers(t *testing.T) {
	mod, root := module(t), t.TempDir()
	// The host's own build cache as the last layer spares compiling the
	// standard library and testing; whatever it lacks is compiled into
	// the first run's $GOCACHE, so the test does not depend on it.
	var host []string
	if h, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil && filepath.IsAbs(strings.TrimSpace(string(h))) {
		host = []string{strings.TrimSpace(string(h))}
	}
	first := filepath.Join(root, "first")
	c := cacheEnv{gocache: first, prog: true, layers: host}
	if out := goCmd(t, mod, c, "test", "./lib"); !strings.HasPrefix(out, "ok") || strings.Contains(out, "(cached)") {
		t.Fatalf("first go test:\n%s", out)
	}
	if out := goCmd(t, mod, c, "test", "./lib"); !strings.Contains(out, "(cached)") {
		t.Fatalf("second go test with the same $GOCACHE did not replay the result:\n%s", out)
	}
	c = cacheEnv{gocache: filepath.Join(root, "second"), prog: true, layers: append([]string{first}, host...)}
	out := goCmd(t, mod, c, "test", "-x", "./lib")
	if strings.Contains(out, "(cached)") || !strings.Contains(out, "\nok") {
		t.Errorf("go test with the first cache as a layer replayed its result:\n%s", out)
	}
	if compileRun.MatchString(out) {
		t.Errorf("go test with the first cache as a layer compiled again:\n%s", out)
	}
}

// Go commands running at once each start their own child on the same
// $GOCACHE; every entry they leave is whole, and no temporary file is
// left behind.
func TestConcurrentGoCommands(t *testing.T) {
	mod, gocache := module(t), filepath.Join(t.TempDir(), "gocache")
	c := cacheEnv{gocache: gocache, prog: true}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() { goCmd(t, mod, c, "build", "./nodeps", "./nodeps2", "./nodeps3") })
	}
	wg.Wait()
	s := &Store{Dir: gocache, VerifyMax: 1 << 40}
	entries := 0
	err := filepath.WalkDir(gocache, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		switch {
		case strings.HasPrefix(name, ".tmp-"):
			t.Errorf("temporary file left: %s", p)
		case strings.HasSuffix(name, "-a"):
			entries++
			var action [hashSize]byte
			if n, err := hex.Decode(action[:], []byte(strings.TrimSuffix(name, "-a"))); err != nil || n != hashSize {
				t.Errorf("%s: %v", p, err)
			} else if _, err := s.lookup(gocache, action, false); err != nil {
				t.Errorf("entry %s: %v", p, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if entries < 3 {
		t.Errorf("%d entries, want at least one per package", entries)
	}
}
