package loopsvc

import (
	"context"
	"fmt"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/pkg/server"
	"github.com/greenlight-dev/greenlight/services/loop/internal/engine"
	"github.com/greenlight-dev/greenlight/services/loop/internal/store"
)

// Tenancy. The gateway says on every call who it is for (server.Caller:
// the owner it authenticated, and whether that is an operator). A caller
// that does not see everything sees only its own runs and blobs:
//
//   - every RunService call runs with a store viewer (store.WithViewer),
//     so GetRun, WatchRun, ListRuns and CancelRun answer another owner's
//     run exactly like one that does not exist;
//   - every Digest in a RunService request (a snapshot to verify, ...)
//     must be a blob the caller may read, or the request is refused like
//     one naming a blob that is not stored, before anything runs: nobody
//     verifies, and so reads, another tenant's snapshot by its digest;
//   - BlobService reads go through blobAccess: a blob is readable by the
//     owner that uploaded it or whose run names it (the store's grants).
//
// Calls without an owner come from greenlight's own services or an
// embedding process (service token or loopback) and see everything, as an
// operator does.

// tenantContext returns ctx for serving a call: with the store viewer of a
// caller that does not see everything.
func tenantContext(ctx context.Context) context.Context {
	c := server.CallerFromIncoming(ctx)
	if c.SeesAll() {
		return ctx
	}
	return store.WithViewer(ctx, c.Owner)
}

// blobVisible says whether hash is readable by ctx's caller.
type blobVisible func(ctx context.Context, hash string) (bool, error)

// visibleTo is the blobVisible of the run store's grants.
func visibleTo(runs *store.Store) blobVisible {
	return func(ctx context.Context, hash string) (bool, error) {
		c := server.CallerFromIncoming(ctx)
		if c.SeesAll() {
			return true, nil
		}
		return runs.BlobGranted(ctx, c.Owner, hash)
	}
}

// tenantService returns desc with every handler serving under
// tenantContext and, when visible is set, refusing requests (every
// message of a stream) that name a blob the caller may not read.
func tenantService(desc *grpc.ServiceDesc, visible blobVisible) *grpc.ServiceDesc {
	out := *desc
	out.Methods = make([]grpc.MethodDesc, len(desc.Methods))
	for i, m := range desc.Methods {
		h := m.Handler
		out.Methods[i] = grpc.MethodDesc{MethodName: m.MethodName, Handler: func(srv any, ctx context.Context, dec func(any) error,
			interceptor grpc.UnaryServerInterceptor) (any, error) {
			return h(srv, tenantContext(ctx), dec, innermost(interceptor, visible))
		}}
	}
	out.Streams = make([]grpc.StreamDesc, len(desc.Streams))
	for i, sd := range desc.Streams {
		h := sd.Handler
		sd.Handler = func(srv any, stream grpc.ServerStream) error {
			return h(srv, &tenantStream{ServerStream: stream, ctx: tenantContext(stream.Context()), visible: visible})
		}
		out.Streams[i] = sd
	}
	return &out
}

// innermost runs the request check right before the handler, after every
// interceptor (logging, authentication, decode errors) had its say.
func innermost(interceptor grpc.UnaryServerInterceptor, visible blobVisible) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		checked := func(ctx context.Context, req any) (any, error) {
			if err := checkRequestBlobs(ctx, req, visible); err != nil {
				return nil, err
			}
			return handler(ctx, req)
		}
		if interceptor == nil {
			return checked(ctx, req)
		}
		return interceptor(ctx, req, info, checked)
	}
}

// tenantStream is a ServerStream under tenantContext whose received
// messages are checked like unary requests.
type tenantStream struct {
	grpc.ServerStream
	ctx     context.Context
	visible blobVisible
}

func (s *tenantStream) Context() context.Context { return s.ctx }

// RecvMsg receives m and refuses it when it names a blob the caller may
// not read.
func (s *tenantStream) RecvMsg(m any) error {
	if err := s.ServerStream.RecvMsg(m); err != nil {
		return err
	}
	return checkRequestBlobs(s.ctx, m, s.visible)
}

// checkRequestBlobs refuses req when it names a blob ctx's caller may not
// read, with the answer a blob that is not stored gets (the engine's own
// for a snapshot), so the refusal says nothing about whether it exists.
// Malformed digests are left to the handler's validation.
func checkRequestBlobs(ctx context.Context, req any, visible blobVisible) error {
	m, ok := req.(proto.Message)
	if visible == nil || !ok {
		return nil
	}
	var refused error
	eachDigest(m.ProtoReflect(), "", func(field string, p *glv1.Digest) bool {
		d, err := blob.DigestFromProto(p)
		if err != nil {
			return true
		}
		ok, err := visible(ctx, d.Hash)
		switch {
		case err != nil:
			refused = toStatus(err)
		case !ok:
			refused = toStatus(fmt.Errorf("%w: %s %s is not in the blob store: upload the tar with BlobService.Write first",
				engine.ErrInvalidArgument, field, d))
		}
		return refused == nil
	})
	return refused
}

// digestName is the full protobuf name of glv1.Digest.
var digestName = (&glv1.Digest{}).ProtoReflect().Descriptor().FullName()

// eachDigest calls fn with every set Digest inside m and the field it is
// in ("snapshot", "fix.snapshot"), until fn returns false.
func eachDigest(m protoreflect.Message, path string, fn func(field string, d *glv1.Digest) bool) bool {
	if m.Descriptor().FullName() == digestName {
		d, _ := m.Interface().(*glv1.Digest)
		if d == nil || (d.GetHash() == "" && d.GetSizeBytes() == 0) {
			return true
		}
		return fn(path, d)
	}
	more := true
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		name := string(fd.Name())
		if path != "" {
			name = path + "." + name
		}
		switch {
		case fd.IsList() && fd.Kind() == protoreflect.MessageKind:
			for i, l := 0, v.List(); i < l.Len() && more; i++ {
				more = eachDigest(l.Get(i).Message(), name, fn)
			}
		case fd.IsMap() && fd.MapValue().Kind() == protoreflect.MessageKind:
			v.Map().Range(func(_ protoreflect.MapKey, mv protoreflect.Value) bool {
				more = eachDigest(mv.Message(), name, fn)
				return more
			})
		case !fd.IsList() && !fd.IsMap() && fd.Kind() == protoreflect.MessageKind:
			more = eachDigest(v.Message(), name, fn)
		}
		return more
	})
	return more
}

// blobAccess is the BlobService's access policy (blob.Access): reads of
// blobs the caller may not see answer like a missing blob; an upload by a
// tenant opens the blob to it.
type blobAccess struct {
	runs    *store.Store
	visible blobVisible
}

var _ blob.Access = blobAccess{}

// Readable implements blob.Access.
func (a blobAccess) Readable(ctx context.Context, d blob.Digest) (bool, error) {
	return a.visible(ctx, d.Hash)
}

// Wrote implements blob.Access: the uploader may read what it uploaded.
func (a blobAccess) Wrote(ctx context.Context, d blob.Digest) error {
	c := server.CallerFromIncoming(ctx)
	if c.Owner == "" {
		return nil // greenlight's own services, or a caller that sees nothing anyway
	}
	return a.runs.GrantBlob(ctx, c.Owner, d.Hash)
}
