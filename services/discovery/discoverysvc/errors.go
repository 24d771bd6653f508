package discoverysvc

import (
	"context"
	"errors"

	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/image"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/plan"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/repoconfig"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/snapshot"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// ErrInvalidRequest marks a request that fails validation.
var ErrInvalidRequest = errors.New("invalid request")

// errorCodes is the one mapping from domain sentinels to gRPC codes.
var errorCodes = []struct {
	err  error
	code codes.Code
}{
	{ErrInvalidRequest, codes.InvalidArgument},
	{blob.ErrInvalidDigest, codes.InvalidArgument},
	{blob.ErrNotFound, codes.NotFound},
	{repoconfig.ErrInvalid, codes.InvalidArgument},
	{plan.ErrNotWhitelisted, codes.PermissionDenied},
	{plan.ErrBadSelection, codes.InvalidArgument},
	{image.ErrNotAllowed, codes.InvalidArgument},
	{snapshot.ErrMalformed, codes.InvalidArgument},
	{snapshot.ErrTooLarge, codes.ResourceExhausted},
	{context.Canceled, codes.Canceled},
	{context.DeadlineExceeded, codes.DeadlineExceeded},
}

// toStatus maps an error to a gRPC status; internal reports an unexpected
// error whose detail belongs in the log, not in the answer.
func toStatus(err error) (st error, internal bool) {
	for _, m := range errorCodes {
		if errors.Is(err, m.err) {
			return status.Error(m.code, err.Error()), false
		}
	}
	return status.Error(codes.Internal, "discovery internal error (details are in the server log)"), true
}
