package server

import (
	"context"
	"fmt"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/encoding"
	_ "google.golang.org/grpc/encoding/proto" // registers the "proto" codec wrapped below
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// Malformed requests. grpc-go turns a codec's unmarshal error into Internal
// before any interceptor runs, which blames the server for a client's bad
// bytes. So the server's codec does not fail: it records the error against
// the message it was decoding into (by pointer) and leaves that message
// empty; the interceptors below, which see the same pointer (the unary
// request, a stream's RecvMsg argument), turn the record into
// InvalidArgument before any handler acts on the empty message.

// decodeFailures maps a message being decoded to why it could not be.
type decodeFailures struct{ m sync.Map }

// take returns and forgets the failure recorded for msg.
func (d *decodeFailures) take(msg any) error {
	if v, ok := d.m.LoadAndDelete(msg); ok {
		return v.(error)
	}
	return nil
}

// recordingCodec is the proto codec whose Unmarshal records failures.
type recordingCodec struct {
	encoding.CodecV2
	failures *decodeFailures
}

// Unmarshal decodes data into v; a failure is recorded, v reset and nil
// returned (see above).
func (c recordingCodec) Unmarshal(data mem.BufferSlice, v any) error {
	err := c.CodecV2.Unmarshal(data, v)
	if err == nil {
		return nil
	}
	name := "protobuf"
	if m, ok := v.(proto.Message); ok {
		proto.Reset(m)
		name = string(m.ProtoReflect().Descriptor().FullName())
	}
	c.failures.m.Store(v, status.Errorf(codes.InvalidArgument, "the request is not a valid %s message: %v", name, err))
	return nil
}

// withDecodeErrors installs the recording codec and, first among o's
// interceptors, the ones that answer its failures with InvalidArgument.
func withDecodeErrors(o options) options {
	f := &decodeFailures{}
	o.grpcOptions = append(o.grpcOptions, grpc.ForceServerCodecV2(recordingCodec{CodecV2: encoding.GetCodecV2("proto"), failures: f}))
	o.unary = append([]grpc.UnaryServerInterceptor{unaryDecodeErrors(f)}, o.unary...)
	o.stream = append([]grpc.StreamServerInterceptor{streamDecodeErrors(f)}, o.stream...)
	return o
}

func unaryDecodeErrors(f *decodeFailures) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if err := f.take(req); err != nil {
			return nil, err
		}
		return handler(ctx, req)
	}
}

func streamDecodeErrors(f *decodeFailures) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		ds := &decodeStream{ServerStream: ss, failures: f}
		err := handler(srv, ds)
		// Whatever the handler made of the failed RecvMsg (it may have
		// wrapped it), the client's answer is InvalidArgument.
		if ds.failed != nil {
			return ds.failed
		}
		return err
	}
}

// decodeStream is a ServerStream whose RecvMsg reports recorded decode
// failures.
type decodeStream struct {
	grpc.ServerStream
	failures *decodeFailures
	failed   error
}

// RecvMsg receives into m and fails with InvalidArgument if m's bytes were
// not a valid message.
func (s *decodeStream) RecvMsg(m any) error {
	if err := s.ServerStream.RecvMsg(m); err != nil {
		return err
	}
	if err := s.failures.take(m); err != nil {
		s.failed = err
		return fmt.Errorf("receive: %w", err)
	}
	return nil
}
