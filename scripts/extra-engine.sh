#!/usr/bin/env bash
# extra-engine.sh — run more Docker engines next to the default one, each
# fully separate (own dockerd, containerd, data, sockets, bridge, address
# pool), so that several greenlight executors can each have an engine of
# their own on one machine (integration tests, issue 15). The default engine
# (/var/run/docker.sock, scripts/ensure-docker.sh) is never stopped or
# restarted by this script.
#
# Usage (as root):
#   scripts/extra-engine.sh start NAME          start NAME (idempotent); prints its DOCKER_HOST
#   scripts/extra-engine.sh load NAME IMAGE...  copy images (with all their tags) from the
#                                               default engine; IMAGE may be a glob such as
#                                               'greenlight/sandbox-*'; same image ID: skipped
#   scripts/extra-engine.sh stop NAME [--purge] remove its containers and networks, stop it,
#                                               delete its bridge and iptables rules;
#                                               --purge also deletes its images and state
#   scripts/extra-engine.sh host NAME           print its DOCKER_HOST (whether running or not)
#
# NAME is 1 to 11 lower-case letters or digits, starting with a letter.
# Engine NAME (index N, 1-16, chosen at its first start and kept in
# /var/lib/greenlight-engines/NAME.env) gets:
#   socket      unix:///run/greenlight-engines/NAME.sock
#   data        /var/lib/greenlight-engines/NAME        (images, containers, its containerd's data)
#   exec root   /run/greenlight-engines/NAME            (its containerd's socket, netns, plugins)
#   pid file    /run/greenlight-engines/NAME.pid
#   log         /var/log/greenlight-engines/NAME.log
#   bridge      gle-NAME, 10.213.N.1/24                 (its default "bridge" network)
#   pool        10.214.16(N-1).0/20 in /24 networks     (its user-defined networks)
# Why each flag: docs/architecture.md, "Several engines on one machine".
#
# Environment:
#   GREENLIGHT_ENGINE_WAIT   seconds to wait for the engine (default 60)
#   GREENLIGHT_ENGINE_ARGS   extra dockerd flags (word-split)
# stdout carries only the DOCKER_HOST value (start, host); diagnostics go to
# stderr.
set -euo pipefail

LIB=/var/lib/greenlight-engines
RUN=/run/greenlight-engines
LOGDIR=/var/log/greenlight-engines
WAIT=${GREENLIGHT_ENGINE_WAIT:-60}
MAX_INDEX=16
# Chains the bridge driver of every dockerd flushes when it starts
# (libnetwork removeIPChains): table:chain.
DOCKER_CHAINS=(filter:DOCKER filter:DOCKER-ISOLATION-STAGE-1 filter:DOCKER-ISOLATION-STAGE-2 nat:DOCKER)

say() { printf 'extra-engine: %s\n' "$*" >&2; }
die() {
  say "$*"
  exit 1
}

usage() {
  sed -n '/^# Usage/,/^# NAME/p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

# set_name validates NAME and derives every path and name of the engine.
set_name() {
  NAME=${1:-}
  [[ $NAME =~ ^[a-z][a-z0-9]{0,10}$ ]] ||
    die "engine name '$NAME' must be 1 to 11 lower-case letters or digits, starting with a letter (it names an interface)"
  DATA=$LIB/$NAME
  EXEC=$RUN/$NAME
  SOCK=$RUN/$NAME.sock
  PIDFILE=$RUN/$NAME.pid
  ENVFILE=$LIB/$NAME.env
  CONFIG=$LIB/$NAME.json
  LOG=$LOGDIR/$NAME.log
  BRIDGE=gle-$NAME
  HOST=unix://$SOCK
}

need_root() {
  [[ $(id -u) -eq 0 ]] || die "run as root (it starts dockerd, creates a bridge and iptables rules)"
  local c
  for c in dockerd docker ip iptables iptables-save flock setsid; do
    command -v "$c" >/dev/null || die "missing command: $c (Debian: apt-get install docker.io iproute2 iptables util-linux)"
  done
}

# with_lock runs the rest of the command under a host-wide lock: starts and
# stops are serialised, so index allocation and the iptables repair of one
# start never interleave with another's.
with_lock() {
  mkdir -p "$RUN"
  exec 9>"$RUN/.lock"
  flock -w 120 9 || die "another extra-engine.sh start/stop holds $RUN/.lock"
}

# --- addresses ---------------------------------------------------------------

ip2int() {
  local a b c d
  IFS=. read -r a b c d <<<"$1"
  echo $(((a << 24) | (b << 16) | (c << 8) | d))
}

# overlaps A/n B/m reports whether two IPv4 prefixes share an address.
overlaps() {
  local a=${1%/*} al=${1#*/} b=${2%/*} bl=${2#*/} l
  l=$((al < bl ? al : bl))
  local mask=$(((0xffffffff << (32 - l)) & 0xffffffff))
  (($(($(ip2int "$a") & mask)) == $(($(ip2int "$b") & mask))))
}

# inside A/n B/m reports whether prefix A lies within prefix B.
inside() { ((${1#*/} >= ${2#*/})) && overlaps "$1" "$2"; }

bridge_cidr() { echo "10.213.$1.1/24"; }
bridge_net() { echo "10.213.$1.0/24"; }
pool_cidr() { echo "10.214.$((16 * ($1 - 1))).0/20"; }

# routed_prefixes lists the IPv4 prefixes routed on this host, except those
# of interfaces given as arguments (the engine's own).
routed_prefixes() {
  ip -4 route show table all 2>/dev/null | awk '$1 ~ /^[0-9.]+(\/[0-9]+)?$/ {
      dev = ""; for (i = 1; i < NF; i++) if ($i == "dev") dev = $(i + 1)
      p = $1; if (p !~ /\//) p = p "/32"; print p, dev }' |
    while read -r p dev; do
      [[ " $* " == *" $dev "* ]] || echo "$p"
    done
}

# index_free reports whether index N is unused by another engine's env file
# and its subnets by any route on the host.
index_free() {
  local n=$1 f p
  for f in "$LIB"/*.env; do
    [[ -e $f && $f != "$ENVFILE" ]] || continue
    grep -qx "INDEX=$n" "$f" && return 1
  done
  for p in $(routed_prefixes "$BRIDGE"); do
    overlaps "$p" "$(bridge_net "$n")" && return 1
    overlaps "$p" "$(pool_cidr "$n")" && return 1
  done
  return 0
}

# load_index reads the engine's index or allocates the lowest free one.
load_index() {
  INDEX=
  if [[ -s $ENVFILE ]]; then
    INDEX=$(sed -n 's/^INDEX=\([0-9]\{1,2\}\)$/\1/p' "$ENVFILE")
  fi
  if [[ -z $INDEX ]]; then
    local n
    for ((n = 1; n <= MAX_INDEX; n++)); do
      if index_free "$n"; then
        INDEX=$n
        break
      fi
    done
    [[ -n $INDEX ]] || die "no free engine index (1-$MAX_INDEX): stop and purge an engine, or free 10.213.0.0/16 and 10.214.0.0/16"
    mkdir -p "$LIB"
    echo "INDEX=$INDEX" >"$ENVFILE"
  fi
  local p
  for p in $(routed_prefixes "$BRIDGE"); do
    if overlaps "$p" "$(bridge_net "$INDEX")" || overlaps "$p" "$(pool_cidr "$INDEX")"; then
      die "route $p overlaps engine $NAME's subnets ($(bridge_net "$INDEX"), pool $(pool_cidr "$INDEX")); purge it (stop $NAME --purge) to pick another index"
    fi
  done
}

# --- processes ---------------------------------------------------------------

# our_dockerd reports whether pid is a live (not zombie) dockerd started with
# this engine's pid file, so that the default engine is never mistaken for it.
our_dockerd() {
  local pid=$1 stat
  [[ $pid =~ ^[0-9]+$ && -r /proc/$pid/stat ]] || return 1
  stat=$(</proc/"$pid"/stat) || return 1
  [[ $stat == *"(dockerd) "* && $stat != *"(dockerd) Z"* ]] || return 1
  tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline" | grep -qF -- "--pidfile $PIDFILE "
}

engine_pid() {
  local pid
  [[ -s $PIDFILE ]] || return 1
  pid=$(<"$PIDFILE")
  our_dockerd "$pid" || return 1
  echo "$pid"
}

answers() {
  timeout 5 docker -H "$HOST" version --format '{{.Server.Version}}' </dev/null 2>/dev/null
}

dk() { docker -H "$HOST" "$@"; }

# --- bridge and iptables -----------------------------------------------------

ensure_bridge() {
  local want have
  want=$(bridge_cidr "$INDEX")
  if ! ip link show "$BRIDGE" >/dev/null 2>&1; then
    ip link add "$BRIDGE" type bridge
  fi
  have=$(ip -4 -o addr show dev "$BRIDGE" | awk '{print $4}')
  if [[ $have != "$want" ]]; then
    ip addr flush dev "$BRIDGE"
    ip addr add "$want" dev "$BRIDGE"
  fi
  ip link set "$BRIDGE" up
}

# restore_docker0 puts back the default engine's bridge, with its address
# CIDR, when a starting dockerd removed it: dockerd 20.10 started with
# --bridge deletes the interface named docker0 (seen here: the default
# engine then fails every container on its "bridge" network with "could
# not find bridge docker0").
restore_docker0() {
  local cidr=$1
  [[ -n $cidr ]] || return 0
  ip link show docker0 >/dev/null 2>&1 && return 0
  ip link add docker0 type bridge && ip addr add "$cidr" dev docker0 && ip link set docker0 up &&
    say "put back the default engine's bridge docker0 ($cidr), which dockerd's start removed" ||
    say "warning: could not put back the default engine's bridge docker0 ($cidr)"
}

# snapshot_docker_rules prints the rules of DOCKER_CHAINS as "table rule".
snapshot_docker_rules() {
  local tc t c
  for tc in "${DOCKER_CHAINS[@]}"; do
    t=${tc%%:*}
    c=${tc#*:}
    iptables-save -t "$t" 2>/dev/null | grep -- "^-A $c " | sed "s/^/$t /" || true
  done
}

# restore_docker_rules puts back the rules of a snapshot that a starting
# dockerd flushed (the default engine's published ports and network
# isolation), inserting each missing one first in its chain: every chain
# ends in RETURN or holds order-independent rules.
restore_docker_rules() {
  local t chain rest n=0
  local -a args
  while read -r t _ chain rest; do
    [[ $rest == *[\"\']* ]] && continue # never word-split quoted comments
    read -ra args <<<"$rest"
    iptables -w 5 -t "$t" -C "$chain" "${args[@]}" 2>/dev/null && continue
    if iptables -w 5 -t "$t" -I "$chain" 1 "${args[@]}" 2>/dev/null; then
      n=$((n + 1))
    else
      say "warning: could not restore iptables rule: -t $t -A $chain $rest"
    fi
  done
  ((n == 0)) || say "restored $n iptables rule(s) of the other engines that dockerd's start flushed"
}

# our_bridges lists the bridge interfaces holding an address of this
# engine's subnets: its default bridge and its user-defined networks'
# (br-ID, gl-ID), found even when the daemon is gone.
our_bridges() {
  local dev cidr
  ip -4 -o addr show type bridge 2>/dev/null | awk '{print $2, $4}' | while read -r dev cidr; do
    if overlaps "$cidr" "$(bridge_net "$INDEX")" || overlaps "$cidr" "$(pool_cidr "$INDEX")"; then
      echo "$dev"
    fi
  done
  if ip link show "$BRIDGE" >/dev/null 2>&1; then echo "$BRIDGE"; fi
}

# drop_rules deletes every filter and nat rule naming one of the bridges or
# a prefix inside this engine's subnets (what a stopped or killed dockerd
# leaves behind), plus the egress chains greenlight keyed by a gl-ID bridge.
drop_rules() {
  local -a bridges=("$@") args
  local t line hit b c rules
  for t in filter nat; do
    rules=$(iptables-save -t "$t" 2>/dev/null | grep '^-A ' || true)
    while read -r line; do
      [[ -n $line && $line != *[\"\']* ]] || continue
      hit=0
      for b in "${bridges[@]}"; do
        [[ " $line " == *" -i $b "* || " $line " == *" -o $b "* ]] && hit=1
      done
      if [[ $line =~ -[sd]\ ([0-9.]+/[0-9]+) ]]; then
        inside "${BASH_REMATCH[1]}" "$(bridge_net "$INDEX")" && hit=1
        inside "${BASH_REMATCH[1]}" "$(pool_cidr "$INDEX")" && hit=1
      fi
      ((hit)) || continue
      read -ra args <<<"${line#-A }"
      iptables -w 5 -t "$t" -D "${args[@]}" 2>/dev/null || say "warning: could not delete: -t $t $line"
    done <<<"$rules"
  done
  for b in "${bridges[@]}"; do
    [[ $b == gl-* ]] || continue
    for c in "GL-EGRESS-${b#gl-}" "GL-EGRESS-IN-${b#gl-}"; do
      if iptables -w 5 -S "$c" >/dev/null 2>&1; then
        { iptables -w 5 -F "$c" && iptables -w 5 -X "$c"; } || say "warning: could not delete chain $c"
      fi
    done
  done
}

# --- start -------------------------------------------------------------------

# dockerd_args prints the flags of engine NAME (why: docs/architecture.md).
dockerd_args() {
  local args=(
    --data-root "$DATA"
    --exec-root "$EXEC"
    -H "$HOST"
    --pidfile "$PIDFILE"
    --config-file "$CONFIG"
    --bridge "$BRIDGE"
    --default-address-pool "base=$(pool_cidr "$INDEX"),size=24"
    --containerd-namespace "greenlight-$NAME"
    --containerd-plugins-namespace "greenlight-$NAME-plugins"
  )
  # cgroupfs only: a systemd driver wants a slice name, and already puts
  # each container in a scope of its own.
  if [[ $(timeout 5 docker info --format '{{.CgroupDriver}}' 2>/dev/null </dev/null || true) != systemd ]]; then
    args+=(--cgroup-parent "/greenlight-engine-$NAME")
  fi
  if ! command -v docker-init >/dev/null; then
    if [[ -x /usr/bin/tini-static ]]; then
      args+=(--init-path /usr/bin/tini-static)
    elif command -v tini >/dev/null; then
      args+=(--init-path "$(command -v tini)")
    fi
  fi
  # shellcheck disable=SC2206
  args+=(${GREENLIGHT_ENGINE_ARGS:-})
  printf '%s\n' "${args[@]}"
}

# wait_engine waits until the engine answers, fails early when its dockerd
# died.
wait_engine() {
  local deadline=$((SECONDS + WAIT)) started=$SECONDS
  while ((SECONDS < deadline)); do
    answers >/dev/null && return 0
    if ((SECONDS - started > 3)) && ! engine_pid >/dev/null; then
      return 1
    fi
    sleep 0.5
  done
  return 1
}

cmd_start() {
  set_name "${1:-}"
  need_root
  with_lock
  local v pid
  if v=$(answers) && [[ -n $v ]]; then
    say "engine $NAME ($v) is already running"
    echo "$HOST"
    return 0
  fi
  if pid=$(engine_pid); then
    say "engine $NAME (pid $pid) runs but does not answer yet; waiting"
    wait_engine || die "engine $NAME (pid $pid) does not answer on $SOCK; see $LOG (stop it: $0 stop $NAME)"
    echo "$HOST"
    return 0
  fi
  load_index
  mkdir -p "$DATA" "$EXEC" "$LOGDIR"
  [[ -s $CONFIG ]] || echo '{}' >"$CONFIG" # never /etc/docker/daemon.json: the default engine's
  rm -f "$PIDFILE" "$SOCK"                 # stale: its dockerd is gone
  ensure_bridge
  local args=() snap docker0 started=$SECONDS
  mapfile -t args < <(dockerd_args)
  snap=$(snapshot_docker_rules)
  docker0=$(ip -4 -o addr show dev docker0 2>/dev/null | awk '{print $4}' | head -n 1)
  printf '\n=== %s extra-engine: dockerd %s\n' "$(date -u +%FT%TZ)" "${args[*]}" >>"$LOG"
  say "starting engine $NAME (bridge $BRIDGE $(bridge_cidr "$INDEX"), pool $(pool_cidr "$INDEX"); log: $LOG)"
  # 9>&-: the daemon must not inherit (and so hold forever) the lock.
  setsid -f nohup dockerd "${args[@]}" >>"$LOG" 2>&1 </dev/null 9>&-
  if ! wait_engine; then
    restore_docker_rules <<<"$snap"
    restore_docker0 "$docker0"
    if engine_pid >/dev/null; then
      say "engine $NAME did not answer within ${WAIT}s; last lines of $LOG:"
    else
      say "engine $NAME's dockerd exited; last lines of $LOG:"
    fi
    # shellcheck disable=SC2016 # sed's own $, not the shell's
    sed -n '/^=== /h;/^=== /!H;${x;p}' "$LOG" | tail -n 20 >&2 || true # this attempt's lines
    die "engine $NAME failed to start; log: $LOG"
  fi
  restore_docker_rules <<<"$snap"
  restore_docker0 "$docker0"
  say "engine $NAME ($(answers)) answered after $((SECONDS - started)) s"
  echo "$HOST"
}

# --- load --------------------------------------------------------------------

# expand prints the default engine's image references matching IMAGE (a
# glob over repository:tag, or a plain reference).
expand() {
  local pat=$1 ref found=0
  if [[ $pat != *[*?[]* ]]; then
    echo "$pat"
    return
  fi
  while read -r ref; do
    # shellcheck disable=SC2053
    if [[ $ref == $pat ]]; then
      echo "$ref"
      found=1
    fi
  done < <(docker images --format '{{.Repository}}:{{.Tag}}' | grep -v '<none>')
  ((found)) || die "no image of the default engine matches '$pat'"
}

cmd_load() {
  set_name "${1:-}"
  shift || true
  (($#)) || usage
  need_root
  answers >/dev/null || die "engine $NAME does not answer on $SOCK: run $0 start $NAME"
  local refs=() ref id tags t save=() seen=" " started=$SECONDS
  for ref in "$@"; do
    t=$(expand "$ref") || exit 1
    mapfile -t -O "${#refs[@]}" refs <<<"$t"
  done
  for ref in "${refs[@]}"; do
    id=$(docker image inspect --format '{{.Id}}' "$ref" 2>/dev/null) ||
      die "the default engine has no image $ref"
    [[ $seen == *" $id "* ]] && continue
    seen+="$id "
    tags=$(docker image inspect --format '{{join .RepoTags " "}}' "$id")
    [[ -n $tags ]] || tags=$ref
    if [[ $(dk image inspect --format '{{.Id}}' "$id" 2>/dev/null) == "$id" ]]; then
      for t in $tags; do
        [[ $(dk image inspect --format '{{.Id}}' "$t" 2>/dev/null) == "$id" ]] || dk tag "$id" "$t"
      done
      say "$ref: engine $NAME has it already (${id:7:12})"
      continue
    fi
    # shellcheck disable=SC2206
    save+=($tags)
  done
  if ((${#save[@]})); then
    say "copying ${save[*]} into engine $NAME"
    docker save "${save[@]}" | dk load >&2
    say "copied ${#save[@]} tag(s) in $((SECONDS - started)) s"
  fi
}

# --- stop --------------------------------------------------------------------

# stop_daemon sends SIGTERM, waits 20 s, then SIGKILL; the daemon's own
# containerd follows it (and is killed if it does not).
stop_daemon() {
  local pid=$1 cpid i
  cpid=$(cat "$EXEC/containerd/containerd.pid" 2>/dev/null || true)
  say "stopping engine $NAME (pid $pid)"
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 40; i++)); do
    our_dockerd "$pid" || break
    sleep 0.5
  done
  if our_dockerd "$pid"; then
    say "engine $NAME did not stop within 20 s; SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    sleep 1
  fi
  if [[ $cpid =~ ^[0-9]+$ ]] && [[ -r /proc/$cpid/cmdline ]] &&
    tr '\0' ' ' 2>/dev/null <"/proc/$cpid/cmdline" | grep -qF "$EXEC/containerd/"; then
    say "killing engine $NAME's leftover containerd (pid $cpid)"
    kill -KILL "$cpid" 2>/dev/null || true
  fi
}

# kill_leftovers removes the containers a killed daemon left running: its
# containerd dies with it, but the shims and their containers do not. runc
# state of this engine only ($EXEC/runtime-runc/NAMESPACE), then the shims
# that named this engine's containerd socket.
kill_leftovers() {
  local root id pid n=0
  for root in "$EXEC"/runtime-runc/*/; do
    [[ -d $root ]] || continue
    for id in $(runc --root "$root" list -q 2>/dev/null); do
      runc --root "$root" delete -f "$id" 2>/dev/null && n=$((n + 1))
    done
  done
  ((n == 0)) || say "deleted $n leftover container(s) of engine $NAME with runc"
  for pid in $(pgrep containerd-shim || true); do # comm is cut to 15 characters
    if tr '\0' '\n' 2>/dev/null <"/proc/$pid/cmdline" | grep -qx "$EXEC/containerd/containerd.sock"; then
      say "killing leftover shim (pid $pid) of engine $NAME"
      kill -KILL "$pid" 2>/dev/null || true
    fi
  done
}

# unmount_under lazily unmounts what is still mounted below a directory
# (network namespaces, overlays of a killed daemon), deepest first.
unmount_under() {
  local dir=$1 m
  awk -v d="$dir/" 'index($5 "/", d) == 1 {print $5}' /proc/self/mountinfo | sort -r | while read -r m; do
    umount -l "$m" 2>/dev/null || say "warning: could not unmount $m"
  done
}

cmd_stop() {
  set_name "${1:-}"
  local purge=0
  [[ ${2:-} == --purge ]] && purge=1
  [[ -z ${2:-} || $purge == 1 ]] || usage
  need_root
  with_lock
  INDEX=
  [[ -s $ENVFILE ]] && INDEX=$(sed -n 's/^INDEX=\([0-9]\{1,2\}\)$/\1/p' "$ENVFILE")
  local bridges=() pid ids
  [[ -n $INDEX ]] && mapfile -t bridges < <(our_bridges | sort -u)
  if answers >/dev/null; then
    ids=$(dk ps -aq)
    if [[ -n $ids ]]; then
      say "removing $(wc -w <<<"$ids") container(s) of engine $NAME"
      # shellcheck disable=SC2086
      dk rm -f $ids >/dev/null || say "warning: some containers could not be removed"
    fi
    dk network prune -f >/dev/null || say "warning: network prune failed"
  fi
  if pid=$(engine_pid); then
    stop_daemon "$pid"
  else
    say "engine $NAME is not running"
  fi
  kill_leftovers
  rm -f "$PIDFILE" "$SOCK"
  if [[ -n $INDEX ]]; then
    drop_rules "${bridges[@]}"
    local b
    for b in "${bridges[@]}"; do
      # Never the default engine's bridge, whatever its address.
      [[ $b == docker0 ]] && continue
      if ip link del "$b" 2>/dev/null; then say "deleted bridge $b"; fi
    done
  fi
  unmount_under "$EXEC" # the daemon is gone: what is still mounted is stale
  unmount_under "$DATA"
  if ((purge)); then
    rm -rf --one-file-system "$DATA" "$EXEC" "$ENVFILE" "$CONFIG"
    say "purged engine $NAME's state ($DATA, $EXEC); log kept: $LOG"
  fi
  say "engine $NAME stopped"
}

main() {
  local cmd=${1:-}
  shift || true
  case $cmd in
  start) cmd_start "$@" ;;
  load) cmd_load "$@" ;;
  stop) cmd_stop "$@" ;;
  host)
    set_name "${1:-}"
    echo "$HOST"
    ;;
  *) usage ;;
  esac
}

main "$@"
