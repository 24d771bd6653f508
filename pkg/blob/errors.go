package blob

import (
	"context"
	"errors"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Sentinel errors of the blob store. Every error returned by Store, the server
// and Client wraps at most one of them, so errors.Is works on both sides of a
// gRPC connection.
var (
	// ErrNotFound means no blob with that digest is stored.
	ErrNotFound = errors.New("blob not found")
	// ErrInvalidDigest means a digest is missing or malformed.
	ErrInvalidDigest = errors.New("invalid digest")
	// ErrDigestMismatch means the uploaded bytes do not match the declared digest.
	ErrDigestMismatch = errors.New("digest mismatch")
	// ErrTooLarge means a blob exceeds the configured maximum size.
	ErrTooLarge = errors.New("blob too large")
	// ErrOutOfRange means a read offset lies beyond the end of the blob.
	ErrOutOfRange = errors.New("offset out of range")
	// ErrInvalidRange means a negative read offset or limit.
	ErrInvalidRange = errors.New("invalid range")
	// ErrBusy means the server's cap on the bytes of uploads in flight is
	// reached; the upload may succeed later.
	ErrBusy = errors.New("blob server busy")
)

// errorDomain tags the ErrorInfo detail the server attaches, so the client can
// tell the InvalidArgument sentinels apart.
const errorDomain = "blob.greenlight.dev"

// errorCodes is the one mapping between sentinels, gRPC codes and the reason
// carried in the ErrorInfo detail; toStatus and fromStatus both read it.
var errorCodes = []struct {
	err    error
	code   codes.Code
	reason string
}{
	{ErrNotFound, codes.NotFound, "NOT_FOUND"},
	{ErrInvalidDigest, codes.InvalidArgument, "INVALID_DIGEST"},
	{ErrDigestMismatch, codes.InvalidArgument, "DIGEST_MISMATCH"},
	{ErrInvalidRange, codes.InvalidArgument, "INVALID_RANGE"},
	{ErrTooLarge, codes.ResourceExhausted, "TOO_LARGE"},
	{ErrBusy, codes.ResourceExhausted, "IN_FLIGHT_CAP"},
	{ErrOutOfRange, codes.OutOfRange, "OUT_OF_RANGE"},
}

// internalMessage is what a client sees for an unexpected server-side error;
// the detail (which may name local paths) goes to the server log only.
const internalMessage = "blob store internal error (details are in the server log)"

// toStatus maps an error from the Store to a gRPC status error. internal
// reports whether err was unexpected, so the caller logs it.
func toStatus(err error) (st error, internal bool) {
	if err == nil {
		return nil, false
	}
	for _, m := range errorCodes {
		if errors.Is(err, m.err) {
			s := status.New(m.code, err.Error())
			if withInfo, derr := s.WithDetails(&errdetails.ErrorInfo{Reason: m.reason, Domain: errorDomain}); derr == nil {
				s = withInfo
			}
			return s.Err(), false
		}
	}
	switch {
	case errors.Is(err, context.Canceled):
		return status.Error(codes.Canceled, err.Error()), false
	case errors.Is(err, context.DeadlineExceeded):
		return status.Error(codes.DeadlineExceeded, err.Error()), false
	}
	// Errors that already are gRPC statuses (a broken client stream) pass on.
	if s, ok := status.FromError(err); ok {
		return s.Err(), false
	}
	return status.Error(codes.Internal, internalMessage), true
}

// fromStatus turns a gRPC status error from the server back into an error that
// wraps the matching sentinel (and still carries the status for status.Code).
func fromStatus(err error) error {
	s, ok := status.FromError(err)
	if !ok || s.Code() == codes.OK {
		return err
	}
	if sentinel := sentinelOf(s); sentinel != nil {
		return &remoteError{status: s, sentinel: sentinel}
	}
	return err
}

// sentinelOf finds the sentinel for a status: by the ErrorInfo detail when
// present, otherwise by code where the code alone is unambiguous.
func sentinelOf(s *status.Status) error {
	for _, d := range s.Details() {
		info, ok := d.(*errdetails.ErrorInfo)
		if !ok || info.GetDomain() != errorDomain {
			continue
		}
		for _, m := range errorCodes {
			if m.reason == info.GetReason() {
				return m.err
			}
		}
	}
	switch s.Code() {
	case codes.NotFound:
		return ErrNotFound
	case codes.ResourceExhausted:
		return ErrTooLarge
	case codes.OutOfRange:
		return ErrOutOfRange
	case codes.Canceled:
		return context.Canceled
	case codes.DeadlineExceeded:
		return context.DeadlineExceeded
	}
	return nil
}

// remoteError is a server error seen by the client: errors.Is matches its
// sentinel, status.Code still reports the gRPC code.
type remoteError struct {
	status   *status.Status
	sentinel error
}

// Error returns the server's message, which already starts with the sentinel's text.
func (e *remoteError) Error() string { return "blob service: " + e.status.Message() }

// Unwrap exposes the sentinel to errors.Is.
func (e *remoteError) Unwrap() error { return e.sentinel }

// GRPCStatus keeps status.Code and status.FromError working on the mapped error.
func (e *remoteError) GRPCStatus() *status.Status { return e.status }
