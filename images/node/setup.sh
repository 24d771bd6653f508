#!/usr/bin/env bash
# setup.sh ROOTFS — `yarn` on PATH (Debian names Yarn 1 `yarnpkg`) and the
# pinned pnpm of node/pnpm: its registry tarball is downloaded once (through
# the host's CA bundle, which trusts a TLS-intercepting proxy), checked
# against the pinned integrity, and unpacked root-owned into the tree.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$1
cache=${GREENLIGHT_IMAGE_CACHE:-/var/cache/greenlight-debootstrap}/downloads
registry=${GREENLIGHT_NPM_REGISTRY:-https://registry.npmjs.org}
ca=${GREENLIGHT_CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}
version=$(sed -n 's/^version=//p' "$here/pnpm")
integrity=$(sed -n 's/^integrity=//p' "$here/pnpm")

ln -sf /usr/bin/yarnpkg "$root/usr/local/bin/yarn"

tgz=$cache/pnpm-$version.tgz
mkdir -p "$cache"
if [[ ! -s $tgz ]]; then
  curl_ca=()
  [[ -r $ca ]] && curl_ca=(--cacert "$ca")
  curl -fsSL --retry 3 --max-time 300 "${curl_ca[@]}" -o "$tgz.tmp" "$registry/pnpm/-/pnpm-$version.tgz" || {
    echo "downloading pnpm $version from $registry failed: set GREENLIGHT_NPM_REGISTRY to a reachable registry" \
      "or GREENLIGHT_CA_BUNDLE to the CA bundle that trusts its proxy" >&2
    exit 1
  }
  mv "$tgz.tmp" "$tgz"
fi
got="sha512-$(openssl dgst -sha512 -binary "$tgz" | base64 -w0)"
if [[ $got != "$integrity" ]]; then
  rm -f "$tgz"
  echo "pnpm-$version.tgz has integrity $got, want $integrity (node/pnpm)" >&2
  exit 1
fi
dest=$root/usr/local/lib/node_modules/pnpm
mkdir -p "$dest"
tar -C "$dest" --strip-components=1 --no-same-owner -xzf "$tgz"
chown -R 0:0 "$dest"
chmod -R go-w "$dest"
ln -sf ../lib/node_modules/pnpm/bin/pnpm.cjs "$root/usr/local/bin/pnpm"
ln -sf ../lib/node_modules/pnpm/bin/pnpx.cjs "$root/usr/local/bin/pnpx"
echo "installed pnpm $version and yarn ($(readlink "$root/usr/local/bin/yarn"))"
