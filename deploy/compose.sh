#!/usr/bin/env bash
# compose.sh — run greenlight's docker-compose.yml: the targets behind
# `make up` and `make down`, and the helpers scripts/compose-test.sh uses.
#
# Usage: deploy/compose.sh up | down | ps | logs [service] | token
#   up     build the images offline (deploy/build.sh), start the four
#          containers and wait until every health check passes
#   down   stop and remove the containers (volumes are kept; GREENLIGHT_COMPOSE_VOLUMES=1 removes them)
#   token  print the gateway's bearer token
#
# Environment:
#   GREENLIGHT_TOKEN                the gateway's bearer token (default: made once, kept in .bin/compose-token)
#   GREENLIGHT_SERVICE_TOKEN        the internal services' shared secret, which the gateway, loop,
#                                   discovery and executor send to each other (default: made once,
#                                   kept in .bin/compose-service-token, mode 0600; never printed)
#   GREENLIGHT_COMPOSE_PROJECT      compose project name (default: greenlight)
#   GREENLIGHT_COMPOSE_GRPC_PORT    host port of the gateway's gRPC (default 7070)
#   GREENLIGHT_COMPOSE_HTTP_PORT    host port of the report pages (default 7080)
#   GREENLIGHT_COMPOSE_WAIT         seconds to wait for health (default 120)
#
# It uses `docker compose` (v2 plugin) when the Docker CLI has it, else
# `docker-compose` (Debian's 1.29 package); as root on Debian it installs
# the latter when neither exists.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PROJECT=${GREENLIGHT_COMPOSE_PROJECT:-greenlight}
WAIT=${GREENLIGHT_COMPOSE_WAIT:-120}
SERVICES=(loop discovery executor gateway)

say() { printf 'compose: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

# compose_cmd sets COMPOSE to a working compose command.
compose_cmd() {
  if docker compose version >/dev/null 2>&1; then
    COMPOSE=(docker compose)
  elif command -v docker-compose >/dev/null 2>&1; then
    COMPOSE=(docker-compose)
  elif [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    say "installing docker-compose (Debian package)"
    apt-get install -y -q docker-compose >/dev/null 2>&1 ||
      { apt-get update -q >/dev/null && apt-get install -y -q docker-compose >/dev/null; } ||
      die "could not install docker-compose: apt-get install docker-compose failed"
    COMPOSE=(docker-compose)
  else
    die "neither 'docker compose' nor 'docker-compose' is available: install one (Debian: sudo apt-get install docker-compose)"
  fi
}

# secret_file prints the secret kept in .bin/NAME, making it (0600) once.
secret_file() {
  local f=$ROOT/.bin/$1
  if [[ ! -s $f ]]; then
    mkdir -p "$ROOT/.bin"
    (umask 077 && od -An -N24 -tx1 /dev/urandom | tr -d ' \n' >"$f")
  fi
  cat "$f"
}

# ensure_token exports GREENLIGHT_TOKEN (the gateway's, for clients) and
# GREENLIGHT_SERVICE_TOKEN (the internal services'), making and keeping
# each one if unset. They are distinct: a client of the gateway never
# learns the secret that reaches the executor.
ensure_token() {
  [[ -n ${GREENLIGHT_TOKEN:-} ]] || GREENLIGHT_TOKEN=$(secret_file compose-token)
  [[ -n ${GREENLIGHT_SERVICE_TOKEN:-} ]] || GREENLIGHT_SERVICE_TOKEN=$(secret_file compose-service-token)
  export GREENLIGHT_TOKEN GREENLIGHT_SERVICE_TOKEN
}

run_compose() { "${COMPOSE[@]}" -p "$PROJECT" -f "$ROOT/docker-compose.yml" "$@"; }

# wait_healthy waits until every service's container reports healthy.
wait_healthy() {
  local deadline=$((SECONDS + WAIT)) s id st pending
  while :; do
    pending=()
    for s in "${SERVICES[@]}"; do
      id=$(run_compose ps -q "$s" 2>/dev/null || true)
      st=$([[ -n $id ]] && docker inspect -f '{{if .State.Health}}{{.State.Health.Status}}{{else}}{{.State.Status}}{{end}}' "$id" 2>/dev/null || echo missing)
      [[ $st == healthy ]] || pending+=("$s=$st")
    done
    [[ ${#pending[@]} -eq 0 ]] && return 0
    if ((SECONDS >= deadline)); then
      run_compose ps >&2 || true
      run_compose logs --tail 30 >&2 || true
      die "not healthy after ${WAIT}s: ${pending[*]}"
    fi
    sleep 1
  done
}

cmd=${1:-}
shift || true
case $cmd in
  up)
    compose_cmd
    ensure_token
    bash "$ROOT/deploy/build.sh"
    run_compose up -d
    wait_healthy
    say "up: gateway 127.0.0.1:${GREENLIGHT_COMPOSE_GRPC_PORT:-7070}, reports http://127.0.0.1:${GREENLIGHT_COMPOSE_HTTP_PORT:-7080}"
    say "use: GREENLIGHT_TOKEN=\$(deploy/compose.sh token) greenlight --addr 127.0.0.1:${GREENLIGHT_COMPOSE_GRPC_PORT:-7070} verify DIR"
    ;;
  down)
    compose_cmd
    ensure_token # compose interpolates the file even to take it down
    if [[ ${GREENLIGHT_COMPOSE_VOLUMES:-0} == 1 ]]; then
      run_compose down -v --remove-orphans
    else
      run_compose down --remove-orphans
    fi
    ;;
  ps | logs)
    compose_cmd
    ensure_token
    run_compose "$cmd" "$@"
    ;;
  token)
    ensure_token
    printf '%s\n' "$GREENLIGHT_TOKEN"
    ;;
  *)
    sed -n '2,23p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
