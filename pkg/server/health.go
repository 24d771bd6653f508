package server

import (
	"context"
	"sync"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

// healthService is grpc-go's health server plus one fix for shutdown: a
// Watch stream never ends by itself, so a single watching client (a load
// balancer, a compose health probe) would hold GracefulStop for the whole
// grace period. Watchers see NOT_SERVING during the drain delay and their
// streams then end with Unavailable when draining is over.
type healthService struct {
	*health.Server
	stopping chan struct{}
	once     sync.Once
}

var _ healthpb.HealthServer = (*healthService)(nil)

func newHealthService() *healthService {
	return &healthService{Server: health.NewServer(), stopping: make(chan struct{})}
}

// endWatches ends every Watch stream, now and in the future.
func (h *healthService) endWatches() {
	h.once.Do(func() { close(h.stopping) })
}

// Watch streams status changes until the client leaves or endWatches runs.
func (h *healthService) Watch(req *healthpb.HealthCheckRequest, stream healthpb.Health_WatchServer) error {
	ctx, cancel := context.WithCancel(stream.Context())
	defer cancel()
	go func() {
		select {
		case <-h.stopping:
			cancel()
		case <-ctx.Done():
		}
	}()
	err := h.Server.Watch(req, &watchStream{Health_WatchServer: stream, ctx: ctx})
	select {
	case <-h.stopping:
		return status.Error(codes.Unavailable, "server is shutting down")
	default:
		return err
	}
}

// watchStream replaces a Watch stream's context.
type watchStream struct {
	healthpb.Health_WatchServer
	ctx context.Context
}

func (w *watchStream) Context() context.Context { return w.ctx }
