// Package artifact builds and materializes a run's artifacts in the
// ARTIFACT_DIR layout of the output contract:
//
//	runs/<run_id>/manifest.json
//	runs/<run_id>/logs/combined.log
//	runs/<run_id>/logs/step-NN-<name>.log
//
// Artifact paths are relative to runs/<run_id>/; the content lives in the
// blob store.
package artifact

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/contract"
)

// Paths of the fixed artifacts, relative to the run directory.
const (
	ManifestPath    = "manifest.json"
	CombinedLogPath = "logs/combined.log"
)

// ErrUnsafePath marks an artifact path or run id that would leave the
// artifact directory.
var ErrUnsafePath = errors.New("unsafe artifact path")

// Putter stores blobs.
type Putter interface {
	Put(ctx context.Context, r io.Reader) (blob.Digest, error)
}

// Opener reads blobs.
type Opener interface {
	Open(ctx context.Context, d blob.Digest) (io.ReadCloser, error)
}

// unsafeNameRE matches what may not appear in a log file name.
var unsafeNameRE = regexp.MustCompile(`[^A-Za-z0-9_.+@-]+`)

// StepLogPath is the artifact path of step i's log (1-based NN).
func StepLogPath(i int, name string) string {
	clean := strings.Trim(unsafeNameRE.ReplaceAllString(name, "-"), ".-")
	if clean == "" {
		clean = "step"
	}
	return fmt.Sprintf("logs/step-%02d-%s.log", i+1, clean)
}

// ReportPath is the artifact path of a report file a step wrote at the
// absolute sandbox path p: reports/step-NN-<name>/<p without its leading
// slash>, so its base name is the report's own.
func ReportPath(i int, name, p string) string {
	dir := strings.TrimSuffix(strings.TrimPrefix(StepLogPath(i, name), "logs/"), ".log")
	return "reports/" + dir + "/" + strings.TrimPrefix(path.Clean(p), "/")
}

// Build stores manifest.json (the manifest as protobuf JSON with field names
// as in the .proto) and lists it with the combined log, every step log and
// the given report artifacts.
func Build(ctx context.Context, blobs Putter, m *glv1.Manifest, combined *glv1.Digest, steps []*glv1.StepResult,
	reports []*glv1.Artifact) ([]*glv1.Artifact, error) {
	js, err := manifestJSON(m)
	if err != nil {
		return nil, err
	}
	d, err := blobs.Put(ctx, bytes.NewReader(js))
	if err != nil {
		return nil, fmt.Errorf("storing manifest.json: %w", err)
	}
	arts := []*glv1.Artifact{{Path: ManifestPath, Digest: d.Proto()}}
	if combined != nil {
		arts = append(arts, &glv1.Artifact{Path: CombinedLogPath, Digest: combined})
	}
	for i, s := range steps {
		if s.GetLogDigest() != nil {
			arts = append(arts, &glv1.Artifact{Path: StepLogPath(i, s.GetName()), Digest: s.GetLogDigest()})
		}
	}
	return append(arts, reports...), nil
}

// manifestJSON encodes the manifest in the output contract's shape
// (pkg/contract), the same object a result's "manifest" is: every field
// present (an exit code of 0 is evidence too), numbers as numbers.
func manifestJSON(m *glv1.Manifest) ([]byte, error) {
	b, err := contract.Marshal(contract.ManifestOf(m))
	if err != nil {
		return nil, fmt.Errorf("encoding manifest.json: %w", err)
	}
	return b, nil
}

// Write materializes arts under dir/runs/<runID>/, creating directories as
// needed. It refuses run ids and paths that would leave that directory.
func Write(ctx context.Context, blobs Opener, dir, runID string, arts []*glv1.Artifact) error {
	if runID == "" || runID == "." || runID == ".." || strings.ContainsAny(runID, `/\`) {
		return fmt.Errorf("%w: run id %q", ErrUnsafePath, runID)
	}
	root := filepath.Join(dir, "runs", runID)
	for _, a := range arts {
		p := a.GetPath()
		if p == "" || path.IsAbs(p) || path.Clean(p) != p || p == ".." || strings.HasPrefix(p, "../") {
			return fmt.Errorf("%w: %q", ErrUnsafePath, p)
		}
		d, err := blob.DigestFromProto(a.GetDigest())
		if err != nil {
			return fmt.Errorf("artifact %s: %w", p, err)
		}
		if err := writeOne(ctx, blobs, filepath.Join(root, filepath.FromSlash(p)), d); err != nil {
			return fmt.Errorf("artifact %s: %w", p, err)
		}
	}
	return nil
}

func writeOne(ctx context.Context, blobs Opener, dst string, d blob.Digest) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	rc, err := blobs.Open(ctx, d)
	if err != nil {
		return err
	}
	defer rc.Close()
	f, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, rc); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}
