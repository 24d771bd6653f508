package executorsvc

import (
	"context"
	"fmt"
	"os"
	"sync"

	"go.uber.org/zap"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/server"
)

// slots counts running executions against the configured maximum. A full
// executor refuses more (RESOURCE_EXHAUSTED) rather than queueing them: the
// loop, which sees every executor's capacity, queues and places runs.
type slots struct {
	mu      sync.Mutex
	max     int
	running int
	// reported is what Capacity last logged (maximum and engine version).
	reported string
}

// acquire takes a slot, or says the executor is full.
func (s *slots) acquire() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running >= s.max {
		return status.Errorf(codes.ResourceExhausted, "executor at capacity: %d of %d sandboxes in use; retry on another executor or later", s.running, s.max)
	}
	s.running++
	return nil
}

func (s *slots) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.running--
}

func (s *slots) load() (max, running int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.max, s.running
}

// changed records state as the last one reported and says whether it
// differs from the one before.
func (s *slots) changed(state string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.reported == state {
		return false
	}
	s.reported = state
	return true
}

// Capacity reports this executor's maximum and current number of
// sandboxes, its name and its engine's version (empty when the engine
// does not answer: the loop then treats it as unable to run anything).
//
// Each loop polls it every few seconds: the call itself is logged at debug
// level, and a line at info level says when the maximum or the engine
// (reachable, its version) changed, the first answer included.
func (s *Service) Capacity(ctx context.Context, _ *glv1.CapacityRequest) (*glv1.CapacityResponse, error) {
	server.Quiet(ctx)
	max, running := s.slots.load()
	resp := &glv1.CapacityResponse{MaxSandboxes: int32(max), Running: int32(running), Name: s.name()}
	info, err := s.rt.Engine(ctx)
	if err == nil {
		resp.EngineVersion = info.Version
	}
	if s.slots.changed(fmt.Sprintf("%d/%s", max, resp.EngineVersion)) {
		fields := []zap.Field{zap.Int("max_sandboxes", max), zap.Bool("engine_reachable", err == nil), zap.String("engine_version", resp.EngineVersion)}
		if err != nil {
			fields = append(fields, zap.Error(err))
		}
		s.log.Info("capacity changed", fields...)
	}
	return resp, nil
}

// name identifies this executor in results: its egress instance when set,
// else the host and process.
func (s *Service) name() string {
	if s.cfg.EgressInstance != "" {
		return s.cfg.EgressInstance
	}
	host, _ := os.Hostname()
	return fmt.Sprintf("%s/%d", host, os.Getpid())
}
