// Command greenlight-executor serves ExecutorService: it runs pipelines in
// hardened, throw-away Docker sandboxes, or with --runtime kubernetes in
// pods of a cluster. It is the only greenlight process that talks to
// Docker or to Kubernetes. Snapshots are read from, and logs written to, the
// blob store: the loop's BlobService (--blob-addr) or a local directory
// (--blob-dir).
package main

import (
	"context"
	"errors"
	"fmt"

	"go.uber.org/zap"

	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/config"
	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/services/executor/executorsvc"
	"github.com/greenlight-dev/greenlight/services/executor/internal/kube"
)

// settings is the executor's configuration plus where its blobs live.
type settings struct {
	exec     executorsvc.Config
	blobAddr string
	blobDir  string
}

func (s *settings) RegisterFlags(fs *config.FlagSet) {
	s.exec.RegisterFlags(fs)
	fs.String(&s.blobAddr, "blob-addr", "BlobService `address` (the loop's) for snapshots and logs")
	fs.String(&s.blobDir, "blob-dir", "local blob store `directory`, used instead of --blob-addr")
}

func (s *settings) Validate() error {
	if s.blobAddr == "" && s.blobDir == "" {
		return errors.New("set --blob-addr or --blob-dir")
	}
	return s.exec.Validate()
}

// blobs opens the configured blob store; a remote one gets the shared
// service token.
func (s *settings) blobs(serviceToken string) (executorsvc.Blobs, func() error, error) {
	if s.blobDir != "" {
		st, err := blob.NewStore(s.blobDir)
		return st, func() error { return nil }, err
	}
	conn, err := server.Dial(s.blobAddr, server.DialServiceToken(serviceToken))
	if err != nil {
		return nil, nil, fmt.Errorf("blob service %s: %w", s.blobAddr, err)
	}
	return blob.NewClient(conn), conn.Close, nil
}

func main() {
	// --runtime kubernetes: linked here only, not into the CLI's embedded
	// executor (executorsvc.UseKubernetes).
	executorsvc.UseKubernetes(kube.NewRuntime)
	st := &settings{exec: executorsvc.DefaultConfig(config.DefaultDataDir()), blobAddr: config.DefaultLoopAddr}
	server.Main(server.Spec{
		Name:        "executor",
		DefaultAddr: config.DefaultExecutorAddr,
		Settings:    st,
		Register: func(ctx context.Context, s *server.Server, log *zap.Logger) (func() error, error) {
			blobs, closeBlobs, err := st.blobs(s.Config().ServiceToken)
			if err != nil {
				return nil, err
			}
			svc, err := executorsvc.New(st.exec, blobs, log)
			if err != nil {
				return nil, errors.Join(err, closeBlobs())
			}
			svc.Register(s.GRPC())
			svc.Warm(ctx)
			return func() error { return errors.Join(svc.Close(), closeBlobs()) }, nil
		},
	})
}
