package discoverysvc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestGRPCPlanLimits: greenlight.yaml limits within the maxima reach the
// pipeline (which the executor reads); beyond them Plan is InvalidArgument
// naming file:line, key, value and maximum.
func TestGRPCPlanLimits(t *testing.T) {
	h := serveWith(t, Options{Maxima: Maxima{CPUs: 2, MemoryBytes: 4 << 30}})
	ctx := rpcContext(t)
	put := func(yaml string) *glv1.Digest {
		dir := t.TempDir()
		for name, body := range map[string]string{"go.mod": "module x\n\ngo 1.22\n", "greenlight.yaml": yaml} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return h.put(t, dir)
	}
	resp, err := h.client.Plan(ctx, &glv1.PlanRequest{Snapshot: put("limits:\n  cpus: 2\n  memory: 3GiB\n  pids: 1000\n")})
	if err != nil {
		t.Fatal(err)
	}
	l := resp.GetPipeline().GetLimits()
	if l.GetCpus() != 2 || l.GetMemoryBytes() != 3<<30 || l.GetPids() != 1000 {
		t.Fatalf("pipeline limits = %v", l)
	}
	resp, err = h.client.Plan(ctx, &glv1.PlanRequest{Snapshot: put("mode: merge\n")})
	if err != nil || resp.GetPipeline().GetLimits() != nil {
		t.Fatalf("no limits asked: pipeline limits = %v, err %v", resp.GetPipeline().GetLimits(), err)
	}
	_, err = h.client.Plan(ctx, &glv1.PlanRequest{Snapshot: put("mode: merge\nlimits:\n  cpus: 3\n")})
	st, _ := status.FromError(err)
	want := "greenlight.yaml:3: limits.cpus: asks for 3, above the server's maximum of 2"
	if st.Code() != codes.InvalidArgument || !strings.Contains(st.Message(), want) {
		t.Fatalf("beyond the maximum: %v, want InvalidArgument with %q", err, want)
	}
}
