package server

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

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
type decodeFailures struct {
	m sync.Map
	// decodes counts Unmarshal calls: tests check that a refused call
	// was never decoded.
	decodes atomic.Int64
}

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
	c.failures.decodes.Add(1)
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
// interceptors, the ones that answer its failures with InvalidArgument. The
// unary request is decoded before any interceptor runs, so its record must
// be taken by the outermost one (unaryDecodeTake, which New puts right
// after logging and recovery): an interceptor that rejects the call first,
// such as the service-token check, would otherwise leave it in the map for
// good, and an unauthenticated client could grow the map without bound.
func withDecodeErrors(o options) options {
	f := &decodeFailures{}
	o.decode = f
	o.grpcOptions = append(o.grpcOptions, grpc.ForceServerCodecV2(recordingCodec{CodecV2: encoding.GetCodecV2("proto"), failures: f}))
	o.unary = append([]grpc.UnaryServerInterceptor{unaryDecodeErrors}, o.unary...)
	o.stream = append([]grpc.StreamServerInterceptor{streamDecodeErrors(f)}, o.stream...)
	return o
}

// decodeErrKey carries a unary request's decode failure from
// unaryDecodeTake to unaryDecodeErrors.
type decodeErrKey struct{}

// unaryDecodeTake removes the request's decode failure from the map on
// every call and hands it on in the context.
func unaryDecodeTake(f *decodeFailures) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if err := f.take(req); err != nil {
			ctx = context.WithValue(ctx, decodeErrKey{}, err)
		}
		return handler(ctx, req)
	}
}

// unaryDecodeErrors answers a request that did not decode with
// InvalidArgument, after authentication has run.
func unaryDecodeErrors(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	if err, _ := ctx.Value(decodeErrKey{}).(error); err != nil {
		return nil, err
	}
	return handler(ctx, req)
}

// pending counts recorded failures nobody has taken (tests: it stays 0).
func (d *decodeFailures) pending() int {
	n := 0
	d.m.Range(func(any, any) bool { n++; return true })
	return n
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
