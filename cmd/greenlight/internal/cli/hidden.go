package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/snapshot"
	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/stack"
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/workspace"
)

// Hidden tests (fix --hidden-tests PATCH|DIR): tests the model never
// sees, laid over each candidate for its grading verification only. A
// directory becomes the diff that lays its files over the packed
// workspace at the same relative paths; a file is sent as the diff it
// holds. Either is uploaded like a snapshot and named in
// FixOptions.hidden_tests; the loop checks it applies before round 1.

// hiddenArg is --hidden-tests checked before anything is packed: its
// absolute path, and whether it is a directory.
type hiddenArg struct {
	path string
	dir  bool
}

// checkHidden checks --hidden-tests against the workspace directory: it
// must exist and lie outside it (the model sees the workspace).
func checkHidden(workspaceDir, arg string) (*hiddenArg, error) {
	if arg == "" {
		return nil, nil
	}
	abs, err := filepath.Abs(arg)
	if err != nil {
		return nil, usagef("--hidden-tests %s: %v", arg, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, usagef("--hidden-tests: %v (name a diff file or a directory of test files)", err)
	}
	ws, err := filepath.Abs(workspaceDir)
	if err != nil {
		return nil, usagef("%s: %v", workspaceDir, err)
	}
	if rel, err := filepath.Rel(ws, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, usagef("--hidden-tests %s lies inside the workspace %s, which the model sees: keep hidden tests outside the directory being fixed", arg, ws)
	}
	return &hiddenArg{path: abs, dir: fi.IsDir()}, nil
}

// uploadHidden makes the hidden tests' diff against the packed workspace
// and uploads it.
func uploadHidden(ctx context.Context, conn *stack.Conn, packed *snapshot.Packed, h *hiddenArg) (*glv1.Digest, error) {
	diff, err := hiddenDiff(packed, h)
	if err != nil {
		return nil, err
	}
	d, err := conn.Blobs.Put(ctx, strings.NewReader(diff))
	if err != nil {
		return nil, fmt.Errorf("upload hidden tests: %w", err)
	}
	return d.Proto(), nil
}

// hiddenDiff is the hidden tests' diff: a directory's files laid over the
// packed workspace, or a diff file as it is.
func hiddenDiff(packed *snapshot.Packed, h *hiddenArg) (string, error) {
	if !h.dir {
		raw, err := os.ReadFile(h.path)
		switch {
		case err != nil:
			return "", usagef("--hidden-tests: %v", err)
		case len(strings.TrimSpace(string(raw))) == 0:
			return "", usagef("--hidden-tests %s is empty: give a unified diff that adds or changes test files", h.path)
		case len(raw) > workspace.MaxOverlayBytes:
			return "", usagef("--hidden-tests %s is larger than %d bytes", h.path, workspace.MaxOverlayBytes)
		}
		return string(raw), nil
	}
	tar, err := os.Open(packed.Path)
	if err != nil {
		return "", err
	}
	defer tar.Close()
	diff, err := workspace.OverlayDiff(tar, h.path)
	if err != nil {
		return "", usagef("--hidden-tests: %v", err)
	}
	if diff == "" {
		return "", usagef("--hidden-tests %s: every file in it is already in the workspace as it is; hidden tests are files the model does not see", h.path)
	}
	return diff, nil
}
