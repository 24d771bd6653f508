#!/usr/bin/env bash
# ensure-docker.sh — make sure a Docker engine answers on this machine.
#
# Idempotent. If the engine already answers, it prints its version and exits 0
# within a few seconds. Otherwise, as root on Debian, it installs what is
# missing (docker.io, tini for `docker run --init`, iptables), starts dockerd
# detached from the calling shell (it outlives this script, `make` and CI's
# shell; log in /var/log/greenlight-dockerd.log), waits until it answers and
# proves that `docker run --init --network none` works. Anywhere else it says
# exactly what the user must do and exits 1.
#
# Usage: scripts/ensure-docker.sh [--check]
#   --check   also run the container probe when the engine was already up.
#
# Environment:
#   GREENLIGHT_DOCKERD_LOG       log file (default /var/log/greenlight-dockerd.log)
#   GREENLIGHT_DOCKERD_WAIT      seconds to wait for the engine (default 60)
#   GREENLIGHT_DOCKERD_ARGS      extra dockerd flags (word-split)
set -euo pipefail

LOG=${GREENLIGHT_DOCKERD_LOG:-/var/log/greenlight-dockerd.log}
WAIT=${GREENLIGHT_DOCKERD_WAIT:-60}
PIDFILE=/var/run/docker.pid
SOCK=/var/run/docker.sock
PROBE_IMAGE=greenlight/engine-probe:tini
CHECK=0

say() { printf 'ensure-docker: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

# server_version prints the engine version if the daemon answers within 5 s.
server_version() {
  timeout 5 docker version --format '{{.Server.Version}}' 2>/dev/null </dev/null
}

# client_error prints why the client cannot reach the daemon (one line).
client_error() {
  timeout 5 docker version --format '{{.Server.Version}}' 2>&1 >/dev/null </dev/null | tail -n 1 || true
}

is_root() { [[ $(id -u) -eq 0 ]]; }

is_debian() {
  [[ -r /etc/os-release ]] || return 1
  # shellcheck disable=SC1091
  local id like
  id=$(. /etc/os-release && printf '%s' "${ID:-}")
  like=$(. /etc/os-release && printf '%s' "${ID_LIKE:-}")
  [[ $id == debian || $id == ubuntu || " $like " == *" debian "* ]] && command -v apt-get >/dev/null
}

has_systemd() { [[ -d /run/systemd/system ]] && command -v systemctl >/dev/null; }

# tell_user explains what a person has to do when we may not do it ourselves.
tell_user() {
  local why=$1
  say "the Docker engine is not reachable: ${why:-no answer}"
  if ! command -v dockerd >/dev/null && ! command -v docker >/dev/null; then
    if is_debian; then
      say "install Docker:    sudo apt-get update && sudo apt-get install -y docker.io tini iptables"
    else
      say "install Docker Engine for your distribution: https://docs.docker.com/engine/install/"
    fi
  fi
  if [[ $why == *"permission denied"* ]]; then
    say "allow your user:   sudo usermod -aG docker \"\$USER\"  (then log in again, or run: newgrp docker)"
  elif has_systemd; then
    say "start Docker:      sudo systemctl start docker"
  else
    say "start Docker:      sudo bash scripts/ensure-docker.sh   (starts dockerd in the background)"
  fi
  say "then run this script again."
  exit 1
}

# apt_install installs packages, running `apt-get update` only when a package
# has no install candidate (stale or empty lists) or the first attempt fails.
apt_install() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  say "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  local need_update=0
  for p in "${missing[@]}"; do
    apt-cache policy "$p" 2>/dev/null | grep -q 'Candidate: [^(]' || need_update=1
  done
  if ((need_update)); then
    apt-get update </dev/null
  fi
  if ! apt-get install -y --no-install-recommends "${missing[@]}" </dev/null; then
    apt-get update </dev/null
    apt-get install -y --no-install-recommends "${missing[@]}" </dev/null
  fi
}

# live_dockerd reports whether pid is a dockerd that is not a zombie (a killed
# dockerd can linger as a zombie when PID 1 is slow to reap it).
live_dockerd() {
  local pid=$1 stat
  [[ $pid =~ ^[0-9]+$ && -r /proc/$pid/stat ]] || return 1
  stat=$(</proc/"$pid"/stat) || return 1
  [[ $stat == *"(dockerd) "* && $stat != *"(dockerd) Z"* ]]
}

# pid_alive reports whether the pid in the pid file is a live dockerd.
pid_alive() {
  [[ -s $PIDFILE ]] && live_dockerd "$(<"$PIDFILE")"
}

# dockerd_running reports whether any live dockerd exists on this machine.
dockerd_running() {
  pid_alive && return 0
  local pid
  for pid in $(pgrep -x dockerd || true); do
    live_dockerd "$pid" && return 0
  done
  return 1
}

# clear_stale removes a pid file and socket left by a dockerd that is gone,
# which would otherwise make a new dockerd refuse to start.
clear_stale() {
  if [[ -e $PIDFILE ]] && ! pid_alive; then
    say "removing stale $PIDFILE"
    rm -f "$PIDFILE"
  fi
  if [[ -S $SOCK ]] && ! pid_alive; then
    say "removing stale $SOCK"
    rm -f "$SOCK"
  fi
}

# dockerd_args prints the daemon flags: defaults (overlay2 storage is picked
# by dockerd itself), plus --init-path when docker-init is not on PATH.
dockerd_args() {
  local args=()
  if ! command -v docker-init >/dev/null; then
    if [[ -x /usr/bin/tini-static ]]; then
      args+=(--init-path /usr/bin/tini-static)
    elif command -v tini >/dev/null; then
      args+=(--init-path "$(command -v tini)")
    fi
  fi
  # shellcheck disable=SC2206
  args+=(${GREENLIGHT_DOCKERD_ARGS:-})
  if ((${#args[@]})); then printf '%s\n' "${args[@]}"; fi
}

# start_dockerd launches dockerd in its own session, immune to the caller's
# hangup, stdin closed, so it keeps running after this script and make exit.
start_dockerd() {
  local args=()
  mapfile -t args < <(dockerd_args)
  mkdir -p "$(dirname "$LOG")"
  printf '\n=== %s ensure-docker: dockerd %s\n' "$(date -u +%FT%TZ)" "${args[*]}" >>"$LOG"
  say "starting dockerd ${args[*]} (log: $LOG)"
  setsid -f nohup dockerd "${args[@]}" >>"$LOG" 2>&1 </dev/null
}

# wait_engine waits until the engine answers, or dockerd died, or WAIT passes.
wait_engine() {
  local deadline=$((SECONDS + WAIT)) started=$SECONDS
  while ((SECONDS < deadline)); do
    if server_version >/dev/null; then
      say "engine answered after $((SECONDS - started)) s"
      return 0
    fi
    # Give a fresh dockerd a moment to write its pid file before judging it.
    if ((SECONDS - started > 3)) && ! dockerd_running; then
      return 1
    fi
    sleep 1
  done
  return 1
}

# start_engine starts the engine as root, via systemd when it manages Docker.
start_engine() {
  if has_systemd && systemctl cat docker.service >/dev/null 2>&1; then
    say "starting docker.service with systemctl"
    systemctl start docker </dev/null
    wait_engine && return 0
    die "docker.service did not come up: see journalctl -u docker"
  fi
  if dockerd_running; then
    say "a dockerd is already running but not answering yet; waiting"
    wait_engine && return 0
    dockerd_running && die "dockerd is running but does not answer on $SOCK; see $LOG"
    say "that dockerd exited; starting a new one"
  fi
  clear_stale
  start_dockerd
  wait_engine && return 0
  say "dockerd did not come up; last lines of $LOG:"
  tail -n 25 "$LOG" >&2 || true
  if tail -n 40 "$LOG" | grep -qi iptables && [[ ${GREENLIGHT_DOCKERD_ARGS:-} != *--iptables* ]]; then
    say "retrying with --iptables=false (containers on the bridge get no outbound NAT)"
    clear_stale
    GREENLIGHT_DOCKERD_ARGS="${GREENLIGHT_DOCKERD_ARGS:-} --iptables=false" start_dockerd
    wait_engine && return 0
  fi
  die "dockerd did not answer within ${WAIT}s; see $LOG"
}

# probe_image makes a one-file image holding tini-static, so that the engine
# can be proven to run containers without any registry.
probe_image() {
  docker image inspect "$PROBE_IMAGE" >/dev/null 2>&1 && return 0
  local bin dir
  bin=/usr/bin/tini-static
  [[ -x $bin ]] || return 1
  dir=$(mktemp -d)
  install -m 0755 "$bin" "$dir/probe"
  tar -C "$dir" --numeric-owner --owner=0 --group=0 -c probe |
    docker import --change 'ENTRYPOINT ["/probe"]' - "$PROBE_IMAGE" >/dev/null
  rm -rf "$dir"
}

# check_engine proves what greenlight relies on: an init binary, --init,
# --network none, --read-only, a non-root user and no capabilities.
check_engine() {
  local init
  init=$(docker info --format '{{.InitBinary}}' 2>/dev/null </dev/null || true)
  [[ -n $init ]] || say "warning: docker info shows no init binary; --init will fail (install tini)"
  if ! probe_image; then
    say "warning: /usr/bin/tini-static missing; skipping the container probe (install tini)"
    return 0
  fi
  local out
  if ! out=$(docker run --rm --init --network none --read-only --user 10001:10001 \
    --cap-drop ALL --security-opt no-new-privileges "$PROBE_IMAGE" --version 2>&1 </dev/null); then
    say "container probe failed: $out"
    say "check 'docker info' (init binary: ${init:-none}) and $LOG"
    exit 1
  fi
  say "container probe ok (--init --network none --read-only --user 10001): $out"
}

main() {
  [[ ${1:-} == --check ]] && CHECK=1
  local v
  if v=$(server_version) && [[ -n $v ]]; then
    say "Docker engine $v is up"
    ((CHECK)) && check_engine
    exit 0
  fi
  local why
  why=$(client_error)
  if [[ $why == *"permission denied"* ]] || ! is_root; then
    tell_user "$why"
  fi
  if ! command -v dockerd >/dev/null || ! command -v docker >/dev/null ||
    ! [[ -x /usr/bin/tini-static ]] || ! command -v iptables >/dev/null; then
    is_debian || tell_user "docker.io is not installed and this is not Debian"
    apt_install docker.io tini iptables
  fi
  start_engine
  v=$(server_version)
  say "Docker engine $v is up ($(docker info --format '{{.Driver}}' 2>/dev/null </dev/null) storage)"
  check_engine
}

main "$@"
