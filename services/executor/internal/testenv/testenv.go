// Package testenv holds the helpers the executor's integration tests share:
// the integration guard, a real Docker runtime, a real blob store, snapshot
// tars and the leak check. It is imported by tests only.
package testenv

import (
	"archive/tar"
	"bytes"
	"context"
	"os"
	"sort"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"

	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/services/executor/internal/docker"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// EnvIntegration enables the tests that need a real Docker engine.
const EnvIntegration = "GREENLIGHT_INTEGRATION"

// Images used by the tests (built by `make images`). PythonImage, the
// image of nearly every test, can be replaced with EnvPythonImage (to run
// the suite against an upstream image, or an image under development).
var (
	PythonImage = envOr(EnvPythonImage, "greenlight/sandbox-python:latest")
	GoImage     = "greenlight/sandbox-go:latest"
	NodeImage   = "greenlight/sandbox-node:latest"
)

// Environment variables that change what the integration tests run.
const (
	// EnvPythonImage replaces PythonImage.
	EnvPythonImage = "GREENLIGHT_TEST_PYTHON_IMAGE"
	// EnvStepRunner sets the executor's step runner mode for the whole
	// suite (auto, exec or agent; tests that pin a mode keep it).
	EnvStepRunner = "GREENLIGHT_TEST_STEP_RUNNER"
)

// StepRunner is the step runner mode the tests use by default: EnvStepRunner,
// else "" (the executor's default, auto).
func StepRunner() string { return os.Getenv(EnvStepRunner) }

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

// Integration skips t unless GREENLIGHT_INTEGRATION is set; when it is set,
// a missing engine or image fails the test instead.
func Integration(t testing.TB) {
	t.Helper()
	if os.Getenv(EnvIntegration) == "" {
		t.Skip("needs a Docker engine: set " + EnvIntegration + "=1 (make test does)")
	}
}

// Docker returns a runtime on the default engine, failing t when the engine
// or the Python sandbox image is not there.
func Docker(t testing.TB) *docker.Runtime {
	t.Helper()
	Integration(t)
	rt, err := docker.New("", zap.NewNop())
	if err != nil {
		t.Fatalf("docker client: %v", err)
	}
	t.Cleanup(func() { _ = rt.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := rt.Ping(ctx); err != nil {
		t.Fatalf("the Docker engine does not answer (run `make engine`): %v", err)
	}
	if _, err := rt.Image(ctx, PythonImage); err != nil {
		t.Fatalf("sandbox image missing (run `make images IMAGES=python`): %v", err)
	}
	return rt
}

// Blobs returns a blob store in a temporary directory.
func Blobs(t testing.TB) *blob.Store {
	t.Helper()
	s, err := blob.NewStore(t.TempDir())
	if err != nil {
		t.Fatalf("blob store: %v", err)
	}
	return s
}

// File is one entry of a test snapshot.
type File struct {
	Body string
	Mode int64
}

// Tar builds an uncompressed tar of files (path → content), directories
// first, sorted, with mode 0644 (0755 for a File with Mode 0755).
func Tar(t testing.TB, files map[string]File) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		f := files[n]
		mode := f.Mode
		if mode == 0 {
			mode = 0o644
		}
		if err := tw.WriteHeader(&tar.Header{Name: n, Mode: mode, Size: int64(len(f.Body)), Typeflag: tar.TypeReg,
			ModTime: time.Unix(1700000000, 0)}); err != nil {
			t.Fatalf("tar header: %v", err)
		}
		if _, err := tw.Write([]byte(f.Body)); err != nil {
			t.Fatalf("tar body: %v", err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatalf("tar close: %v", err)
	}
	return buf.Bytes()
}

// Put stores b and returns its digest.
func Put(t testing.TB, s *blob.Store, b []byte) blob.Digest {
	t.Helper()
	d, err := s.Put(context.Background(), bytes.NewReader(b))
	if err != nil {
		t.Fatalf("blob put: %v", err)
	}
	return d
}

// Snapshot stores a tar of files and returns its digest.
func Snapshot(t testing.TB, s *blob.Store, files map[string]File) blob.Digest {
	t.Helper()
	return Put(t, s, Tar(t, files))
}

// Logger returns a logger writing to the test log.
func Logger(t testing.TB) *zap.Logger {
	return zaptest.NewLogger(t, zaptest.Level(zap.WarnLevel))
}

// Containers lists the containers labelled with the owner.
func Containers(t testing.TB, rt sandbox.Runtime, owner string) []sandbox.ContainerInfo {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	list, err := rt.List(ctx, sandbox.LabelOwner+"="+owner)
	if err != nil {
		t.Fatalf("listing containers: %v", err)
	}
	return list
}

// WaitNoContainers fails t unless, within wait, no container labelled with
// owner remains (the equivalent of an empty
// `docker ps -a --filter label=greenlight.owner=OWNER`).
func WaitNoContainers(t testing.TB, rt sandbox.Runtime, owner string, wait time.Duration) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		list := Containers(t, rt, owner)
		if len(list) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d container(s) of owner %q still exist after %s: %v", len(list), owner, wait, list)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Owner returns a unique owner label value for a test.
func Owner(t testing.TB) string {
	return "test-" + sanitize(t.Name()) + "-" + time.Now().Format("150405.000000")
}

func sanitize(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.') {
			b[i] = '-'
		}
	}
	if len(b) > 60 {
		b = b[:60]
	}
	return string(b)
}
