package gatewaysvc

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"

	"connectrpc.com/connect"
	"connectrpc.com/vanguard"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/server"
)

// HTTP/JSON access. connectrpc.com/vanguard transcodes Connect (unary JSON
// or proto POSTs, streaming), gRPC-Web and gRPC requests arriving at the
// HTTP listener into gRPC calls, and serves them with the gateway's own
// grpc.Server (its ServeHTTP). So an HTTP call passes exactly what a gRPC
// call passes: logging, recovery, decode errors, the rate limit and the
// bearer-token check (an Authorization header becomes the "authorization"
// metadata); nothing about auth is re-implemented here, and the session
// cookie of the report pages does not open the API.

// publicServices are the services reachable over HTTP: health and
// reflection stay gRPC-only (/healthz is HTTP's probe).
var publicServices = []string{
	glv1.RunService_ServiceDesc.ServiceName,
	glv1.BlobService_ServiceDesc.ServiceName,
}

// maxHTTPMessageBytes caps what the transcoder buffers for one message.
// The gRPC server's own cap (16 MiB) still applies after transcoding; JSON
// is larger than protobuf (bytes travel as base64, 4/3), hence the margin.
const maxHTTPMessageBytes = 2 * server.DefaultMaxMsgBytes

// grpcTarget is the grpc.Server the transcoder hands calls to, set by
// Register; until then calls fail with Unavailable.
type grpcTarget struct{ srv atomic.Pointer[grpc.Server] }

// ServeHTTP serves a transcoded gRPC request.
func (t *grpcTarget) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if srv := t.srv.Load(); srv != nil {
		srv.ServeHTTP(w, r)
		return
	}
	// A trailers-only gRPC answer, which the transcoder turns into the
	// client's protocol.
	w.Header().Set("Content-Type", "application/grpc")
	w.Header().Set("Grpc-Status", "14") // Unavailable
	w.Header().Set("Grpc-Message", "the gateway's gRPC server is not registered yet")
	w.WriteHeader(http.StatusOK)
}

// newRPCHandler returns the transcoder for the public services, calling
// target.
func newRPCHandler(target http.Handler) (http.Handler, error) {
	services := make([]*vanguard.Service, 0, len(publicServices))
	for _, name := range publicServices {
		services = append(services, vanguard.NewService(name, target))
	}
	h, err := vanguard.NewTranscoder(services, vanguard.WithDefaultServiceOptions(
		vanguard.WithTargetProtocols(vanguard.ProtocolGRPC),
		// The server's codec is protobuf only (pkg/server forces it), so
		// JSON is always transcoded here, with protojson field names.
		vanguard.WithTargetCodecs(vanguard.CodecProto),
		vanguard.WithMaxMessageBufferBytes(maxHTTPMessageBytes),
	), vanguard.WithCodec(newJSONCodec))
	if err != nil {
		return nil, fmt.Errorf("http/json transcoder: %w", err)
	}
	return h, nil
}

// jsonCodec is vanguard's protojson codec (lowerCamelCase names out,
// either name in, unknown fields ignored, unset fields written) whose
// decode failures are the client's: InvalidArgument naming the message,
// where vanguard would answer Unknown.
type jsonCodec struct{ *vanguard.JSONCodec }

func newJSONCodec(res vanguard.TypeResolver) vanguard.Codec {
	return jsonCodec{vanguard.NewJSONCodec(res)}
}

// Unmarshal decodes data into msg.
func (c jsonCodec) Unmarshal(data []byte, msg proto.Message) error {
	if err := c.JSONCodec.Unmarshal(data, msg); err != nil {
		return connect.NewError(connect.CodeInvalidArgument, fmt.Errorf(
			"the request is not a valid %s message in JSON: %w", msg.ProtoReflect().Descriptor().FullName(), err))
	}
	return nil
}

// unauthenticatedRPC answers an HTTP/JSON call refused for its token in
// the call's own protocol (a Connect error body with HTTP 401, a Connect
// end-of-stream frame, gRPC or gRPC-Web trailers with Unauthenticated),
// before its body is read; anything else gets a bare 401.
func unauthenticatedRPC() func(http.ResponseWriter, *http.Request) {
	ew := connect.NewErrorWriter()
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="greenlight"`)
		w.Header().Set("Cache-Control", "no-store")
		if !ew.IsSupported(r) {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte("unauthorized\n"))
			return
		}
		_ = ew.Write(w, r, connect.NewError(connect.CodeUnauthenticated, errors.New("unauthenticated")))
	}
}

// routeRPC sends the public services' paths to rpc and everything else to
// pages.
func routeRPC(rpc, pages http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", pages)
	rpc = guardRPC(connectUnaryByDefault(rpc))
	for _, name := range publicServices {
		mux.Handle("/"+name+"/", rpc)
	}
	return mux
}

// connectUnaryByDefault marks a POST of plain JSON or protobuf as a
// Connect unary call (Connect-Protocol-Version: 1). The Connect protocol
// makes that header optional, but vanguard reads a request without it as
// REST, and these paths have no REST routes: without the mark `curl -H
// 'Content-Type: application/json' -d '{"runId":"…"}'` would get 404.
func connectUnaryByDefault(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ct := r.Header.Get("Content-Type")
		plain := ct == "application/json" || ct == "application/proto" || strings.HasPrefix(ct, "application/json;")
		if r.Method == http.MethodPost && plain && r.Header.Get("Connect-Protocol-Version") == "" {
			r.Header.Set("Connect-Protocol-Version", "1")
		}
		next.ServeHTTP(w, r)
	})
}
