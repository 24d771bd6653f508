package executorsvc

import (
	"context"
	"fmt"
	"os"
	"sync"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// slots counts running executions against the configured maximum. A full
// executor refuses more (RESOURCE_EXHAUSTED) rather than queueing them: the
// loop, which sees every executor's capacity, queues and places runs.
type slots struct {
	mu      sync.Mutex
	max     int
	running int
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

// Capacity reports this executor's maximum and current number of
// sandboxes, its name and its engine's version (empty when the engine
// does not answer: the loop then treats it as unable to run anything).
func (s *Service) Capacity(ctx context.Context, _ *glv1.CapacityRequest) (*glv1.CapacityResponse, error) {
	max, running := s.slots.load()
	resp := &glv1.CapacityResponse{MaxSandboxes: int32(max), Running: int32(running), Name: s.name()}
	if info, err := s.rt.Engine(ctx); err == nil {
		resp.EngineVersion = info.Version
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
