package executorsvc

import (
	"context"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// An executor at its maximum refuses another execution with
// RESOURCE_EXHAUSTED (nothing starts), and Capacity reports the load.
func TestCapacityRefusesBeyondTheMaximum(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.MaxSandboxes = 1; c.EgressInstance = "captest" })
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := e.client.Capacity(ctx, &glv1.CapacityRequest{})
	if err != nil || c.GetMaxSandboxes() != 1 || c.GetRunning() != 0 || c.GetName() != "captest" || c.GetEngineVersion() == "" {
		t.Fatalf("idle capacity = %v, %v", c, err)
	}
	slow := e.request(nil, sh("sleep", "sleep 30"))
	first, err := e.client.Execute(ctx, slow)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := first.Recv(); err != nil { // the first step has started
		t.Fatal(err)
	}
	c, err = e.client.Capacity(ctx, &glv1.CapacityRequest{})
	if err != nil || c.GetRunning() != 1 {
		t.Fatalf("busy capacity = %v, %v", c, err)
	}
	creates := e.rt.creates.Load()
	second := e.execute(ctx, e.request(nil, sh("echo", "echo hi")))
	if status.Code(second.err) != codes.ResourceExhausted || e.rt.creates.Load() != creates {
		t.Fatalf("second execution on a full executor: %v (containers created: %d)", second.err, e.rt.creates.Load()-creates)
	}
	cancel()
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := e.client.Capacity(context.Background(), &glv1.CapacityRequest{})
		if err == nil && c.GetRunning() == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the slot was not released after the first execution ended: %v %v", c, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
