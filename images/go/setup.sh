# setup.sh ROOTFS — copy the host's Go toolchain into ROOTFS/usr/local/go,
# without its own test suite, API lists, docs and testdata (~60 MB).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/hostgo.sh"
root=$1
goroot=$(host_goroot)
mkdir -p "$root/usr/local/go"
tar -C "$goroot" --exclude=./test --exclude=./api --exclude=./doc --exclude=testdata \
  --exclude=./pkg/obj --exclude=./.git -cf - . |
  tar -C "$root/usr/local/go" --no-same-owner -xf -
chown -R 0:0 "$root/usr/local/go"
chmod -R go-w "$root/usr/local/go"
echo "copied $("$goroot/bin/go" version) from $goroot"
