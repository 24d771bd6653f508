#!/usr/bin/env bash
# swe-bench-loop.sh measures, for every task of a suite built by
# scripts/swe-tasks.sh, greenlight's time-to-green with the gold patch
# against the project's test command on a warm host on the gold-patched
# tree (see host_seconds), greenlight warm too (one untimed verification
# per task first), both in this run (these machines are shared and noisy: only ratios measured
# together mean something). It prints a Markdown table and the medians.
#
# Usage: scripts/swe-bench-loop.sh SUITE
#   SUITE  OUT/gold of scripts/swe-tasks.sh (task dirs with repo/ and gold.diff)
# Environment:
#   GREENLIGHT       the binary (default .bin/greenlight, `make build`)
#   GREENLIGHT_HOME  embedded data directory (default SUITE/.greenlight-home)
#   SWE_PYTHON_IMAGE the image of the Python host command (default
#                    greenlight/sandbox-python:latest)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
suite=$(cd "${1:?usage: scripts/swe-bench-loop.sh SUITE}" && pwd)
gl=${GREENLIGHT:-$root/.bin/greenlight}
export GREENLIGHT_HOME=${GREENLIGHT_HOME:-$suite/.greenlight-home}
python_image=${SWE_PYTHON_IMAGE:-greenlight/sandbox-python:latest}
[[ -x $gl ]] || { echo "swe-bench-loop: $gl not found: run make build" >&2; exit 2; }
command -v jq >/dev/null || { echo "swe-bench-loop: jq is required" >&2; exit 2; }

# host_seconds DIR prints how long the project's own test command takes on
# a warm host, on a copy of DIR/repo with DIR/gold.diff applied, followed
# by ok or FAIL. The warm host: the command runs once untimed (Go builds
# the patched tree into this machine's build cache, as a developer's
# machine has it), then once timed. Go: this machine's toolchain, `go vet
# ./... && go test -count=1 ./...` (what greenlight runs; -count=1 so the
# tests really run). Python: this machine has no pytest, so the image
# greenlight uses (SWE_PYTHON_IMAGE) in one container per task, the command
# timed inside it (without the container's start): `python3 -m pytest`
# when the task's FAIL_TO_PASS ids are pytest ids, else `python3 -m
# unittest`, with PYTHONPATH=src for a src layout.
host_seconds() {
	local work cmd ns
	work=$(mktemp -d)
	cp -a "$1/repo/." "$work/"
	(cd "$work" && patch -s -p1 <"$1/gold.diff")
	ns=$work/.host.ns
	# shellcheck disable=SC2016 # expanded where the command runs
	local timed='bash -c "$1" >/dev/null 2>&1; s=$(date +%s%N); bash -c "$1" >/dev/null 2>&1; rc=$?; echo "$(($(date +%s%N) - s)) $rc" >&3'
	if [[ -f $work/go.mod ]]; then
		cmd='go vet ./... && go test -count=1 ./...'
		(cd "$work" && bash -c "$timed" timed "$cmd" 3>"$ns")
	else
		cmd='python3 -m unittest'
		grep -q '::' "$1/task.yaml" && cmd='python3 -m pytest -q -p no:cacheprovider'
		[[ -d $work/src ]] && cmd="PYTHONPATH=src $cmd"
		chown -R 10001:10001 "$work"
		docker run --rm --network none -v "$work:/workspace" -w /workspace "$python_image" \
			bash -c "exec 3>/workspace/.host.ns; $timed" timed "$cmd" || true
	fi
	read -r ns rc <"$ns" || { ns=0 rc=-1; }
	rm -rf "$work"
	# exit 1 is a test that failed (six's test_move_items[_dummy_thread]
	# fails on Python 3.11 before and after its fix): the suite ran, the
	# time counts; anything else (a missing tool, a collection error) does not.
	awk -v ns="$ns" -v rc="$rc" 'BEGIN { printf "%.3f %s", ns / 1e9, (rc == 0 ? "ok" : rc == 1 ? "ran,failed" : "exit-" rc) }'
}

# greenlight's warm machine, like the host's: one untimed verification of
# each task's unpatched repository fills its dependency cache and warm
# build state (keyed by owner, image and manifests, which a gold patch
# leaves alone), as on a machine where the project was verified before.
# Without it the first verification of the eval builds cold (the Go
# standard library is in the image's seed; the module's packages and
# dependencies are not) while the host command runs warm.
for dir in "$suite"/*/; do
	[[ -f $dir/task.yaml ]] && { "$gl" verify --json "$dir/repo" >/dev/null 2>&1 || true; }
done
report=$(mktemp)
"$gl" eval "$suite" --json >"$report"

printf '| task | host test command (s) | host | greenlight time-to-green (s) | ratio |\n|---|---|---|---|---|\n'
ratios=()
for dir in "$suite"/*/; do
	name=$(basename "$dir")
	[[ -f $dir/task.yaml ]] || continue
	read -r host hostok <<<"$(host_seconds "$dir")"
	ttg=$(jq -r --arg n "$name" '.tasks[] | select(.name == $n) | .runs[0].time_to_green_seconds' "$report")
	green=$(jq -r --arg n "$name" '.tasks[] | select(.name == $n) | .runs[0].green' "$report")
	ratio="-"
	if [[ $green == true && ($hostok == ok || $hostok == ran,failed) ]]; then
		ratio=$(awk -v a="$ttg" -v b="$host" 'BEGIN { printf "%.2f", a / b }')
		ratios+=("$ratio")
	fi
	printf '| %s | %.2f | %s | %s | %s |\n' "$name" "$host" "$hostok" "$ttg" "$ratio"
done
if ((${#ratios[@]} > 0)); then
	median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}')
	echo
	echo "pass@1 $(jq .pass_at_1 "$report"); median time-to-green / host test command: ${median}x over ${#ratios[@]} green tasks whose host command ran"
fi
rm -f "$report"
