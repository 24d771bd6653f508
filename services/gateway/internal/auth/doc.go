// Package auth is the gateway's bearer-token check for gRPC and HTTP.
//
// One shared secret guards everything but gRPC health: clients send it as
// "authorization: Bearer <token>" metadata (gRPC) or an Authorization
// header (HTTP); browsers may pass it once as ?token=, which sets an
// HttpOnly cookie holding a value derived from the token (never the token
// itself) and redirects to the same URL without it.
//
// Comparisons are constant-time over SHA-256 digests, so neither the
// content nor the length of the configured token leaks through timing.
// A refused request learns only that it was refused: gRPC gets
// codes.Unauthenticated with a fixed message, HTTP a bare 401.
package auth
