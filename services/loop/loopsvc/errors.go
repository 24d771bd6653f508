package loopsvc

import (
	"google.golang.org/grpc/codes"

	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/services/loop/internal/engine"
	"github.com/greenlight-dev/greenlight/services/loop/internal/events"
	"github.com/greenlight-dev/greenlight/services/loop/internal/store"
)

// errorCodes maps the loop's domain errors to gRPC codes, in one place.
// Errors that already carry a status (discovery's answers) keep it.
var errorCodes = []server.ErrorCode{
	{Err: engine.ErrInvalidArgument, Code: codes.InvalidArgument},
	{Err: engine.ErrPermissionDenied, Code: codes.PermissionDenied},
	{Err: engine.ErrClosed, Code: codes.Unavailable},
	{Err: store.ErrNotFound, Code: codes.NotFound},
	{Err: store.ErrInvalidArgument, Code: codes.InvalidArgument},
	{Err: store.ErrClosed, Code: codes.Unavailable},
	{Err: events.ErrInvalidArgument, Code: codes.InvalidArgument},
	{Err: errProtocol, Code: codes.InvalidArgument},
}

// toStatus converts a domain error to a gRPC status error.
func toStatus(err error) error { return server.ToStatus(err, errorCodes...) }
