package server

import (
	"context"
	"errors"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// ErrorCode maps a domain sentinel error to the gRPC code it becomes at the
// server boundary.
type ErrorCode struct {
	Err  error
	Code codes.Code
}

// ToStatus converts a domain error into a gRPC status error, in one place per
// service:
//
//   - nil stays nil; an error that already carries a status keeps it;
//   - the first table entry whose Err matches (errors.Is) gives the code, and
//     err's own message, which should say what to do, is kept;
//   - context.Canceled and context.DeadlineExceeded map to their codes;
//   - anything else is Internal.
func ToStatus(err error, table ...ErrorCode) error {
	if err == nil {
		return nil
	}
	if _, ok := status.FromError(err); ok {
		return err
	}
	for _, e := range table {
		if errors.Is(err, e.Err) {
			return status.Error(e.Code, err.Error())
		}
	}
	switch {
	case errors.Is(err, context.Canceled):
		return status.Error(codes.Canceled, err.Error())
	case errors.Is(err, context.DeadlineExceeded):
		return status.Error(codes.DeadlineExceeded, err.Error())
	}
	return status.Error(codes.Internal, err.Error())
}
