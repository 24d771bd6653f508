#!/usr/bin/env bash
# test-install.sh — the package installs the ways its README says, as a
# consumer does it, from a copy of this folder in the state of a fresh
# clone (no node_modules, dist/, proto/ copies or generated types):
#
#  1. `npm install /path/to/clients/typescript` from another project: npm
#     links the folder and runs its prepare script there, which must first
#     install its own build tools (issue 26: it failed with "Cannot find
#     module '@grpc/proto-loader'");
#  2. `npm pack` in the folder, then `npm install the.tgz` in an empty
#     project: the tarball holds the built package (dist/, proto/) and no
#     sources or build scripts.
#
# Each consumer then requires the package (CommonJS), imports it (ESM),
# and packs a directory with it, which loads its runtime dependencies and
# the protos. Needs node, npm and the npm registry (for the dependencies).
#
#   clients/typescript/test-install.sh [WORKDIR]   (default: a temp dir, removed after)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
if [[ $# -gt 0 ]]; then
  work=$1
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
npm_quiet=(--no-audit --no-fund --loglevel=error)

fail() { echo "test-install: FAIL: $*" >&2; exit 1; }

# A fresh clone's files: the package's sources and the repository's protos.
src="$work/repo/clients/typescript"
mkdir -p "$src" "$work/repo/proto"
tar -C "$here" --exclude=./node_modules --exclude=./dist --exclude=./build --exclude=./proto \
  --exclude=./src/generated --exclude=./test/readme -cf - . | tar -C "$src" -xf -
cp -R "$repo/proto/." "$work/repo/proto/"

# check DIR: the installed package loads both ways and works.
check() {
  local dir=$1
  mkdir -p "$dir/project"
  printf 'hello\n' >"$dir/project/a.txt"
  (cd "$dir" && node -e '
    const gl = require("@greenlight-dev/client");
    const client = new gl.GreenlightClient({ address: "127.0.0.1:1" });
    client.close();
    gl.pack("project").then((p) => {
      if (p.files !== 1 || !/^[0-9a-f]{64}$/.test(p.digest.hash)) throw new Error("pack: files " + p.files);
      console.log("require: ok, packed", p.digest.hash.slice(0, 12));
    }).catch((e) => { console.error(e); process.exit(1); });
  ') || fail "$dir: require('@greenlight-dev/client') failed"
  printf 'import { GreenlightClient, loadPackage } from "@greenlight-dev/client";\n%s\n' \
    'if (typeof GreenlightClient !== "function" || !loadPackage().RunService) throw new Error("bad exports"); console.log("import: ok");' \
    >"$dir/esm.mjs"
  (cd "$dir" && node esm.mjs) || fail "$dir: import from '@greenlight-dev/client' failed"
  # Its type declarations reach a TypeScript consumer (tsc from the copy's
  # own build tools): typed results, and a wrong argument refused.
  cat >"$dir/consumer.ts" <<'TS'
import { GreenlightClient, type Capabilities, type Run, type RunEvent } from '@greenlight-dev/client';

export async function lastSeq(client: GreenlightClient, dir: string): Promise<number> {
  let seq = 0;
  for await (const ev of client.verify(dir)) {
    const event: RunEvent = ev;
    seq = event.seq;
  }
  return seq;
}
export const run = (client: GreenlightClient, id: string): Promise<Run> => client.getRun(id);
export const caps = (client: GreenlightClient, dir: string): Promise<Capabilities> => client.discover(dir);
// @ts-expect-error: verify takes a directory or a digest, not a number
export const wrong = (client: GreenlightClient) => client.verify(42);
TS
  (cd "$dir" && node "$src/node_modules/typescript/bin/tsc" --noEmit --strict --skipLibCheck --target es2022 \
    --module node16 --moduleResolution node16 consumer.ts) || fail "$dir: a TypeScript consumer does not type-check"
  echo "types: ok"
}

echo "== npm install FOLDER (from another project)"
linked="$work/linked"
mkdir -p "$linked"
(cd "$linked" && npm init -y >/dev/null && npm install "${npm_quiet[@]}" "$src") ||
  fail "npm install $src failed"
check "$linked"

echo "== npm pack, then npm install TARBALL (in an empty project)"
mkdir -p "$work/tgz"
tgz=$(cd "$src" && npm pack "${npm_quiet[@]}" --pack-destination "$work/tgz" | tail -n 1)
[[ -f "$work/tgz/$tgz" ]] || fail "npm pack wrote no tarball ($tgz)"
listing=$(tar -tzf "$work/tgz/$tgz")
for f in package/dist/index.js package/dist/index.d.ts package/proto/greenlight/v1/run.proto package/README.md; do
  grep -qx "$f" <<<"$listing" || fail "$tgz lacks $f"
done
if grep -E '^package/(src|scripts|test|node_modules)/' <<<"$listing" | head -n 3 | grep -q .; then
  fail "$tgz ships sources or build files: $(grep -E '^package/(src|scripts|test|node_modules)/' <<<"$listing" | head -n 3)"
fi
packed="$work/packed"
mkdir -p "$packed"
(cd "$packed" && npm init -y >/dev/null && npm install "${npm_quiet[@]}" "$work/tgz/$tgz") ||
  fail "npm install $tgz failed"
[[ -L "$packed/node_modules/@greenlight-dev/client" ]] && fail "the tarball was linked, not installed"
check "$packed"
echo "test-install: 2 passed, 0 failed"
