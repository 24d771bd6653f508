package gatewaysvc

import (
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"strings"

	"google.golang.org/grpc"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// rpcMethods are the public services' methods by path
// ("/greenlight.v1.RunService/GetRun").
var rpcMethods = func() map[string]bool {
	m := map[string]bool{}
	for _, sd := range []grpc.ServiceDesc{glv1.RunService_ServiceDesc, glv1.BlobService_ServiceDesc} {
		for _, md := range sd.Methods {
			m["/"+sd.ServiceName+"/"+md.MethodName] = true
		}
		for _, st := range sd.Streams {
			m["/"+sd.ServiceName+"/"+st.StreamName] = true
		}
	}
	return m
}()

// rpcContentType reports whether a request's Content-Type is one the
// transcoder speaks: Connect unary (application/json, application/proto),
// Connect streaming (application/connect+json|proto), gRPC and gRPC-Web
// (application/grpc…).
func rpcContentType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return false
	}
	return mt == "application/json" || mt == "application/proto" ||
		strings.HasPrefix(mt, "application/connect+") || strings.HasPrefix(mt, "application/grpc")
}

// guardRPC answers, before the transcoder and the token check, the
// requests the transcoder would answer with a bare 404 text/plain: an
// unknown method (404), any HTTP method but POST (405, Allow: POST), a
// body in a content type no protocol here reads (415, e.g. curl -d's
// default application/x-www-form-urlencoded). Each gets a Connect error
// body, {"code": …, "message": …}, saying what to send instead. None of
// them depends on the body, so answering before the token check tells a
// stranger nothing the published protos do not.
func guardRPC(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/")
		switch {
		case !rpcMethods[r.URL.Path]:
			service, method, _ := strings.Cut(name, "/")
			rpcError(w, http.StatusNotFound, "unimplemented", fmt.Sprintf("%s has no method %q (proto/greenlight/v1 lists its methods)", service, method))
		case r.Method != http.MethodPost:
			w.Header().Set("Allow", http.MethodPost)
			rpcError(w, http.StatusMethodNotAllowed, "unimplemented", fmt.Sprintf(
				"%s takes POST, not %s: POST the request message as JSON with Content-Type: application/json", name, r.Method))
		case !rpcContentType(r.Header.Get("Content-Type")):
			ct := r.Header.Get("Content-Type")
			if ct == "" {
				ct = "none"
			}
			rpcError(w, http.StatusUnsupportedMediaType, "invalid_argument", fmt.Sprintf(
				"Content-Type %s is not a protocol %s speaks: send application/json (Connect), application/connect+json for streams, or gRPC / gRPC-Web", ct, name))
		default:
			next.ServeHTTP(w, r)
		}
	})
}

// rpcError writes a Connect-style JSON error.
func rpcError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"code": code, "message": msg})
}
