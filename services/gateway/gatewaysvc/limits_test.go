package gatewaysvc

import (
	"net/http"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/pkg/server/servertest"
	"github.com/greenlight-dev/greenlight/services/gateway/internal/loopfake"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

func TestRateLimitPerClient(t *testing.T) {
	g := startGateway(t, func(c *Config, _ *server.Config) { c.RateLimit, c.RateBurst = 1, 3 })
	g.loop.Put(loopfake.PassingFixRun("run-1", nil))
	ctx := testContext(t)
	var last error
	for range 3 {
		if _, err := g.runs.GetRun(ctx, &glv1.GetRunRequest{RunId: "run-1"}); err != nil {
			t.Fatalf("call within the burst: %v", err)
		}
	}
	_, last = g.runs.GetRun(ctx, &glv1.GetRunRequest{RunId: "run-1"})
	st := status.Convert(last)
	if st.Code() != codes.ResourceExhausted {
		t.Fatalf("call over the limit = %v, want ResourceExhausted", last)
	}
	hint := false
	for _, d := range st.Details() {
		if ri, ok := d.(*errdetails.RetryInfo); ok && ri.GetRetryDelay().AsDuration() > 0 {
			hint = true
		}
	}
	if !hint {
		t.Fatalf("no RetryInfo in %v", st.Details())
	}
	if got, err := servertest.Health(ctx, g.conn, ""); err != nil || got != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("health while throttled = %v, %v", got, err)
	}
	// The HTTP side has its own bucket per client.
	for i := range 4 {
		resp, err := http.Get(g.httpURL + "/runs/run-1")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		want := http.StatusOK
		if i == 3 {
			want = http.StatusTooManyRequests
		}
		if resp.StatusCode != want {
			t.Fatalf("HTTP request %d = %d, want %d", i+1, resp.StatusCode, want)
		}
	}
}
