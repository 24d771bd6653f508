# shellcheck shell=bash
# rootfs.sh — turning the minbase tree into a sandbox root filesystem:
# chroot set-up and tear-down, package installation, the sandbox user and the
# slimming pass. Sourced by images/build.sh.

SANDBOX_UID=10001
SANDBOX_GID=10001
SANDBOX_HOME=/home/sandbox

# in_chroot runs a command in the rootfs with a clean, minimal environment.
in_chroot() {
  local root=$1
  shift
  chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@" </dev/null
}

# mounts_under prints the mount points below $1, deepest first.
mounts_under() {
  local root
  root=$(realpath -m "$1")
  awk -v r="$root" '$5 == r || index($5, r "/") == 1 { print $5 }' /proc/self/mountinfo | sort -r
}

# release_rootfs unmounts everything below a work dir and deletes it. It never
# deletes across a mount that would not come off (a left-over /proc or bind
# mount of the package cache must not be emptied by rm).
release_rootfs() {
  local dir=$1 m
  [[ -n $dir && -d $dir ]] || return 0
  for m in $(mounts_under "$dir"); do
    umount "$m" 2>/dev/null || umount -l "$m" || true
  done
  if [[ -n $(mounts_under "$dir") ]]; then
    warn "mounts remain under $dir; not deleting it"
    return 0
  fi
  rm -rf --one-file-system "$dir"
}

# prepare_rootfs makes the tree ready for apt-get in a chroot: proc, the
# image's own package cache, sources, no service starts, no docs installed.
prepare_rootfs() {
  local root=$1 name=$2
  mkdir -p "$CACHE_DIR/apt/$name/partial"
  mount -t proc proc "$root/proc"
  mount --bind "$CACHE_DIR/apt/$name" "$root/var/cache/apt/archives"
  chroot_sources_list >"$root/etc/apt/sources.list"
  cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
  printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
  chmod 0755 "$root/usr/sbin/policy-rc.d"
  cat >"$root/etc/dpkg/dpkg.cfg.d/greenlight-slim" <<'CFG'
# greenlight sandbox images carry no docs, man pages or translations.
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
path-exclude /usr/share/lintian/*
CFG
  cat >"$root/etc/apt/apt.conf.d/90greenlight" <<'CFG'
APT::Install-Recommends "false";
APT::Install-Suggests "false";
Acquire::Languages "none";
Acquire::Retries "3";
CFG
}

# read_list prints the non-comment, non-blank lines of the given files.
read_list() {
  local f
  for f in "$@"; do
    [[ -r $f ]] && sed -e 's/#.*//' -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$f"
  done
  return 0
}

# install_packages upgrades the base to the latest point release and security
# fixes, then installs the recipe's packages without recommends. apt's chatter
# goes to a log file that is shown only when something fails.
install_packages() {
  local root=$1 aptlog=$2
  shift 2
  local pkgs
  mapfile -t pkgs < <(read_list "$@")
  log "apt-get install ${pkgs[*]} (log: $aptlog)"
  if ! {
    in_chroot "$root" apt-get update &&
      in_chroot "$root" apt-get -y upgrade &&
      in_chroot "$root" apt-get -y install "${pkgs[@]}"
  } >"$aptlog" 2>&1; then
    tail -n 40 "$aptlog" >&2
    die "apt-get failed in the image tree"
  fi
  log "installed $(in_chroot "$root" dpkg-query -W -f='.' | wc -c) packages"
}

# add_sandbox_user writes the unprivileged user the sandbox runs as (uid/gid
# 10001) straight into the account files, and its HOME and /workspace.
add_sandbox_user() {
  local root=$1
  grep -q '^sandbox:' "$root/etc/passwd" && return 0
  printf 'sandbox:x:%d:%d:greenlight sandbox:%s:/bin/sh\n' "$SANDBOX_UID" "$SANDBOX_GID" "$SANDBOX_HOME" >>"$root/etc/passwd"
  printf 'sandbox:x:%d:\n' "$SANDBOX_GID" >>"$root/etc/group"
  printf 'sandbox:!*:19000:0:99999:7:::\n' >>"$root/etc/shadow"
  printf 'sandbox:!::\n' >>"$root/etc/gshadow"
  install -d -m 0755 -o "$SANDBOX_UID" -g "$SANDBOX_GID" "$root$SANDBOX_HOME" "$root/workspace"
}

# release_chroot undoes prepare_rootfs's mounts and host-specific files.
release_chroot() {
  local root=$1 m
  for m in $(mounts_under "$root"); do
    umount "$m"
  done
  rm -f "$root/usr/sbin/policy-rc.d"
  : >"$root/etc/resolv.conf"
  rm -f "$root/etc/hostname"
}

# slim_rootfs deletes what a read-only sandbox never needs: package lists and
# caches, logs, docs, man pages, translations.
slim_rootfs() {
  local root=$1
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/* \
    "$root"/var/cache/debconf/*-old "$root"/var/lib/dpkg/*-old "$root"/var/log/* \
    "$root"/usr/share/man/* "$root"/usr/share/info/* "$root"/usr/share/lintian \
    "$root"/tmp/* "$root"/var/tmp/* "$root"/root/.cache "$root"/debootstrap
  mkdir -p "$root/var/lib/apt/lists/partial" "$root/var/cache/apt/archives/partial"
  find "$root/usr/share/doc" -mindepth 1 ! -type d ! -name copyright -delete 2>/dev/null || true
  find "$root/usr/share/doc" -mindepth 1 -type d -empty -delete 2>/dev/null || true
  find "$root/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} + 2>/dev/null || true
}
