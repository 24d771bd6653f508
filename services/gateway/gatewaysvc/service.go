package gatewaysvc

import (
	"context"

	"go.uber.org/zap"
	"google.golang.org/grpc"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// Service is the gateway's composition root: it owns the gateway's
// resources (later: the loop connection and the HTTP server) and registers
// its gRPC services.
type Service struct {
	cfg  Config
	log  *zap.Logger
	run  glv1.RunServiceServer
	blob glv1.BlobServiceServer
}

// New builds the gateway from cfg. ctx bounds background work started here;
// it ends when the hosting server begins shutting down.
func New(ctx context.Context, cfg Config, log *zap.Logger) (*Service, error) {
	_ = ctx // the HTTP report server and event fan-out will use it
	return &Service{
		cfg:  cfg,
		log:  log,
		run:  &runProxy{},
		blob: &blobProxy{},
	}, nil
}

// Register adds the gateway's public gRPC services to r.
func (s *Service) Register(r grpc.ServiceRegistrar) {
	glv1.RegisterRunServiceServer(r, s.run)
	glv1.RegisterBlobServiceServer(r, s.blob)
}

// Close releases the gateway's resources after its server stopped.
func (s *Service) Close() error { return nil }
