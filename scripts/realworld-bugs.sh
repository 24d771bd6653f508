#!/usr/bin/env bash
# realworld-bugs.sh injects one one-line bug per repository of the
# real-world corpus and checks that greenlight's verdict turns FAIL naming a
# failing test and a file:line. Each bug is a literal replacement on one line
# of one file (docs/realworld-bugs.txt); the checkout is copied first, never
# changed. Prints a Markdown table.
#
# Usage: scripts/realworld-bugs.sh CORPUS [BUGS]
#   CORPUS  directory of git checkouts (see docs/realworld.md)
#   BUGS    bug list (default docs/realworld-bugs.txt): lines
#           `name | file | line | from | to`
# Environment: GREENLIGHT, GREENLIGHT_HOME, REALWORLD_TIMEOUT, REALWORLD_OUT,
# REALWORLD_ONLY as for scripts/realworld.sh (results go to OUT/bugs/).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${1:?usage: scripts/realworld-bugs.sh CORPUS [BUGS]}
bugs=${2:-$root/docs/realworld-bugs.txt}
gl=${GREENLIGHT:-$root/.bin/greenlight}
limit=${REALWORLD_TIMEOUT:-900}
corpus=$(cd "$corpus" && pwd)
out=${REALWORLD_OUT:-$corpus/.realworld}/bugs
export GREENLIGHT_HOME=${GREENLIGHT_HOME:-$corpus/.greenlight-home}

[[ -x $gl ]] || { echo "realworld-bugs: $gl not found: run make build" >&2; exit 2; }
[[ -f $bugs ]] || { echo "realworld-bugs: no bug list $bugs" >&2; exit 2; }
command -v jq >/dev/null || { echo "realworld-bugs: jq is required" >&2; exit 2; }
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# inject FILE LINE FROM TO replaces the first literal FROM on line LINE of
# FILE with TO; it fails when FROM is not on that line.
inject() {
	FROM=$3 TO=$4 awk -v n="$2" '
		NR == n { i = index($0, ENVIRON["FROM"]); if (i == 0) exit 3
		          $0 = substr($0, 1, i - 1) ENVIRON["TO"] substr($0, i + length(ENVIRON["FROM"])); hit = 1 }
		{ print }
		END { if (!hit) exit 3 }' "$1" >"$1.bug" && mv "$1.bug" "$1"
}

# first_failure prints, tab-separated, the verdict, the first failure's test
# (preferring one placed at a line: a C driver names some failed programs
# by file only) and its file:line from a greenlight JSON result.
first_failure() {
	jq -r '
		# The first failing test placed at a line, else the first one.
		([.failures[]? | select((.test // "") != "")] | (map(select((.line // 0) > 0)) + .) | first) as $f
		| [ (.status // "?"),
		    ($f.test // "-"),
		    (if ($f.file // "") == "" then "-" elif ($f.line // 0) > 0 then "\($f.file):\($f.line)" else $f.file end),
		    "\(.counts.failed // 0)/\(.counts.total // 0)" ]
		| join("\t")' "$1"
}

echo "| repository | injected bug | greenlight | first failing test | at | failed/total | ok |"
echo "|---|---|---|---|---|---|---|"
grep -v '^[[:space:]]*\(#\|$\)' "$bugs" | while IFS='|' read -r name file line from to; do
	name=$(echo $name) file=$(echo $file) line=$(echo $line)
	from=$(sed 's/^ //; s/ $//' <<<"$from") to=$(sed 's/^ //; s/ $//' <<<"$to")
	[[ -d $corpus/$name/.git ]] || continue
	if [[ -n ${REALWORLD_ONLY:-} && " $REALWORLD_ONLY " != *" $name "* ]]; then
		continue
	fi
	copy=$work/$name
	rm -rf "$copy" && cp -a "$corpus/$name" "$copy"
	bug="\`$file:$line\` \`$from\` → \`$to\`"
	if ! inject "$copy/$file" "$line" "$from" "$to"; then
		echo "| $name | $bug | NOT-APPLIED | - | - | - | NO |"
		continue
	fi
	rc=0
	timeout "$limit" "$gl" verify --json --quiet --color never "$copy" \
		>"$out/$name.json" 2>"$out/$name.err" || rc=$?
	rm -rf "$copy"
	# jq 1.6 -e succeeds on an empty file: test for content first.
	if [[ ! -s $out/$name.json ]] || ! jq -e .status "$out/$name.json" >/dev/null 2>&1; then
		echo "| $name | $bug | NO-JSON (exit $rc) | - | - | - | NO |"
		continue
	fi
	IFS=$'\t' read -r verdict test at counts <<<"$(first_failure "$out/$name.json")"
	ok=NO
	[[ $verdict == FAIL && $test != - && $at != - ]] && ok=yes
	echo "| $name | $bug | $verdict | \`$test\` | $at | $counts | $ok |"
done
