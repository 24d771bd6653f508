#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# setup.sh ROOTFS — copy the host's Go toolchain into ROOTFS/usr/local/go
# (without its own test suite, API lists, docs and testdata: ~60 MB less),
# install the entry point (it links the seed into $GOCACHE), and build the
# seed build cache by vetting and testing ./warm as the sandbox user with
# the image's own environment.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=hostgo.sh
source "$(dirname "${BASH_SOURCE[0]}")/hostgo.sh"
root=$1
goroot=$(host_goroot)
seed=/usr/local/share/greenlight/go-build

mkdir -p "$root/usr/local/go"
tar -C "$goroot" --exclude=./test --exclude=./api --exclude=./doc --exclude=testdata \
  --exclude=./pkg/obj --exclude=./.git -cf - . |
  tar -C "$root/usr/local/go" --no-same-owner -xf -
chown -R 0:0 "$root/usr/local/go"
chmod -R go-w "$root/usr/local/go"
echo "copied $("$goroot/bin/go" version) from $goroot"

install -m 0755 "$here/entrypoint.sh" "$root/usr/local/bin/greenlight-go-entrypoint"

# gosec for the advisory security phase, built with the host's Go from the
# module proxy (v2.22.5: the last release without the AI autofix
# dependencies, 22 MB, ~45 s to build) and cached beside the user's
# cache. Without a reachable proxy the image has no gosec: the planned
# gosec step is then reported as a tool the image lacks, never a failure.
gosec_version=v2.22.5
gosec_cache=${XDG_CACHE_HOME:-$HOME/.cache}/greenlight/gosec-$gosec_version
if [[ ! -x $gosec_cache/gosec ]]; then
  GOBIN=$gosec_cache GOFLAGS=-trimpath CGO_ENABLED=0 "$goroot/bin/go" install -ldflags='-s -w' \
    "github.com/securego/gosec/v2/cmd/gosec@$gosec_version" ||
    echo "gosec $gosec_version could not be built (no module proxy?): the go image has no gosec" >&2
fi
if [[ -x $gosec_cache/gosec ]]; then
  install -m 0755 "$gosec_cache/gosec" "$root/usr/local/bin/gosec"
  echo "gosec $gosec_version installed"
fi

# Warm the seed cache in the tree itself: same GOROOT path, same gcc, same
# environment as at run time, so the cache keys match. The test runs twice:
# plainly, and as greenlight's go-test step runs it (-json, -coverprofile),
# which links the coverage runtime (internal/coverage/..., runtime/coverage)
# and test2json's packages: without them every verification compiled those
# ~20 standard packages again (about 1 s of a re-verify).
install -d -o 10001 -g 10001 "$root$seed" "$root/tmp/warm"
cp -R "$here/warm/." "$root/tmp/warm/"
chown -R 10001:10001 "$root/tmp/warm"
mount -t proc proc "$root/proc"
trap 'umount "$root/proc"' EXIT
started=$SECONDS
chroot --userspec=10001:10001 "$root" /usr/bin/env -i \
  PATH=/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  HOME=/home/sandbox LANG=C.UTF-8 GOTOOLCHAIN=local GOPROXY=off \
  GOPATH=/home/sandbox/go GOCACHE="$seed" \
  sh -ec 'cd /tmp/warm && go vet ./... && go test -count=1 ./... >/dev/null &&
    go test -json -count=1 -coverprofile=/tmp/warm.cover ./... >/dev/null' </dev/null
rm -rf "$root/tmp/warm" "$root/home/sandbox/go" "$root/home/sandbox/.cache" "$root$seed/testexpire.txt"
chown -R 0:0 "$root$seed"
chmod -R a+rX,go-w "$root$seed"
echo "seed build cache: $(du -sh "$root$seed" | cut -f1) in $((SECONDS - started)) s"
