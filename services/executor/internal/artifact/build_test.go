package artifact

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
)

// ReportPath keeps the report's own base name under its step's directory.
func TestReportPath(t *testing.T) {
	for _, tc := range []struct{ name, p, want string }{
		{"test", "/workspace/target/TEST-a.xml", "reports/step-02-test/workspace/target/TEST-a.xml"},
		{"web:unit", "/tmp//junit.xml", "reports/step-02-web-unit/tmp/junit.xml"},
		{"x", "/home/sandbox/../sandbox/r.xml", "reports/step-02-x/home/sandbox/r.xml"},
	} {
		if got := ReportPath(1, tc.name, tc.p); got != tc.want {
			t.Errorf("ReportPath(%q, %q) = %q, want %q", tc.name, tc.p, got, tc.want)
		}
	}
}

func putString(t *testing.T, store *blob.Store, s string) *glv1.Digest {
	t.Helper()
	d, err := store.Put(context.Background(), strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return d.Proto()
}

// Build stores the manifest and lists it with the combined log, the logs
// of the steps that have one and the reports; Write then materializes
// them in the ARTIFACT_DIR layout.
func TestBuildAndWrite(t *testing.T) {
	store, err := blob.NewStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	combined := putString(t, store, "all output\n")
	steps := []*glv1.StepResult{
		{Name: "install", LogDigest: putString(t, store, "installed\n")},
		{Name: "skipped"},
		{Name: "web:test", LogDigest: putString(t, store, "1 passed\n")},
	}
	reports := []*glv1.Artifact{{Path: ReportPath(2, "web:test", "/tmp/junit.xml"), Digest: putString(t, store, "<testsuite/>")}}
	arts, err := Build(ctx, store, &glv1.Manifest{RunId: "r1", CommitSha: "abc"}, combined, steps, reports)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, a := range arts {
		paths = append(paths, a.GetPath())
	}
	want := "manifest.json logs/combined.log logs/step-01-install.log logs/step-03-web-test.log reports/step-03-web-test/tmp/junit.xml"
	if got := strings.Join(paths, " "); got != want {
		t.Fatalf("artifacts %s, want %s", got, want)
	}

	dir := t.TempDir()
	if err := Write(ctx, store, dir, "r1", arts); err != nil {
		t.Fatal(err)
	}
	read := func(p string) string {
		b, err := os.ReadFile(filepath.Join(dir, "runs", "r1", filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(read(ManifestPath)), &m); err != nil || m["run_id"] != "r1" || m["commit_sha"] != "abc" {
		t.Errorf("manifest.json %v, %v", m, err)
	}
	for p, body := range map[string]string{
		CombinedLogPath: "all output\n", "logs/step-03-web-test.log": "1 passed\n", "reports/step-03-web-test/tmp/junit.xml": "<testsuite/>",
	} {
		if got := read(p); got != body {
			t.Errorf("%s = %q, want %q", p, got, body)
		}
	}
}

// failingPutter refuses every blob.
type failingPutter struct{}

func (failingPutter) Put(context.Context, io.Reader) (blob.Digest, error) {
	return blob.Digest{}, errors.New("disk full")
}

// A manifest that cannot be stored fails Build; an artifact whose blob
// is missing or whose digest is malformed fails Write, naming it.
func TestBuildAndWriteFailures(t *testing.T) {
	if _, err := Build(context.Background(), failingPutter{}, &glv1.Manifest{}, nil, nil, nil); err == nil ||
		!strings.Contains(err.Error(), "storing manifest.json: disk full") {
		t.Errorf("Build with a failing store: %v", err)
	}
	store, err := blob.NewStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	missing := blob.DigestOf([]byte("never stored")).Proto()
	for _, a := range []*glv1.Artifact{
		{Path: "logs/combined.log", Digest: missing},
		{Path: "logs/combined.log", Digest: &glv1.Digest{Hash: "not-hex"}},
	} {
		err := Write(context.Background(), store, t.TempDir(), "r1", []*glv1.Artifact{a})
		if err == nil || !strings.Contains(err.Error(), "artifact logs/combined.log") {
			t.Errorf("Write of %v: %v", a.GetDigest(), err)
		}
	}
	// A file where the run's directory should be.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "runs"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ok := putString(t, store, "x")
	if err := Write(context.Background(), store, dir, "r1", []*glv1.Artifact{{Path: "logs/combined.log", Digest: ok}}); err == nil {
		t.Error("Write under a file succeeded")
	}
}
