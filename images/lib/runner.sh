# shellcheck shell=bash
# runner.sh — greenlight-runner, the executor's in-container step runner
# (services/executor/cmd/greenlight-runner), built with the host's Go
# toolchain and installed root-owned into every image. Its bytes are part of
# every recipe hash, so changing it (or the toolchain) rebuilds the images.
# Sourced by images/build.sh.

# shellcheck disable=SC1091 # go/hostgo.sh, checked on its own
source "$IMAGES_DIR/go/hostgo.sh"

# RUNNER_PATH is where the executor expects the runner (runnerproto.Path);
# the image label greenlight.runner carries its protocol version.
RUNNER_PATH=/usr/local/libexec/greenlight/runner
RUNNER_MODULE=$IMAGES_DIR/../services/executor
# A release archive (make dist) has no sources: it ships the runner built
# the same way beside images/, so that images build without Go (all but
# the go image, which copies the host's toolchain).
RUNNER_PREBUILT=${GREENLIGHT_RUNNER_BIN:-$IMAGES_DIR/../greenlight-runner}
RUNNER_BIN=
RUNNER_PROTOCOL=

# build_runner compiles the runner once per build.sh run into a temporary
# directory: static (CGO off, standard library only), with trimmed paths and
# no build id or VCS stamp, so the same sources and toolchain give the same
# bytes (and the same recipe hash). Without the sources it takes the
# prebuilt runner of a release archive.
build_runner() {
  local goroot dir
  dir=$(mktemp -d)
  RUNNER_BIN=$dir/greenlight-runner
  if [[ ! -d $RUNNER_MODULE/cmd/greenlight-runner ]]; then
    [[ -x $RUNNER_PREBUILT ]] ||
      die "no runner sources at $RUNNER_MODULE/cmd/greenlight-runner and no prebuilt runner at $RUNNER_PREBUILT"
    cp "$RUNNER_PREBUILT" "$RUNNER_BIN"
  else
    goroot=$(host_goroot) || die "greenlight-runner needs the host's Go toolchain"
    (cd "$RUNNER_MODULE" && GOWORK=off GOTOOLCHAIN=local GOFLAGS='' CGO_ENABLED=0 GOOS=linux \
      "$goroot/bin/go" build -trimpath -buildvcs=false -ldflags='-s -w -buildid=' \
      -o "$RUNNER_BIN" ./cmd/greenlight-runner </dev/null) || die "building greenlight-runner failed"
  fi
  RUNNER_PROTOCOL=$("$RUNNER_BIN" version) || die "greenlight-runner does not run on this host"
  log "greenlight-runner protocol $RUNNER_PROTOCOL, $(stat -c %s "$RUNNER_BIN") bytes, sha256 $(runner_digest | cut -c1-12)"
}

# runner_digest prints the sha256 of the built runner.
runner_digest() { sha256sum <"$RUNNER_BIN" | cut -d' ' -f1; }

# install_runner puts the runner into a root filesystem: owned by root,
# not writable by anyone else, on what is a read-only root at run time.
install_runner() {
  local root=$1
  install -d -m 0755 -o 0 -g 0 "$root${RUNNER_PATH%/*}"
  install -m 0755 -o 0 -g 0 "$RUNNER_BIN" "$root$RUNNER_PATH"
}

# runner_check is shell run in the image by the smoke check: the runner is
# there, root-owned, 0755, and speaks the labelled protocol.
runner_check() {
  # shellcheck disable=SC2016 # expanded in the image, not here
  printf 'test "$(stat -c %%u:%%g:%%a %s)" = 0:0:755\n' "$RUNNER_PATH"
  # shellcheck disable=SC2016
  printf 'test "$(%s version)" = %s\n' "$RUNNER_PATH" "$RUNNER_PROTOCOL"
}
