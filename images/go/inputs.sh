# Host inputs to the go image's recipe hash: the toolchain's version.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/hostgo.sh"
"$(host_goroot)/bin/go" version
