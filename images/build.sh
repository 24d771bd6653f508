#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# build.sh — build greenlight's offline sandbox images without any registry.
#
# Each image is a Debian minbase tree (debootstrap, cached) plus the packages
# of images/<name>/packages installed in a chroot, the sandbox user,
# greenlight-runner (the executor's step runner, compiled here with the host's
# Go toolchain), the image's own setup.sh, and a slimming pass; it is streamed into
# `docker import` with the --change lines of common/changes and
# <name>/changes, smoke-tested as uid 10001 on a read-only root without
# network, and only then tagged greenlight/sandbox-<name>:<recipe-hash> and
# :latest. An image whose recipe hash is already tagged is not rebuilt.
#
# Usage: images/build.sh [--force] [--jobs N] [NAME[,NAME...]|all]...
#   NAME       generic, cpp, rust, java, python, go or node; several may be
#              given, space- or comma-separated (`images/build.sh go,python`);
#              none or `all` builds every image
#   --force    rebuild even if the recipe hash is already tagged (e.g. to pick
#              up Debian security updates)
#   --jobs N   build N images at once (default 1: on 2 cores, parallel builds
#              were measured to be no faster; see images/README.md)
#
# Environment: GREENLIGHT_DEBIAN_SUITE (bookworm), GREENLIGHT_DEBIAN_MIRROR
# (default: this machine's apt mirror), GREENLIGHT_DEBIAN_SECURITY_MIRROR,
# GREENLIGHT_GOROOT (default: `go env GOROOT`), GREENLIGHT_IMAGE_CACHE
# (/var/cache/greenlight-debootstrap), GREENLIGHT_IMAGE_WORKDIR (/var/tmp),
# GREENLIGHT_IMAGE_PREFIX (greenlight/sandbox-; tests build under another).
set -euo pipefail

IMAGES_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE_DIR=${GREENLIGHT_IMAGE_CACHE:-/var/cache/greenlight-debootstrap}
WORK_ROOT=${GREENLIGHT_IMAGE_WORKDIR:-/var/tmp}
BASE_INCLUDE=ca-certificates
IMAGE_PREFIX=${GREENLIGHT_IMAGE_PREFIX:-greenlight/sandbox-}
ALL_IMAGES=(generic cpp rust java python go node)
FORCE=0
JOBS=1
CURRENT=

log() { printf '[images%s] %s\n' "${CURRENT:+/$CURRENT}" "$*" >&2; }
warn() { log "warning: $*"; }
die() {
  log "error: $*"
  exit 1
}

# shellcheck source=lib/debian.sh
source "$IMAGES_DIR/lib/debian.sh"
# shellcheck source=lib/rootfs.sh
source "$IMAGES_DIR/lib/rootfs.sh"
# shellcheck source=lib/image.sh
source "$IMAGES_DIR/lib/image.sh"
# shellcheck source=lib/runner.sh
source "$IMAGES_DIR/lib/runner.sh"

# preflight fails early, with what to do, when the build cannot work here.
preflight() {
  [[ $(id -u) -eq 0 ]] || die "building images needs root (debootstrap, chroot, mount): sudo bash images/build.sh $*"
  command -v debootstrap >/dev/null || die "debootstrap is missing: apt-get install -y debootstrap"
  command -v docker >/dev/null || die "docker is missing: bash scripts/ensure-docker.sh"
  timeout 10 docker version --format '{{.Server.Version}}' >/dev/null 2>&1 </dev/null ||
    die "the Docker engine does not answer: bash scripts/ensure-docker.sh"
}

# ensure_debootstrap installs debootstrap on a fresh Debian machine.
ensure_debootstrap() {
  command -v debootstrap >/dev/null && return 0
  [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null || return 0
  log "installing debootstrap"
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends debootstrap </dev/null ||
    { apt-get update </dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends debootstrap </dev/null; }
}

# build_one builds image $1 unless its recipe hash is already tagged. It runs
# in a subshell so its EXIT trap always removes the work tree.
build_one() (
  local name=$1 ref hash started=$SECONDS
  CURRENT=$name
  ref=$IMAGE_PREFIX$name
  [[ -r $IMAGES_DIR/$name/packages ]] || die "no recipe at images/$name"
  hash=$(recipe_hash "$name")
  if ((!FORCE)) && image_exists "$ref:$hash"; then
    docker tag "$ref:$hash" "$ref:latest"
    prune_old "$ref" "$hash"
    log "$ref:$hash is up to date ($(image_size "$ref:$hash")); latest points at it"
    record "$name" "up to date" "$((SECONDS - started))" "$ref:$hash"
    return 0
  fi
  log "building $ref:$hash"
  local base work root id
  base=$(base_rootfs)
  work=$(mktemp -d "$WORK_ROOT/greenlight-image-$name.XXXXXX")
  trap 'release_rootfs "$work"' EXIT
  root=$work/root
  mkdir -p "$root"
  tar -C "$root" --numeric-owner -xpf "$base"
  prepare_rootfs "$root" "$name"
  install_packages "$root" "$work/apt.log" "$IMAGES_DIR/common/packages" "$IMAGES_DIR/$name/packages"
  release_chroot "$root"
  add_sandbox_user "$root"
  install_runner "$root"
  if [[ -r $IMAGES_DIR/$name/setup.sh ]]; then
    log "running $name/setup.sh"
    bash "$IMAGES_DIR/$name/setup.sh" "$root"
  fi
  slim_rootfs "$root"
  log "importing ($(du -sh --apparent-size "$root" | cut -f1) tree)"
  id=$(import_rootfs "$root" "$name" "$hash")
  log "checking $id"
  if ! check_image "$id" "$name"; then
    docker rmi "$id" >/dev/null 2>&1 </dev/null || true
    die "smoke check failed; $ref:$hash was not tagged"
  fi
  tag_image "$id" "$ref" "$hash"
  prune_old "$ref" "$hash"
  log "built $ref:$hash ($(image_size "$ref:$hash")) in $((SECONDS - started)) s"
  record "$name" built "$((SECONDS - started))" "$ref:$hash"
)

# record notes one image's outcome for the summary table: name, what
# happened, seconds, and the tagged reference (whose size is looked up).
record() {
  printf '%s\t%s\t%s s\t%s\t%s\n' "$1" "$2" "$3" "$(image_size "$4")" "$4" >>"$SUMMARY"
}

# summary prints, per image asked for, what happened, how long it took and
# the image's size; an image with no line failed (its log says why).
summary() {
  local name line
  {
    printf 'image\tresult\ttime\tsize\treference\n'
    for name in "${NAMES[@]}"; do
      line=$(grep -m1 "^$name	" "$SUMMARY" 2>/dev/null || true)
      printf '%s\n' "${line:-$name	FAILED	-	-	-}"
    done
  } | awk -F'\t' '{ printf "%-8s %-11s %-7s %-9s %s\n", $1, $2, $3, $4, $5 }' >&2
}

# add_names appends the images a NAME[,NAME...] argument names to NAMES,
# once each, refusing unknown names.
add_names() {
  local name known
  local -a list
  IFS=', ' read -r -a list <<<"$1"
  for name in "${list[@]}"; do
    [[ -n $name ]] || continue
    if [[ $name == all ]]; then
      for known in "${ALL_IMAGES[@]}"; do add_names "$known"; done
      continue
    fi
    [[ " ${ALL_IMAGES[*]} " == *" $name "* ]] || die "unknown image '$name' (want: ${ALL_IMAGES[*]} or all)"
    [[ " ${NAMES[*]} " == *" $name "* ]] || NAMES+=("$name")
  done
}

# parse_args fills FORCE, JOBS and the NAMES array.
parse_args() {
  NAMES=()
  while (($#)); do
    case $1 in
    --force) FORCE=1 ;;
    --jobs) JOBS=${2:?--jobs needs a number}; shift ;;
    -h | --help) sed -n '3,/^set /s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
    -*) die "unknown option '$1' (want: --force, --jobs N)" ;;
    *) add_names "$1" ;;
    esac
    shift
  done
  ((${#NAMES[@]})) || NAMES=("${ALL_IMAGES[@]}")
}

# build_parallel builds the images JOBS at a time, each logging to its own
# file that is printed when it ends, and fails if any failed.
build_parallel() {
  local logs pids=() failed=0 name i
  logs=$(mktemp -d)
  for name in "${NAMES[@]}"; do
    while (($(jobs -rp | wc -l) >= JOBS)); do wait -n || true; done
    build_one "$name" >"$logs/$name.log" 2>&1 &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || failed=1
    cat "$logs/${NAMES[$i]}.log" >&2
  done
  rm -rf "$logs"
  return "$failed"
}

main() {
  parse_args "$@"
  ensure_debootstrap
  preflight "$@"
  local started=$SECONDS name failed=0 rc
  build_runner
  SUMMARY=$(mktemp)
  trap 'rm -rf "${RUNNER_BIN%/*}" "$SUMMARY"' EXIT
  if ((JOBS > 1)); then
    build_parallel || failed=1
  else
    for name in "${NAMES[@]}"; do
      # Not `build_one || ...`: that would switch errexit off inside it.
      set +e
      build_one "$name"
      rc=$?
      set -e
      ((rc == 0)) || { failed=1; break; }
    done
  fi
  log "done in $((SECONDS - started)) s"
  summary
  ((!failed)) || die "some images failed to build (see above)"
}

main "$@"
