#!/usr/bin/env bash
# bench-swe-small.sh builds a small repair suite offline and measures
# time-to-green on it: a few tasks of docs/realworld-tasks.txt (Go and
# Python, the quick ones) made by scripts/swe-tasks.sh from the corpus's
# full-history checkouts (no network: git archive and git diff), then
# scripts/swe-bench-loop.sh over its gold patches. It is what `make
# bench-loop` runs when no SWE_SUITE is given, so `make bench` prints the
# figure "median time-to-green / host test command" of issue 25.
#
# Usage: scripts/bench-swe-small.sh [CORPUS]
#   CORPUS  the checkouts of docs/realworld-corpus.txt with their history
#           (default /work/corpus)
# Environment:
#   SWE_BENCH_TASKS  task names (default: two of pflag, toml, mux, and
#                    cachetools and six)
#   GREENLIGHT       the binary (default .bin/greenlight)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${1:-/work/corpus}
tasks=${SWE_BENCH_TASKS:-pflag-ip-nil-default toml-leading-zeroes mux-subrouter-405 cachetools-missing-getsizeof six-reraise-none}
list=$root/docs/realworld-tasks.txt

work=$(mktemp -d /tmp/greenlight-swe-small.XXXXXX)
trap 'rm -rf "$work"' EXIT
for t in $tasks; do
	line=$(awk -F'|' -v n="$t" '{ k = $1; gsub(/^[ \t]+|[ \t]+$/, "", k) } k == n' "$list")
	[[ -n $line ]] || { echo "bench-swe-small: no task $t in $list" >&2; exit 2; }
	dir=$(awk -F'|' '{ gsub(/^[ \t]+|[ \t]+$/, "", $2); print $2 }' <<<"$line")
	sha=$(awk -F'|' '{ gsub(/^[ \t]+|[ \t]+$/, "", $3); print $3 }' <<<"$line")
	if ! git -C "$corpus/$dir" cat-file -e "$sha^{commit}" 2>/dev/null; then
		echo "bench-swe-small: $corpus/$dir has no commit $sha: full-history checkouts of docs/realworld-corpus.txt are needed (docs/realworld.md, Reproduce)" >&2
		exit 2
	fi
	echo "$line" >>"$work/tasks.txt"
done
bash "$root/scripts/swe-tasks.sh" "$corpus" "$work/suite" "$work/tasks.txt" >/dev/null
echo "time-to-green over $(wc -l <"$work/tasks.txt") tasks built offline from $corpus: $tasks"
GREENLIGHT_HOME=${GREENLIGHT_HOME:-$work/home} bash "$root/scripts/swe-bench-loop.sh" "$work/suite/gold"
