package loopsvc

import glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"

// runServer implements RunService. Until the orchestrator lands every RPC
// answers Unimplemented through the embedded type.
type runServer struct {
	glv1.UnimplementedRunServiceServer
}

var _ glv1.RunServiceServer = (*runServer)(nil)
