#!/usr/bin/env bash
# realworld.sh runs `greenlight verify --json` (embedded mode) over every
# checkout directory of CORPUS and prints a Markdown table: repository,
# commit, expected verdict (from the corpus list), greenlight's verdict, test
# counts, duration and the first failing step. With REALWORLD_HOST=1 it also
# runs each repository's own test command on the host (where the toolchain
# exists) and adds its verdict.
#
# Usage: scripts/realworld.sh CORPUS [LIST]
#   CORPUS  directory of git checkouts (one per repository, never in this tree)
#   LIST    corpus list (default docs/realworld-corpus.txt): lines
#           `name | url | commit | test command | expected verdict [| note]`
# Environment:
#   GREENLIGHT          the binary (default .bin/greenlight, `make build`)
#   GREENLIGHT_HOME     data directory of embedded mode (default CORPUS/.greenlight-home,
#                       kept between runs so the dependency cache is reused)
#   REALWORLD_TIMEOUT   seconds per repository (default 900)
#   REALWORLD_OUT       where the JSON results go (default CORPUS/.realworld)
#   REALWORLD_ONLY      space-separated names to run (default: every checkout)
#   REALWORLD_HOST=1    also run the maintainers' test command on the host
#   REALWORLD_REUSE=1   reprint the table from the JSON results of an earlier run
#   REALWORLD_ARGS      extra `greenlight verify` arguments (default --rerun-failed:
#                       a CI runner is a quiet machine, this one is shared, so a
#                       timing test that failed under load gets its step's one
#                       identical re-run, docs/trust.md row 43; set it empty to
#                       measure without)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${1:?usage: scripts/realworld.sh CORPUS [LIST]}
list=${2:-$root/docs/realworld-corpus.txt}
gl=${GREENLIGHT:-$root/.bin/greenlight}
limit=${REALWORLD_TIMEOUT:-900}
corpus=$(cd "$corpus" && pwd)
out=${REALWORLD_OUT:-$corpus/.realworld}
export GREENLIGHT_HOME=${GREENLIGHT_HOME:-$corpus/.greenlight-home}

[[ -x $gl ]] || { echo "realworld: $gl not found: run make build" >&2; exit 2; }
command -v jq >/dev/null || { echo "realworld: jq is required" >&2; exit 2; }
mkdir -p "$out"

# field NAME INDEX prints field INDEX (1-based, `|`-separated, trimmed) of
# NAME's line in the corpus list, or nothing.
field() {
	[[ -f $list ]] || return 0
	awk -F'|' -v n="$1" -v i="$2" '
		/^[[:space:]]*(#|$)/ { next }
		{ k = $1; gsub(/^[ \t]+|[ \t]+$/, "", k) }
		k == n { v = $i; gsub(/^[ \t]+|[ \t]+$/, "", v); print v; exit }' "$list"
}

# host runs the maintainers' test command in DIR and prints PASS or FAIL.
host() {
	local dir=$1 cmd=$2
	[[ -n $cmd ]] || { echo "-"; return; }
	if (cd "$dir" && timeout "$limit" bash -c "$cmd") >"$out/$name.host.log" 2>&1; then
		echo PASS
	else
		echo FAIL
	fi
}

# summarize prints, tab-separated, the verdict, the counts, the first
# failing step and the summary of one greenlight JSON result.
summarize() {
	jq -r '
		def cell: tostring | gsub("[|\t\n]"; " ") | .[0:160];
		(.counts // {}) as $c
		| ([.steps[]? | select(.status != "OK" and .status != "SKIPPED")] | first) as $f
		| [ (.status // "?"),
		    "\($c.passed // 0)/\($c.failed // 0)/\($c.skipped // 0) \($c.format // "-")\(if $c.incomplete then " INCOMPLETE" else "" end)",
		    (if $f then "\($f.name) (\($f.status))" else "-" end),
		    ((.summary // "") | cell) ]
		| join("\t")' "$1"
}

echo "| repository | commit | expected | greenlight | match | passed/failed/skipped | seconds | first failing step | summary |"
echo "|---|---|---|---|---|---|---|---|---|"
for dir in "$corpus"/*/; do
	dir=${dir%/}
	name=$(basename "$dir")
	[[ -d $dir/.git ]] || continue
	if [[ -n ${REALWORLD_ONLY:-} && " $REALWORLD_ONLY " != *" $name "* ]]; then
		continue
	fi
	commit=$(git -C "$dir" rev-parse --short=12 HEAD)
	expected=$(field "$name" 5)
	rc=0
	if [[ ${REALWORLD_REUSE:-} == 1 && -f $out/$name.secs ]]; then
		secs=$(<"$out/$name.secs")
	else
		start=$(date +%s)
		# shellcheck disable=SC2086 # REALWORLD_ARGS is a word list
		timeout "$limit" "$gl" verify --json --quiet --color never --commit "$commit" ${REALWORLD_ARGS---rerun-failed} "$dir" \
			>"$out/$name.json" 2>"$out/$name.err" || rc=$?
		secs=$(($(date +%s) - start))
		echo "$secs" >"$out/$name.secs"
	fi
	if [[ $rc == 124 ]] || [[ ! -s $out/$name.json && $secs -ge $limit ]]; then
		line=$(printf 'TIMEOUT\t-\t-\tno result after %ss' "$limit")
	elif [[ ! -s $out/$name.json ]] || ! jq -e .status "$out/$name.json" >/dev/null 2>&1; then
		line=$(printf 'NO-JSON\t-\t-\texit %s: %s' "$rc" "$(tail -n1 "$out/$name.err" | tr '|\t' '  ' | cut -c1-160)")
	else
		line=$(summarize "$out/$name.json")
	fi
	IFS=$'\t' read -r verdict counts failing summary <<<"$line"
	match="-"
	if [[ -n $expected ]]; then
		if [[ $verdict == "$expected" ]]; then match=yes; else match=NO; fi
	fi
	if [[ ${REALWORLD_HOST:-} == 1 ]]; then
		match="$match (host $(host "$dir" "$(field "$name" 4)"))"
	fi
	echo "| $name | $commit | ${expected:--} | $verdict | $match | $counts | $secs | $failing | $summary |"
done
