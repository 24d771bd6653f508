package eval

import (
	"bytes"
	"context"
	"fmt"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
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
// holds.
var harnessGuardrails = patch.Guardrails{MaxBytes: -1, MaxChangedLines: -1, AllowTestChanges: true,
	AllowConfigChanges: true, AllowLockfileEdits: true}

// uploadWithTests applies a task's test patch to its packed workspace
// with the loop's own patch code (exact context, as the repair loop
// applies patches) and stores the result.
func uploadWithTests(ctx context.Context, up Uploader, t *Task, packed *bytes.Buffer) (*glv1.Digest, error) {
	p, err := patch.Parse(t.testPatch)
	if err != nil {
		return nil, fmt.Errorf("%w: task %s: test_patch: %w", ErrSuite, t.Name, err)
	}
	res, err := patch.Apply(ctx, packed, p, patch.Options{Guardrails: harnessGuardrails})
	if err != nil {
		return nil, fmt.Errorf("%w: task %s: test_patch does not apply to %s: %w", ErrSuite, t.Name, t.Workspace, err)
	}
	defer res.Close()
	f, err := res.Open()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d, err := up.Put(ctx, f)
	if err != nil {
		return nil, fmt.Errorf("task %s: upload snapshot: %w", t.Name, err)
	}
	return d.Proto(), nil
}
