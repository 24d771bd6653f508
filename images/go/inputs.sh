#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# Host inputs to the go image's recipe hash: the toolchain's version.
set -euo pipefail
# shellcheck source=hostgo.sh
source "$(dirname "${BASH_SOURCE[0]}")/hostgo.sh"
"$(host_goroot)/bin/go" version
