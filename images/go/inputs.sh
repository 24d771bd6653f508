#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# Host inputs to the go image's recipe hash: the toolchain's version and
# the sources of greenlight-gocache, which setup.sh builds with it.
set -euo pipefail
# shellcheck source=hostgo.sh
source "$(dirname "${BASH_SOURCE[0]}")/hostgo.sh"
# shellcheck source=gocache.sh
source "$(dirname "${BASH_SOURCE[0]}")/gocache.sh"
"$(host_goroot)/bin/go" version
echo "greenlight-gocache sources $(gocache_sources)"
