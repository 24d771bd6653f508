// Package gatewaysvc wires the gateway (the public door: auth, limits,
// RunService/BlobService proxied to the loop, event fan-out, report pages)
// for both the greenlight-gateway binary and the embedded greenlight CLI.
//
// Skeleton: RunService and BlobService answer Unimplemented until the proxy
// lands. Authentication will plug in through server.WithUnaryInterceptors and
// server.WithStreamInterceptors (server.Spec.Options in the binary).
package gatewaysvc
