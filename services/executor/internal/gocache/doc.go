// Package gocache is greenlight-gocache, a GOCACHEPROG program for the go
// sandbox image (cmd/greenlight-gocache is its main). It is standard
// library only, so the binary stays small and static.
//
// The go command starts one child per process when GOCACHEPROG names it
// and asks it for build outputs over JSON on stdin and stdout (the
// protocol of cmd/go/internal/cacheprog: "get", "put" and "close"; a put's
// body follows its request as a base64 JSON string). This program serves
// that cache from layers:
//
//   - puts go to the writable directory $GOCACHE, in the go command's own
//     on-disk layout (xx/<action>-a index entries, xx/<output>-d content),
//     each file written under a temporary name and renamed, so a tar of
//     the directory is a plain GOCACHE and can itself become a layer;
//   - gets look in $GOCACHE first, then in each read-only layer of
//     GREENLIGHT_GOCACHE_LAYERS (colon-separated absolute directories in the
//     same layout; missing ones are skipped), and answer with the path of
//     the file where the entry lies. Layers are never written to.
//
// Why layers: the image's root filesystem is read-only at run time, so its
// prebuilt standard library cache (the seed) used to be copied into the
// writable $GOCACHE by every container (~0.3 s and ~115 MB of tmpfs). Served
// in place, it costs nothing until an entry is asked for, and a per-owner
// cache kept between runs can be mounted read-only as one more layer.
//
// What is checked on a get, and why (store.go, open.go): an entry is
// served whole from one directory; its index entry must parse exactly as
// the go command parses it and name the action asked for; both files must
// be regular files, opened without following symlinks and without
// blocking (a FIFO in a layer would otherwise hang the build); the content
// must have the size the index entry records; and content up to
// GREENLIGHT_GOCACHE_VERIFY_MAX bytes (64 KiB by default) must hash to its
// output ID, which the go command computes as the sha256 of the content.
// Small entries include cached test results and vet outputs, where a
// damaged file would change what a step prints; larger ones are compiled
// archives, whose own headers and fingerprints make the compiler or linker
// fail loudly when they are damaged, so they get the cheap size check.
// Anything that fails a check, or any error reading a layer, is a miss:
// the go command rebuilds the output and puts it into $GOCACHE. These
// checks catch damage (a truncated restore, a file edited in place); they
// cannot catch an entry forged whole (a matching index entry and content
// written together): who may write a layer is the caller's decision.
//
// One kind of entry is never served from a layer: a test's input list
// (content starting "# test log"), which `go test` must find before it
// replays a cached result. Without it the test runs: greenlight verifies by
// running, and a layer (another run's cache) is for build outputs only.
// Results recorded in $GOCACHE, in this sandbox, are replayed as the go
// command always does.
package gocache
