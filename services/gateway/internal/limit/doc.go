// Package limit is the gateway's per-client rate limit: one token bucket
// (golang.org/x/time/rate) per client key, for gRPC calls and HTTP requests.
//
// A refused gRPC call gets codes.ResourceExhausted with a google.rpc.RetryInfo
// detail saying when to come back; a refused HTTP request gets 429 with a
// Retry-After header. A stream costs one token when it opens, not per
// message: long-lived watchers are bounded by the fan-out instead.
package limit
