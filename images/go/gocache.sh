# shellcheck shell=bash
# gocache.sh — greenlight-gocache, the go image's GOCACHEPROG program
# (services/executor/cmd/greenlight-gocache, internal/gocache): where its
# sources are, and how it is built (static, trimmed, no build id or VCS
# stamp: the same sources and toolchain give the same bytes, as for
# greenlight-runner in lib/runner.sh). Sourced by setup.sh and inputs.sh,
# after hostgo.sh.

GOCACHE_MODULE=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../services/executor" && pwd)
# GOCACHE_PROG is where the image carries it, root-owned on the read-only
# root; the image's GOCACHEPROG names it.
GOCACHE_PROG=/usr/local/libexec/greenlight/gocache

# gocache_sources prints a sha256 over the program's source files (tests
# excluded) and its module's go.mod: with the toolchain's `go version`,
# what its bytes depend on (it uses the standard library only).
gocache_sources() {
  (cd "$GOCACHE_MODULE" &&
    find go.mod cmd/greenlight-gocache internal/gocache -type f \( -name go.mod -o -name '*.go' \) ! -name '*_test.go' |
    LC_ALL=C sort | xargs sha256sum) | sha256sum | cut -d' ' -f1
}

# build_gocache OUT compiles the program into OUT with the host's Go.
build_gocache() {
  local out=$1 goroot
  goroot=$(host_goroot)
  (cd "$GOCACHE_MODULE" && GOWORK=off GOTOOLCHAIN=local GOFLAGS='' CGO_ENABLED=0 GOOS=linux \
    "$goroot/bin/go" build -trimpath -buildvcs=false -ldflags='-s -w -buildid=' \
    -o "$out" ./cmd/greenlight-gocache </dev/null)
}
