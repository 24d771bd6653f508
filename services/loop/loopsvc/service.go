package loopsvc

import (
	"context"

	"go.uber.org/zap"
	"google.golang.org/grpc"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
)

// Service is the loop's composition root: it owns the loop's resources and
// registers its gRPC services.
type Service struct {
	cfg   Config
	log   *zap.Logger
	blobs *blob.Store
	run   glv1.RunServiceServer
}

// New builds the loop from cfg, opening the blob store under cfg.DataDir.
// ctx bounds background work started here; it ends when the hosting server
// begins shutting down.
func New(ctx context.Context, cfg Config, log *zap.Logger) (*Service, error) {
	_ = ctx // background work (e.g. marking interrupted runs) will use it
	blobs, err := openBlobStore(cfg.DataDir)
	if err != nil {
		return nil, err
	}
	return &Service{
		cfg:   cfg,
		log:   log,
		blobs: blobs,
		run:   &runServer{},
	}, nil
}

// Blobs returns the loop's blob store, so an embedding process can share it
// instead of going through gRPC.
func (s *Service) Blobs() *blob.Store { return s.blobs }

// Register adds the loop's gRPC services (RunService, BlobService) to r.
func (s *Service) Register(r grpc.ServiceRegistrar) {
	glv1.RegisterRunServiceServer(r, s.run)
	glv1.RegisterBlobServiceServer(r, blob.NewServer(s.blobs, s.log.Named("blob")))
}

// Close releases the loop's resources after its server stopped.
func (s *Service) Close() error { return nil }
