#!/usr/bin/env bash
# swe-bench-loop.sh measures, for every task of a suite built by
# scripts/swe-tasks.sh, greenlight's time-to-green with the gold patch
# against the plain host test command on the gold-patched tree, both in
# this run (these machines are shared and noisy: only ratios measured
# together mean something). It prints a Markdown table and the medians.
#
# Usage: scripts/swe-bench-loop.sh SUITE
#   SUITE  OUT/gold of scripts/swe-tasks.sh (task dirs with repo/ and gold.diff)
# Environment:
#   GREENLIGHT       the binary (default .bin/greenlight, `make build`)
#   GREENLIGHT_HOME  embedded data directory (default SUITE/.greenlight-home)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
suite=$(cd "${1:?usage: scripts/swe-bench-loop.sh SUITE}" && pwd)
gl=${GREENLIGHT:-$root/.bin/greenlight}
export GREENLIGHT_HOME=${GREENLIGHT_HOME:-$suite/.greenlight-home}
[[ -x $gl ]] || { echo "swe-bench-loop: $gl not found: run make build" >&2; exit 2; }
command -v jq >/dev/null || { echo "swe-bench-loop: jq is required" >&2; exit 2; }

# host_seconds DIR prints how long the project's own test command takes on
# a copy of DIR/repo with DIR/gold.diff applied.
host_seconds() {
	local work
	work=$(mktemp -d)
	cp -a "$1/repo/." "$work/"
	(cd "$work" && patch -s -p1 <"$1/gold.diff")
	local start end
	start=$(date +%s.%N)
	if [[ -f $work/go.mod ]]; then
		(cd "$work" && go test -count=1 ./... >/dev/null 2>&1) || true
	else
		(cd "$work" && python3 -m pytest -q -p no:cacheprovider >/dev/null 2>&1) || true
	fi
	end=$(date +%s.%N)
	rm -rf "$work"
	awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }'
}

report=$(mktemp)
"$gl" eval "$suite" --json >"$report"

printf '| task | host test command (s) | greenlight time-to-green (s) | ratio |\n|---|---|---|---|\n'
ratios=()
for dir in "$suite"/*/; do
	name=$(basename "$dir")
	[[ -f $dir/task.yaml ]] || continue
	host=$(host_seconds "$dir")
	ttg=$(jq -r --arg n "$name" '.tasks[] | select(.name == $n) | .runs[0].time_to_green_seconds' "$report")
	green=$(jq -r --arg n "$name" '.tasks[] | select(.name == $n) | .runs[0].green' "$report")
	ratio="-"
	if [[ $green == true ]]; then
		ratio=$(awk -v a="$ttg" -v b="$host" 'BEGIN { printf "%.2f", a / b }')
		ratios+=("$ratio")
	fi
	printf '| %s | %.2f | %s | %s |\n' "$name" "$host" "$ttg" "$ratio"
done
if ((${#ratios[@]} > 0)); then
	median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}')
	echo
	echo "pass@1 $(jq .pass_at_1 "$report"); median time-to-green / host test command: ${median}x over ${#ratios[@]} green tasks"
fi
rm -f "$report"
