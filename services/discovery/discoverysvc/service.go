// Package discoverysvc is the discovery gRPC service: a snapshot digest in,
// capabilities and a pipeline out. Handlers are thin (validate, convert,
// call internal/capability and internal/plan, convert, map errors); New and
// Register let the embedded binary wire it next to the other services.
package discoverysvc

import (
	"context"
	"fmt"
	"io"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/capability"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/detect"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/plan"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/snapshot"
	"go.uber.org/zap"
	"google.golang.org/grpc"
)

// Snapshots opens snapshot tars by digest; *blob.Store and *blob.Client
// both satisfy it.
type Snapshots interface {
	Open(ctx context.Context, d blob.Digest) (io.ReadCloser, error)
}

// Options configure the service.
type Options struct {
	// Images overrides the default runtime -> image table.
	Images map[string]string
	// AllowedImages are the images a repository's greenlight.yaml or a
	// request may select besides the table's (nil: image.DefaultAllowed;
	// empty: only the table's).
	AllowedImages []string
	// MaxFiles caps the files of an indexed snapshot (0: default 500,000).
	MaxFiles int
	// MaxMarkerBytes caps one marker file's kept content (0: 1 MiB).
	MaxMarkerBytes int64
	// CacheEntries is the number of snapshot indices kept (0: 32;
	// negative: none).
	CacheEntries int
	// Maxima bound the limits, time budget and timeouts a repository's
	// greenlight.yaml may ask for; beyond them Plan and Discover answer
	// InvalidArgument naming the file, line, key, value and maximum. Set
	// them to the executor's maxima (zero fields: DefaultMaxima).
	Maxima Maxima
}

// Maxima are the largest sandbox resources a repository may ask for.
type Maxima struct {
	CPUs        float64
	MemoryBytes int64
	Pids        int64
	// RunTimeout bounds the time budget and every step timeout.
	RunTimeout time.Duration
}

// DefaultMaxima are the executor's default maxima: 4 CPUs, 8 GiB, 4096
// processes, 2 hours.
func DefaultMaxima() Maxima { return Maxima(capability.DefaultMaxima()) }

// Service implements greenlight.v1.DiscoveryService.
type Service struct {
	glv1.UnimplementedDiscoveryServiceServer
	snaps Snapshots
	log   *zap.Logger
	opts  Options
	cache *indexCache
}

var _ glv1.DiscoveryServiceServer = (*Service)(nil)

// New builds the service.
func New(snaps Snapshots, log *zap.Logger, opts Options) *Service {
	if log == nil {
		log = zap.NewNop()
	}
	size := opts.CacheEntries
	if size == 0 {
		size = 32
	}
	return &Service{snaps: snaps, log: log, opts: opts, cache: newIndexCache(size)}
}

// Register adds the service to a gRPC server.
func Register(s grpc.ServiceRegistrar, svc *Service) {
	glv1.RegisterDiscoveryServiceServer(s, svc)
}

// Discover detects subprojects, tools and commands of a snapshot.
func (s *Service) Discover(ctx context.Context, req *glv1.DiscoverRequest) (*glv1.DiscoverResponse, error) {
	caps, err := s.capabilities(ctx, req.GetSnapshot())
	if err != nil {
		return nil, s.fail(ctx, "discover failed", err)
	}
	return &glv1.DiscoverResponse{Capabilities: capabilitiesProto(caps)}, nil
}

// Plan builds the pipeline of one verification.
func (s *Service) Plan(ctx context.Context, req *glv1.PlanRequest) (*glv1.PlanResponse, error) {
	caps, err := s.capabilities(ctx, req.GetSnapshot())
	if err != nil {
		return nil, s.fail(ctx, "plan failed", err)
	}
	p, err := plan.Make(caps, planRequest(req))
	if err != nil {
		return nil, s.fail(ctx, "plan failed", err)
	}
	return &glv1.PlanResponse{Pipeline: pipelineProto(p), Capabilities: capabilitiesProto(caps)}, nil
}

// capabilities indexes the snapshot (or takes it from the cache) and runs
// discovery on it.
func (s *Service) capabilities(ctx context.Context, pd *glv1.Digest) (*capability.Capabilities, error) {
	if pd == nil {
		return nil, fmt.Errorf("%w: snapshot digest is required", ErrInvalidRequest)
	}
	d, err := blob.DigestFromProto(pd)
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	ix, err := s.index(ctx, d)
	if err != nil {
		return nil, err
	}
	return capability.Build(ix, capability.Options{Images: s.opts.Images, AllowedImages: s.opts.AllowedImages, Maxima: capability.Maxima(s.opts.Maxima)})
}

func (s *Service) index(ctx context.Context, d blob.Digest) (*snapshot.Index, error) {
	if ix, ok := s.cache.get(d); ok {
		return ix, nil
	}
	rc, err := s.snaps.Open(ctx, d)
	if err != nil {
		return nil, fmt.Errorf("open snapshot %s: %w", d, err)
	}
	defer rc.Close()
	ix, err := snapshot.FromTar(rc, detect.WantContent, snapshot.Limits{MaxFiles: s.opts.MaxFiles, MaxContentBytes: s.opts.MaxMarkerBytes})
	if err != nil {
		return nil, fmt.Errorf("index snapshot %s: %w", d, err)
	}
	s.cache.put(d, ix)
	return ix, nil
}

// fail maps an error to its gRPC status, logging unexpected ones.
func (s *Service) fail(ctx context.Context, msg string, err error) error {
	st, internal := toStatus(err)
	log := server.LoggerFrom(ctx, s.log)
	if internal {
		log.Error(msg, zap.Error(err))
	} else {
		log.Debug(msg, zap.Error(err))
	}
	return st
}
