#!/usr/bin/env bash
# demo.sh — what `make demo` runs: make sure a Docker engine answers and
# the Python sandbox image exists (both built offline, on the way), build
# the greenlight CLI, then verify the two bundled example projects with
# live progress: examples/fail must FAIL (exit 1) and examples/pass must
# PASS (exit 0). Each run ends with its summary and where to see it again.
#
# Environment: GREENLIGHT_HOME (where runs are kept; default
# ~/.local/share/greenlight), GREENLIGHT_ADDR (verify against a running
# gateway instead of embedded mode).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
export PATH="/usr/local/go/bin:$PATH"

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }

step "Docker engine"
bash scripts/ensure-docker.sh
step "sandbox image for Python (built offline from Debian packages; cached)"
bash images/build.sh python
step "building the greenlight CLI into .bin/greenlight"
mkdir -p .bin
(cd cmd/greenlight && go build -o "$ROOT/.bin/greenlight" .)
gl=$ROOT/.bin/greenlight

expect() { # expect CODE DIR: verify DIR and check the exit code
  local want=$1 dir=$2 rc=0
  step "greenlight verify $dir   (expecting exit $want)"
  "$gl" verify "$dir" || rc=$?
  if [[ $rc -ne $want ]]; then
    printf '\ndemo: greenlight verify %s exited %d, expected %d\n' "$dir" "$rc" "$want" >&2
    exit 1
  fi
  printf '\n(exit code %d, as expected)\n' "$rc"
}

expect 1 examples/fail
expect 0 examples/pass

step "done"
cat <<EOT
The failing example names its broken test (file:line) and exits 1; the passing
one confirms that execution passed and exits 0. Next:
  $gl runs                                   # the runs just made
  $gl show RUN --markdown                    # a summary to paste into a review
  $gl fix examples/fail --provider client < examples/fail.patch
  $gl serve    # then open http://127.0.0.1:7080/runs/RUN for the report page
EOT
