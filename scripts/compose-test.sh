#!/usr/bin/env bash
# compose-test.sh — end-to-end test of docker-compose.yml: bring the four
# containers up (images built offline), verify the bundled examples through
# the gateway with the real CLI (examples/pass must exit 0, examples/fail
# 1), and always bring everything down again, volumes included.
#
# It uses its own compose project and host ports (17070/17080 unless
# GREENLIGHT_COMPOSE_GRPC_PORT/HTTP_PORT say otherwise), so it neither
# touches a `make up` deployment nor collides with `greenlight serve`.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

export GREENLIGHT_COMPOSE_PROJECT=${GREENLIGHT_COMPOSE_PROJECT:-greenlight-composetest-$$}
export GREENLIGHT_COMPOSE_GRPC_PORT=${GREENLIGHT_COMPOSE_GRPC_PORT:-17070}
export GREENLIGHT_COMPOSE_HTTP_PORT=${GREENLIGHT_COMPOSE_HTTP_PORT:-17080}
GREENLIGHT_TOKEN=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
GREENLIGHT_SERVICE_TOKEN=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
export GREENLIGHT_TOKEN GREENLIGHT_SERVICE_TOKEN
ADDR=127.0.0.1:$GREENLIGHT_COMPOSE_GRPC_PORT

say() { printf '\ncompose-test: %s\n' "$*" >&2; }

cleanup() {
  local rc=$?
  say "bringing the stack down"
  GREENLIGHT_COMPOSE_VOLUMES=1 bash deploy/compose.sh down >/dev/null 2>&1 || say "warning: compose down failed"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

say "engine and sandbox image"
bash scripts/ensure-docker.sh >/dev/null
bash images/build.sh python

say "up (project $GREENLIGHT_COMPOSE_PROJECT, gateway $ADDR)"
bash deploy/compose.sh up

say "building the CLI"
bin=$(mktemp -d "${TMPDIR:-/tmp}/greenlight-cli-XXXXXX")
(cd cmd/greenlight && go build -o "$bin/greenlight" .)
gl() { GREENLIGHT_HOME="$bin/home" "$bin/greenlight" --addr "$ADDR" "$@"; }

say "without a token the gateway must refuse"
if out=$(GREENLIGHT_TOKEN= gl runs 2>&1); then
  say "FAIL: runs without a token succeeded: $out"; exit 1
fi
grep -q 'not authenticated' <<<"$out" || { say "FAIL: unexpected refusal: $out"; exit 1; }

say "greenlight verify --addr $ADDR examples/pass (expect exit 0)"
set +e
gl verify examples/pass
rc=$?
set -e
[[ $rc -eq 0 ]] || { say "FAIL: verify examples/pass exited $rc, want 0"; bash deploy/compose.sh logs --tail 40 >&2 || true; exit 1; }

say "greenlight verify --addr $ADDR examples/fail (expect exit 1)"
set +e
gl verify -q examples/fail
rc=$?
set -e
[[ $rc -eq 1 ]] || { say "FAIL: verify examples/fail exited $rc, want 1"; exit 1; }

say "report page"
id=$(gl runs --limit 1 | awk 'NR==2{print $1}')
if ! command -v curl >/dev/null; then
  say "curl is not installed: report page not checked"
else
code=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $GREENLIGHT_TOKEN" \
  "http://127.0.0.1:$GREENLIGHT_COMPOSE_HTTP_PORT/runs/$id" || true)
[[ $code == 200 ]] || { say "FAIL: report page of $id answered HTTP $code"; exit 1; }
fi

rm -rf "$bin"
say "PASS"
