// Package auth is the gateway's bearer-token check for gRPC and HTTP, and
// the identity each authenticated request is for.
//
// Keys hold the configured secrets: tenant tokens, each its own owner
// ("token:" and a fingerprint of the token), and operator tokens
// ("operator:…"), which see every owner's runs and blobs. Without any
// token every request is anonymous@loopback (a loopback-only gateway).
// Clients send a token as "authorization: Bearer <token>" metadata (gRPC)
// or an Authorization header (HTTP); browsers may pass it once as
// ?token=, which sets an HttpOnly cookie holding a value derived from the
// token (never the token itself) and redirects to the same URL without
// it.
//
// Authentication comes before decoding: the gRPC check is a server.Gate,
// which judges a call from its headers before its request is read, and
// the HTTP/JSON API's check (RequireBearer) runs before anything reads the
// body. Both attach the caller's Identity to the request's context.
//
// Comparisons are constant-time over SHA-256 digests, and every key is
// compared, so neither the content nor the length of a configured token,
// nor which one matched, leaks through timing. A refused request learns
// only that it was refused: gRPC gets codes.Unauthenticated with a fixed
// message, HTTP a bare 401 (or the same refusal in the API call's
// protocol).
package auth
