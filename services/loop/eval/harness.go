package eval

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/workspace"
	"github.com/greenlight-dev/greenlight/services/loop/internal/patch"
)

// fixedProvider answers every patch request with the same patch (a
// SWE-bench gold patch or prediction) and gives up when it is empty.
func fixedProvider(p string) taskProvider {
	return taskProvider{
		cfg: &glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_CLIENT},
		answer: func(_ context.Context, req *glv1.PatchRequest) (*glv1.PatchReply, error) {
			return &glv1.PatchReply{Attempt: req.GetAttempt(), Patch: p, GiveUp: p == ""}, nil
		},
	}
}

// harnessGuardrails apply the harness's own test patch: it is the trusted
// caller's, so tests, config and lockfiles may change and no size cap
// holds (the loop applies hidden tests the same way).
var harnessGuardrails = patch.Guardrails{MaxBytes: -1, MaxChangedLines: -1, AllowTestChanges: true,
	AllowConfigChanges: true, AllowLockfileEdits: true, Trusted: true}

// hiddenExclude is the pack pattern that keeps a task's hidden tests
// directory out of its workspace snapshot ("" when it lies outside).
func hiddenExclude(t *Task) string {
	if t.HiddenTests == "" {
		return ""
	}
	rel, err := filepath.Rel(t.Workspace, t.HiddenTests)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
		return ""
	}
	return "/" + filepath.ToSlash(rel)
}

// hiddenDiff returns a task's hidden tests as a diff against its packed
// workspace ("" without hidden tests), checked to apply with the loop's
// own patch code, so a diff that does not fits the task is the suite's
// error before any run.
func hiddenDiff(ctx context.Context, t *Task, packed []byte) (string, error) {
	diff := t.hiddenDiff
	if t.HiddenTests != "" {
		fi, err := os.Stat(t.HiddenTests)
		switch {
		case err != nil:
			return "", fmt.Errorf("%w: task %s: hidden_tests: %w", ErrSuite, t.Name, err)
		case fi.IsDir():
			if diff, err = workspace.OverlayDiff(bytes.NewReader(packed), t.HiddenTests); err != nil {
				return "", fmt.Errorf("%w: task %s: hidden_tests: %w", ErrSuite, t.Name, err)
			}
			if diff == "" {
				return "", fmt.Errorf("%w: task %s: hidden_tests: every file of %s is in the workspace as it is: hidden tests are files the model does not see",
					ErrSuite, t.Name, t.HiddenTests)
			}
		default:
			raw, err := os.ReadFile(t.HiddenTests)
			if err != nil {
				return "", fmt.Errorf("%w: task %s: hidden_tests: %w", ErrSuite, t.Name, err)
			}
			diff = string(raw)
		}
	}
	if diff == "" {
		return "", nil
	}
	p, err := patch.Parse(diff)
	if err != nil {
		return "", fmt.Errorf("%w: task %s: %s: %w", ErrSuite, t.Name, hiddenName(t), err)
	}
	res, err := patch.Apply(ctx, bytes.NewReader(packed), p, patch.Options{Guardrails: harnessGuardrails})
	if err != nil {
		return "", fmt.Errorf("%w: task %s: %s does not apply to %s: %w", ErrSuite, t.Name, hiddenName(t), t.Workspace, err)
	}
	_ = res.Close()
	return diff, nil
}

// hiddenName names where a task's hidden tests come from, for errors.
func hiddenName(t *Task) string {
	if t.HiddenTests != "" {
		return "hidden_tests " + t.HiddenTests
	}
	return "test_patch"
}
