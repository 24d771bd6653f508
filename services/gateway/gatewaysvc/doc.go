// Package gatewaysvc wires the gateway, greenlight's public door, for both
// the greenlight-gateway binary and the embedded greenlight CLI:
//
//   - RunService and BlobService proxied to the loop with thin typed
//     handlers (unary, server-, client- and bidi-streaming): the incoming
//     context travels upstream (cancellation, deadline), upstream statuses
//     come back unchanged, and only chosen metadata is forwarded
//     (x-request-id, x-forwarded-for; never the client's authorization);
//   - WatchRun through the fan-out hub (internal/fanout): one upstream
//     stream per watched run, however many watchers;
//   - a per-stream upload cap on BlobService.Write;
//   - ServerOptions: the per-client rate limit and bearer-token gates
//     for the hosting gRPC server, which judge a call before its request
//     is read;
//   - the HTTP report pages (internal/web) behind the same tokens and limit.
//
// Tenancy: every call to the loop carries who it is for (the token's
// identity, and whether it is an operator's; see callerConn); the loop
// shows a tenant only its own runs and blobs. The fan-out's shared
// upstream streams see every run, so a watcher joins one only after the
// loop showed it the run (ownedWatch).
//
// The token rule: Config.Validate refuses a listener that is not on
// loopback (gRPC or HTTP) unless a token is configured.
package gatewaysvc
