# shellcheck shell=bash
# debian.sh — where Debian packages come from, and the cached minbase rootfs
# every image starts from. Sourced by images/build.sh.

# debian_suite prints the Debian suite the images are built from.
debian_suite() { printf '%s\n' "${GREENLIGHT_DEBIAN_SUITE:-bookworm}"; }

# apt_sources prints "URI SUITE" for every enabled deb source of this machine,
# one-line (.list) and deb822 (.sources) formats alike, http(s) only: the
# images must come from the mirror the host is allowed to reach.
apt_sources() {
  local f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [[ -r $f ]] || continue
    awk '$1 == "deb" {
      i = 2
      if ($i ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
      print $i, $(i + 1)
    }' "$f"
  done
  for f in /etc/apt/sources.list.d/*.sources; do
    [[ -r $f ]] || continue
    awk 'BEGIN { RS = ""; FS = "\n" }
    {
      types = ""; uris = ""; suites = ""; enabled = "yes"
      for (l = 1; l <= NF; l++) {
        line = $l
        if (line ~ /^#/) continue
        split(line, kv, ":")
        key = tolower(kv[1]); val = substr(line, length(kv[1]) + 2)
        gsub(/^[ \t]+|[ \t]+$/, "", val)
        if (key == "types") types = val
        else if (key == "uris") uris = val
        else if (key == "suites") suites = val
        else if (key == "enabled") enabled = tolower(val)
      }
      if (enabled == "no" || (" " types " ") !~ / deb /) next
      nu = split(uris, u, /[ \t]+/); ns = split(suites, s, /[ \t]+/)
      for (a = 1; a <= nu; a++) for (b = 1; b <= ns; b++) print u[a], s[b]
    }' "$f"
  done | awk '$1 ~ /^https?:\/\//'
}

# source_uri prints the first configured URI serving suite $1 ("" if none).
source_uri() {
  apt_sources | awk -v s="$1" '$2 == s { print $1; exit }'
}

# debian_mirror prints the Debian mirror: $GREENLIGHT_DEBIAN_MIRROR, else the
# one this machine's apt uses for the suite, else deb.debian.org.
debian_mirror() {
  local m=${GREENLIGHT_DEBIAN_MIRROR:-}
  [[ -n $m ]] || m=$(source_uri "$(debian_suite)")
  printf '%s\n' "${m:-http://deb.debian.org/debian}"
}

# chroot_sources_list prints the sources.list for an image: the suite, plus
# -updates and -security when the host is configured with them, so images
# get point-release and security fixes.
chroot_sources_list() {
  local suite mirror uri
  suite=$(debian_suite)
  mirror=$(debian_mirror)
  printf 'deb %s %s main\n' "$mirror" "$suite"
  uri=$(source_uri "$suite-updates")
  [[ -z $uri ]] || printf 'deb %s %s-updates main\n' "$uri" "$suite"
  uri=${GREENLIGHT_DEBIAN_SECURITY_MIRROR:-$(source_uri "$suite-security")}
  [[ -z $uri ]] || printf 'deb %s %s-security main\n' "$uri" "$suite"
}

# base_rootfs prints the path of a tarball of a fresh `debootstrap --variant=
# minbase` tree, building it once (under a lock, so parallel builds share it).
# Every image extracts it instead of running debootstrap again (~25 s saved).
base_rootfs() {
  local suite mirror key tarball dir
  suite=$(debian_suite)
  mirror=$(debian_mirror)
  key=$(printf '%s\n' "$suite" "$mirror" "$BASE_INCLUDE" "$(dpkg-query -W -f='${Version}' debootstrap 2>/dev/null)" |
    sha256sum | cut -c1-12)
  tarball=$CACHE_DIR/rootfs-$suite-$key.tar
  mkdir -p "$CACHE_DIR/debs"
  (
    flock 9
    [[ -s $tarball ]] && exit 0
    dir=$(mktemp -d "$WORK_ROOT/base.XXXXXX")
    trap 'release_rootfs "$dir"' EXIT
    log "debootstrap --variant=minbase $suite from $mirror (once; cached as $tarball)"
    if ! debootstrap --variant=minbase --include="$BASE_INCLUDE" --cache-dir="$CACHE_DIR/debs" \
      "$suite" "$dir/root" "$mirror" >"$dir/debootstrap.log" 2>&1; then
      tail -n 20 "$dir/debootstrap.log" >&2
      [[ -r $dir/root/debootstrap/debootstrap.log ]] && tail -n 20 "$dir/root/debootstrap/debootstrap.log" >&2
      exit 1
    fi
    tar -C "$dir/root" --numeric-owner -cf "$tarball.tmp" .
    mv "$tarball.tmp" "$tarball"
  ) 9>"$CACHE_DIR/rootfs.lock" >&2
  printf '%s\n' "$tarball"
}
