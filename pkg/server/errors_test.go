package server_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/greenlight-dev/greenlight/pkg/server"
)

func TestToStatus(t *testing.T) {
	errNotFound := errors.New("run not found")
	errBad := errors.New("bad snapshot")
	table := []server.ErrorCode{
		{Err: errNotFound, Code: codes.NotFound},
		{Err: errBad, Code: codes.InvalidArgument},
	}
	tests := []struct {
		name    string
		err     error
		code    codes.Code
		message string
	}{
		{"nil", nil, codes.OK, ""},
		{"wrapped sentinel keeps message", fmt.Errorf("get run r1: %w", errNotFound), codes.NotFound, "get run r1: run not found"},
		{"second entry", fmt.Errorf("unpack: %w", errBad), codes.InvalidArgument, "unpack: bad snapshot"},
		{"status passes through", status.Error(codes.PermissionDenied, "no"), codes.PermissionDenied, "no"},
		{"canceled", fmt.Errorf("wait: %w", context.Canceled), codes.Canceled, "wait: context canceled"},
		{"deadline", context.DeadlineExceeded, codes.DeadlineExceeded, "context deadline exceeded"},
		{"unknown is internal", errors.New("disk on fire"), codes.Internal, "disk on fire"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := server.ToStatus(tt.err, table...)
			if (got == nil) != (tt.err == nil) {
				t.Fatalf("ToStatus(%v) = %v", tt.err, got)
			}
			st := status.Convert(got)
			if st.Code() != tt.code || st.Message() != tt.message {
				t.Fatalf("ToStatus = %v %q, want %v %q", st.Code(), st.Message(), tt.code, tt.message)
			}
		})
	}
}
