package e2e_test

import (
	"context"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestNodeWorkspacesInTheSandbox: a workspace is installed once at its
// root and each member is tested in its own directory and failure scope,
// so the failing member (packages/bad, first in order) does not hide the
// other's tests; a root whose test script runs every member's is the one
// test step. The fixtures install offline (no dependencies, links only).
func TestNodeWorkspacesInTheSandbox(t *testing.T) {
	s := newStack(t)
	t.Run("npm workspaces, one member failing", func(t *testing.T) {
		sub := *s
		sub.t = t
		r := sub.verifyFixture("node-npm-workspaces", nil)
		if got := r.result.GetStatus(); got != glv1.Verdict_VERDICT_FAIL {
			t.Fatalf("verdict %s, want FAIL: %s\n%s", got, r.result.GetSummary(), r.result.GetTailLog())
		}
		if st := r.step(t, "npm-install"); st.GetStatus() != glv1.StepStatus_STEP_STATUS_OK || st.GetWorkdir() != "." {
			t.Errorf("npm-install %s in %q, want OK at the root:\n%s", st.GetStatus(), st.GetWorkdir(), st.GetTail())
		}
		bad := r.step(t, "packages/bad:npm-test")
		if bad.GetStatus() != glv1.StepStatus_STEP_STATUS_FAILED || bad.GetWorkdir() != "packages/bad" {
			t.Errorf("packages/bad:npm-test %s in %q, want FAILED in packages/bad", bad.GetStatus(), bad.GetWorkdir())
		}
		if c := bad.GetCounts(); c.GetPassed() != 1 || c.GetFailed() != 1 {
			t.Errorf("packages/bad counts %v, want 1 passed 1 failed", c)
		}
		good := r.step(t, "packages/good:npm-test")
		if good.GetStatus() != glv1.StepStatus_STEP_STATUS_OK {
			t.Errorf("packages/good:npm-test %s (%s), want OK: a failing member must not hide the others", good.GetStatus(), good.GetReason())
		}
		testsPassed(t, r, "packages/good:npm-test", "", 2)
		var named bool
		for _, f := range r.result.GetFailures() {
			named = named || (strings.Contains(f.GetTest(), "subtracts") && strings.HasPrefix(f.GetFile(), "packages/bad/"))
		}
		if !named {
			t.Errorf("failures %v do not name packages/bad's failing test", r.result.GetFailures())
		}
	})
	t.Run("pnpm workspace whose root runs every member's tests", func(t *testing.T) {
		imageTool{nodeImage, "pnpm"}.require(t)
		sub := *s
		sub.t = t
		r := sub.verifyFixture("node-pnpm-workspace", nil)
		if got := r.result.GetStatus(); got != glv1.Verdict_VERDICT_PASS {
			t.Fatalf("verdict %s, want PASS: %s\n%s", got, r.result.GetSummary(), r.result.GetTailLog())
		}
		allOK(t, r)
		if got := stepNames(r.result); !slices.Equal(got, []string{"pnpm-install=OK", "secret-scan=OK", "pnpm-test=OK"}) {
			t.Errorf("steps %v, want pnpm-install, the secret scan and the root's pnpm-test only", got)
		}
		testsPassed(t, r, "pnpm-test", "", 2)
	})
}

// TestNodeManagerMissingFromImage: a project whose lockfile names a package
// manager the image lacks ends ERROR naming the tool and the image, never
// FAIL (the project is not at fault) nor a PASS without its tests.
func TestNodeManagerMissingFromImage(t *testing.T) {
	s := newStack(t)
	for fixture, tool := range map[string]string{"node-bun": "bun", "node-yarn": "yarn"} {
		t.Run(fixture, func(t *testing.T) {
			if hasTool(nodeImage, tool) {
				t.Skipf("%s has %s now: the fixture's install needs the npm registry, which this test does not reach", nodeImage, tool)
			}
			sub := *s
			sub.t = t
			r := sub.verifyFixture(fixture, nil)
			if got := r.result.GetStatus(); got != glv1.Verdict_VERDICT_ERROR {
				t.Fatalf("verdict %s, want ERROR: %s", got, r.result.GetSummary())
			}
			install := r.step(t, tool+"-install")
			want := "tool not available in " + nodeImage + ": " + tool
			if install.GetStatus() != glv1.StepStatus_STEP_STATUS_ERROR || !strings.Contains(install.GetReason(), want) {
				t.Errorf("%s-install %s %q, want ERROR with %q", tool, install.GetStatus(), install.GetReason(), want)
			}
		})
	}
}

// hasTool reports whether image has tool on its PATH.
func hasTool(image, tool string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return exec.CommandContext(ctx, "docker", "run", "--rm", "--network", "none", "--entrypoint", "/bin/sh", image, "-c", "command -v "+tool).Run() == nil
}
