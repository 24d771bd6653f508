package executorsvc

import (
	"errors"

	"google.golang.org/grpc/codes"

	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/image"
	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// errNoImage marks a pipeline whose runtime has no configured image.
var errNoImage = errors.New("no sandbox image")

// errorCodes is the one mapping from the executor's errors to gRPC codes.
var errorCodes = []server.ErrorCode{
	{Err: sandbox.ErrInvalidRequest, Code: codes.InvalidArgument},
	{Err: sandbox.ErrInvalidSnapshot, Code: codes.InvalidArgument},
	{Err: sandbox.ErrImageNotFound, Code: codes.InvalidArgument},
	{Err: errNoImage, Code: codes.InvalidArgument},
	{Err: image.ErrNotAllowed, Code: codes.PermissionDenied},
	{Err: blob.ErrInvalidDigest, Code: codes.InvalidArgument},
	{Err: sandbox.ErrNoStepRunner, Code: codes.FailedPrecondition},
	{Err: sandbox.ErrSnapshotNotFound, Code: codes.NotFound},
	{Err: blob.ErrNotFound, Code: codes.NotFound},
	{Err: sandbox.ErrEngineUnavailable, Code: codes.Unavailable},
	{Err: sandbox.ErrClosed, Code: codes.Unavailable},
}

// toStatus maps err to a status error.
func toStatus(err error) error { return server.ToStatus(err, errorCodes...) }
