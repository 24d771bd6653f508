package fleet

import (
	"context"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// legacyCapacity is assumed for an executor that does not implement
// Capacity.
const legacyCapacity = 8

// member is one executor of the fleet. Its fields other than conn, client
// and addr are guarded by the fleet's mutex.
type member struct {
	addr   string
	conn   *grpc.ClientConn
	client glv1.ExecutorServiceClient
	stop   context.CancelFunc

	serving  bool // grpc.health.v1 says SERVING
	engineOK bool // the last Capacity answered, with an engine version
	max      int
	reported int // running, as the executor last said
	inflight int // executions this loop placed and that have not ended
	name     string
}

// healthy: serving and its engine answers.
func (m *member) healthy() bool { return m.serving && m.engineOK }

// free is how many more executions the member takes now.
func (m *member) free() int {
	used := m.inflight
	if m.reported > used {
		used = m.reported
	}
	if !m.healthy() || m.max-used < 0 {
		return 0
	}
	return m.max - used
}

// watchHealth follows the executor's grpc.health.v1 status until ctx
// ends, reconnecting after a broken stream; set is told each change.
func (m *member) watchHealth(ctx context.Context, retry time.Duration, set func(bool)) {
	hc := healthpb.NewHealthClient(m.conn)
	for ctx.Err() == nil {
		stream, err := hc.Watch(ctx, &healthpb.HealthCheckRequest{})
		if err == nil {
			var resp *healthpb.HealthCheckResponse
			if resp, err = stream.Recv(); err == nil {
				set(resp.GetStatus() == healthpb.HealthCheckResponse_SERVING)
			} else if status.Code(err) == codes.Unimplemented {
				// No health service: its Capacity answers decide alone.
				set(true)
				<-ctx.Done()
				return
			}
		}
		for err == nil {
			var resp *healthpb.HealthCheckResponse
			if resp, err = stream.Recv(); err == nil {
				set(resp.GetStatus() == healthpb.HealthCheckResponse_SERVING)
			}
		}
		set(false)
		select {
		case <-ctx.Done():
		case <-time.After(retry):
		}
	}
}

// pollCapacity asks the executor for its capacity every period until ctx
// ends; set is told each answer (nil when the call failed).
func (m *member) pollCapacity(ctx context.Context, period time.Duration, set func(*glv1.CapacityResponse)) {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		cctx, cancel := context.WithTimeout(ctx, period)
		c, err := m.client.Capacity(cctx, &glv1.CapacityRequest{})
		cancel()
		switch {
		case status.Code(err) == codes.Unimplemented:
			// An executor from before Capacity: usable while it serves,
			// with the default capacity; its engine is checked per run.
			c = &glv1.CapacityResponse{MaxSandboxes: legacyCapacity, EngineVersion: "unknown"}
		case err != nil:
			c = nil
		}
		set(c)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
