#!/bin/sh
# greenlight-go-entrypoint: before running the command, make the build
# cache made while the image was built (the standard library, compiled and
# vetted) visible in the writable $GOCACHE as a farm of symbolic links into
# the read-only seed, then run the command. The root filesystem is
# read-only at run time and the go command cannot use a read-only GOCACHE;
# without the seed the first `go test` of every run recompiles the standard
# library (~40 s on 2 cores). Links instead of a copy: ~60 ms and a few KB of
# memory instead of ~0.35 s and 115 MB per sandbox, and the go command reads
# its own cache natively (a GOCACHEPROG server costs ~0.15 s per go command:
# every lookup is a round trip). The seed's files are root-owned on the
# read-only root, so a test can replace a link in its own $GOCACHE but never
# what the link points at. trim.txt is written fresh so the go command does
# not trim the links by the seed's age. GREENLIGHT_GOCACHE_SEED=off skips it.
seed=/usr/local/share/greenlight/go-build
if [ "${GREENLIGHT_GOCACHE_SEED:-on}" != off ] && [ -d "$seed" ] && [ -n "${GOCACHE:-}" ] &&
  [ ! -e "$GOCACHE/.greenlight-seeded" ]; then
  if mkdir -p "$GOCACHE" 2>/dev/null && cp -Rs "$seed/." "$GOCACHE/" 2>/dev/null; then
    rm -f "$GOCACHE/trim.txt" && date +%s >"$GOCACHE/trim.txt"
    : >"$GOCACHE/.greenlight-seeded"
  fi
fi
exec "$@"
