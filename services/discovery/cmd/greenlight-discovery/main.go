// Command greenlight-discovery serves greenlight.v1.DiscoveryService: it
// reads snapshot tars from a blob store (a local directory shared with loop,
// or loop's BlobService over gRPC) and answers Discover and Plan.
package main

import (
	"context"

	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/config"
	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/services/discovery/discoverysvc"
	"go.uber.org/zap"
)

func main() {
	st := defaultSettings()
	server.Main(server.Spec{
		Name:        "discovery",
		DefaultAddr: config.DefaultDiscoveryAddr,
		Settings:    st,
		Register: func(_ context.Context, s *server.Server, log *zap.Logger) (func() error, error) {
			snaps, closeFn, err := openSnapshots(st, s.Config().ServiceToken)
			if err != nil {
				return nil, err
			}
			svc := discoverysvc.New(snaps, log, discoverysvc.Options{
				Images: st.images, AllowedImages: nonNil(st.AllowedImages), MaxFiles: st.MaxFiles, CacheEntries: st.CacheEntries,
				Maxima: st.maxima(),
			})
			discoverysvc.Register(s.GRPC(), svc)
			log.Info("discovery ready", zap.String("blob_dir", st.BlobDir), zap.String("blob_addr", st.BlobAddr))
			return closeFn, nil
		},
	})
}

// openSnapshots opens the local store or dials the remote BlobService,
// sending the shared service token.
func openSnapshots(st *settings, serviceToken string) (discoverysvc.Snapshots, func() error, error) {
	if st.BlobDir != "" {
		store, err := blob.NewStore(st.BlobDir)
		if err != nil {
			return nil, nil, err
		}
		return store, nil, nil
	}
	conn, err := server.Dial(st.BlobAddr, server.DialServiceToken(serviceToken))
	if err != nil {
		return nil, nil, err
	}
	return blob.NewClient(conn), conn.Close, nil
}
