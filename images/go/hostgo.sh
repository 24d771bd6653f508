# shellcheck shell=bash
# host_goroot prints the GOROOT of the host's Go toolchain to copy into the
# image: $GREENLIGHT_GOROOT, else `go env GOROOT`, else /usr/local/go.
host_goroot() {
  local go root=${GREENLIGHT_GOROOT:-}
  if [[ -z $root ]]; then
    go=$(command -v go || true)
    [[ -n $go ]] || go=/usr/local/go/bin/go
    [[ -x $go ]] || { echo "no Go toolchain on this host: install Go or set GREENLIGHT_GOROOT" >&2; return 1; }
    root=$("$go" env GOROOT)
  fi
  [[ -x $root/bin/go ]] || { echo "$root/bin/go is not a Go toolchain" >&2; return 1; }
  printf '%s\n' "$root"
}
