#!/usr/bin/env bash
# test.sh — everything the TypeScript client needs checked, from a fresh
# machine: Node.js and npm (from Debian's apt when `node` is missing: Node 18
# on bookworm, which the package supports), `npm ci` (its prepare script
# copies the public protos, generates the types and compiles dist/), the
# type check of src/, tests and README snippets, the tests, and the two
# ways a consumer installs the package (test-install.sh). The
# integration tests need `make build` (.bin/greenlight), a Docker engine and
# the Python sandbox image; they are skipped without them unless
# GREENLIGHT_INTEGRATION=1, which CI sets.
set -euo pipefail
cd "$(dirname "$0")"

step() { printf '\n==== clients/typescript: %s (%ss)\n' "$*" "$SECONDS"; }

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  step "installing Node.js and npm from Debian"
  if [[ $(id -u) -ne 0 ]]; then
    echo "test.sh: node and npm are missing and installing them needs root: apt-get install nodejs npm" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi
major=$(node -p 'process.versions.node.split(".")[0]')
if (( major < 18 )); then
  echo "test.sh: the client needs Node.js 18 or later; this is $(node --version)" >&2
  exit 1
fi
echo "node $(node --version), npm $(npm --version)"

step "npm ci (and build)"
npm ci --no-audit --no-fund
step "type check"
npm run --silent typecheck
step "tests"
npm test --silent
step "install from the folder and from npm pack, as a consumer (test-install.sh)"
./test-install.sh
step "done"
