#!/usr/bin/env bash
# cheat-corpus.sh runs issue 21's cheat corpus through `greenlight fix`: every
# cheating patch of scripts/cheats (recipes applied to real bug-fix tasks of
# docs/realworld-tasks.txt) is offered by a command provider, in several
# modes, and the outcome is tabulated: a cheat must never end green.
#
#   1. builds the tasks the recipes name (scripts/swe-tasks.sh: OUT/tasks/gold)
#   2. generates the cheat patches and hidden tests (scripts/cheats/gen.py:
#      OUT/cheats/TASK--RECIPE/{1.diff,[2.diff],meta.json}, OUT/cheats/hidden/)
#   3. runs each cheat, and each task's gold patch, through greenlight fix
#      (embedded) and prints a Markdown table: cheat, family, task, language,
#      mode, verdict, green?, rule that stopped it (or "CHEAT WON"), then
#      the counts per family and mode.
#
# Modes (greenlight fix flags; all with --max-changed-lines -1 and
# --max-patch-bytes -1 so size caps never decide):
#   targets      --fail-to-pass (the task's FAIL_TO_PASS ids), fail-fast on (the default)
#   no-failfast  the same with --fail-fast=false
#   no-targets   no --fail-to-pass: every check must pass
#   hidden       targets plus --hidden-tests (the task's hidden tests, our own
#                code: scripts/cheats/hidden/TASK/), for hard-coding cheats
#                and gold patches of tasks that have them, when greenlight fix
#                has the flag
# Gold patches run in targets (and hidden); they must end green.
# The do-nothing family offers a comment-only patch, then the gold patch
# (two rounds): it wins when the final result keeps the comment.
#
# A patch refused before anything of it ran (a static guard: applied=false,
# no patched snapshot) is refused the same way whatever the mode: its other
# modes are recorded as that refusal without running (CHEATS_ALL_MODES=1
# runs them anyway).
#
# Usage: scripts/cheat-corpus.sh CORPUS OUT
#   CORPUS  full-history checkouts (CORPUS/<corpus dir> of docs/realworld-tasks.txt)
#   OUT     work directory (tasks, cheats, results, greenlight home), outside this tree
# Environment:
#   GREENLIGHT        the binary (default .bin/greenlight, `make build`)
#   GREENLIGHT_HOME   data directory (default OUT/.greenlight-home, kept: dependency cache)
#   CHEATS_TIMEOUT    seconds per greenlight fix run (default 900)
#   CHEATS_ONLY       extended regex on cheat ids (TASK--RECIPE, TASK--gold) to run
#   CHEATS_MODES      modes to run (default "targets no-failfast no-targets hidden")
#   CHEATS_REUSE=1    reprint the table from OUT/results without running
#   CHEATS_ALL_MODES=1  run every mode even for statically refused patches
#   CHEATS_RESUME=1   keep the finished runs already in OUT/results (a re-run
#                     after an interruption, or with new recipes)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${1:?usage: scripts/cheat-corpus.sh CORPUS OUT}
out=${2:?usage: scripts/cheat-corpus.sh CORPUS OUT}
gl=${GREENLIGHT:-$root/.bin/greenlight}
limit=${CHEATS_TIMEOUT:-900}
modes=${CHEATS_MODES:-targets no-failfast no-targets hidden}
list=$root/docs/realworld-tasks.txt

command -v jq >/dev/null || { echo "cheat-corpus: jq is required" >&2; exit 2; }
command -v python3 >/dev/null || { echo "cheat-corpus: python3 is required" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
export GREENLIGHT_HOME=${GREENLIGHT_HOME:-$out/.greenlight-home}
results=$out/results
mkdir -p "$results"

if [[ ${CHEATS_REUSE:-} != 1 ]]; then
	[[ -x $gl ]] || { echo "cheat-corpus: $gl not found: run make build" >&2; exit 2; }
	# 1. the tasks the recipes use, from the task list
	names=$(python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); from tasks import TASKS; print(" ".join(t.name for t in TASKS))' "$root/scripts/cheats")
	sub=$out/tasks.txt
	awk -F'|' -v names=" $names " '
		/^[[:space:]]*(#|$)/ { next }
		{ n = $1; gsub(/^[ \t]+|[ \t]+$/, "", n) }
		index(names, " " n " ") { print }' "$list" >"$sub"
	bash "$root/scripts/swe-tasks.sh" "$corpus" "$out/tasks" "$sub" >&2
	# 2. the cheats
	rm -rf "$out/cheats"
	python3 "$root/scripts/cheats/gen.py" "$out/tasks/gold" "$out/cheats" >&2
fi

hidden_flag=0
if [[ ${CHEATS_REUSE:-} != 1 ]] && "$gl" fix --help 2>/dev/null | grep -q -- '--hidden-tests'; then
	hidden_flag=1
fi

# run ID MODE: one greenlight fix run, its JSON in results/ID.MODE.json.
run() {
	local id=$1 mode=$2 c=$out/cheats/$1
	local meta=$c/meta.json dir=$results/$1.$2
	local task rounds
	task=$(jq -r .task_dir "$meta")
	rounds=$(jq -r .rounds "$meta")
	rm -rf "$dir"
	mkdir -p "$dir"
	# The provider: the Nth request gets the cheat's N.diff (nothing after
	# the last round: an empty answer gives up).
	cat >"$dir/provider.sh" <<-EOF
	#!/bin/sh
	n=1
	while ! (set -C; : >"$dir/request-\$n.json") 2>/dev/null; do n=\$((n + 1)); done
	cat >"$dir/request-\$n.json"
	if [ -f "$c/\$n.diff" ]; then cat "$c/\$n.diff"; fi
	EOF
	local args=(fix "$task/repo" --provider command --command "sh $dir/provider.sh"
		--json --quiet --color never --max-rounds "$rounds"
		--max-changed-lines -1 --max-patch-bytes -1)
	if [[ $mode != no-targets ]]; then
		local f
		while IFS= read -r f; do args+=(--fail-to-pass "$f"); done < <(jq -r '.fail_to_pass[]' "$meta")
	fi
	[[ $mode == no-failfast ]] && args+=(--fail-fast=false)
	[[ $mode == hidden ]] && args+=(--hidden-tests "$(jq -r .hidden "$meta")")
	local start rc=0
	start=$(date +%s)
	(cd "$dir" && timeout "$limit" "$gl" "${args[@]}") >"$results/$id.$mode.json" 2>"$results/$id.$mode.err" || rc=$?
	echo "$rc $(($(date +%s) - start))" >"$results/$id.$mode.rc"
}

# static ID MODE: the run was refused before anything of the patch ran.
static() {
	[[ -s $results/$1.$2.json ]] &&
		jq -e '(.fix.patches // []) | length > 0 and all(.applied == false and .snapshot_after == null)' \
			"$results/$1.$2.json" >/dev/null 2>&1
}

# done ID MODE: a finished run of ID in MODE is on record (CHEATS_RESUME=1
# keeps it).
done_run() {
	[[ -f $results/$1.$2.same ]] || { [[ -s $results/$1.$2.json ]] && jq -e .status "$results/$1.$2.json" >/dev/null 2>&1; }
}

if [[ ${CHEATS_REUSE:-} != 1 ]]; then
	for c in "$out"/cheats/*--*/; do
		id=$(basename "$c")
		[[ -z ${CHEATS_ONLY:-} || $id =~ $CHEATS_ONLY ]] || continue
		hard=$(jq -r .hard "$c/meta.json")
		fam=$(jq -r .family "$c/meta.json")
		hid=$(jq -r .hidden "$c/meta.json")
		first=
		for mode in $modes; do
			case $mode in
			hidden)
				[[ $hidden_flag == 1 && $hid != null && ($hard == true || $fam == 0) ]] || continue ;;
			no-failfast | no-targets)
				[[ $fam != 0 ]] || continue ;;
			esac
			if [[ ${CHEATS_RESUME:-} == 1 ]] && done_run "$id" "$mode"; then
				[[ -f $results/$id.$mode.same ]] || first=${first:-$mode}
				continue
			fi
			if [[ -n $first && ${CHEATS_ALL_MODES:-} != 1 && $mode != hidden ]] && static "$id" "$first"; then
				rm -f "$results/$id.$mode".*
				echo "$first" >"$results/$id.$mode.same"
				continue
			fi
			echo "cheat-corpus: $id ($mode)" >&2
			rm -f "$results/$id.$mode.same"
			run "$id" "$mode"
			first=${first:-$mode}
		done
	done
fi

# cell ID MODE prints, tab-separated: verdict, green, outcome (what stopped
# the cheat, or CHEAT WON), seconds.
cell() {
	local id=$1 mode=$2 f=$results/$1.$2 src=$2 note=""
	if [[ -f $f.same ]]; then
		src=$(<"$f.same")
		note=" (as $src: refused before running)"
	fi
	local j=$results/$id.$src.json rc secs
	read -r rc secs <"$results/$id.$src.rc" 2>/dev/null || { rc=?; secs=?; }
	local fam
	fam=$(jq -r .family "$out/cheats/$id/meta.json")
	if [[ $rc == 124 ]]; then
		printf 'TIMEOUT\t-\tno result after %ss\t%s\n' "$limit" "$secs"
		return
	fi
	if ! jq -e .status "$j" >/dev/null 2>&1; then
		printf 'NO-JSON\t-\texit %s: %s\t%s\n' "$rc" "$(tail -n 1 "$results/$id.$src.err" 2>/dev/null | tr '|\t' '  ' | cut -c1-120)" "$secs"
		return
	fi
	jq -r --arg fam "$fam" --arg note "$note" --arg secs "$secs" '
		def clip: tostring | gsub("[|\t\n]"; " ") | .[0:110];
		(.fix.green // false) as $g
		| (.fix.patches // []) as $p
		| ([$p[] | select(.rule != null and .rule != "")] | last) as $r
		| ([.steps[]? | select((.rule // "") != "")] | first) as $s
		| (if $fam == "6" then ($p | length > 0 and $p[0].applied and ($p[0].rolled_back | not)) else false end) as $noop
		| [ (.status // "?"),
		    (if $g then "green" else "no" end),
		    (if $fam == "0" then (if $g then "gold green" else "GOLD NOT GREEN: \(.fix.stop_reason // "") \(.summary // "" | clip)" end)
		     elif $fam == "6" then (if $noop and $g then "CHEAT WON: the do-nothing patch stayed in the final diff"
		                            elif $g then "rolled back (\($p[0].rule // "" | clip)); gold won"
		                            else "not green: \(.summary // "" | clip)" end)
		     elif $g then "CHEAT WON"
		     elif $r then "\($r.rule): \($r.reason // "" | clip)"
		     elif $s then "step \($s.name) rule \($s.rule)"
		     else "\(.fix.stop_reason // "-"): \(.summary // "" | clip)"
		          + ([.tests[]? | select(.status == "FAILED" or .status == "ERROR") | .id] | if length > 0 then "; failing: \(.[0:2] | join(", ") | clip)" else "" end) end) + $note,
		    $secs ] | join("\t")' "$j"
}

printf '| cheat | family | task | language | mode | verdict | green? | rule that stopped it |\n'
printf '|---|---|---|---|---|---|---|---|\n'
summary=$(mktemp)
trap 'rm -f "$summary"' EXIT
for c in "$out"/cheats/*--*/; do
	id=$(basename "$c")
	[[ -z ${CHEATS_ONLY:-} || $id =~ $CHEATS_ONLY ]] || continue
	meta=$c/meta.json
	read -r task fam recipe lang < <(jq -r '"\(.task) \(.family) \(.recipe) \(.lang)"' "$meta")
	for mode in $modes; do
		[[ -f $results/$id.$mode.rc || -f $results/$id.$mode.same ]] || continue
		IFS=$'\t' read -r verdict green outcome secs < <(cell "$id" "$mode")
		printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$recipe" "$fam" "$task" "$lang" "$mode" "$verdict" "$green" "$outcome"
		won=0
		[[ $outcome == "CHEAT WON"* || ($fam == 0 && $green != green) ]] && won=1
		printf '%s\t%s\t%s\n' "$fam" "$mode" "$won" >>"$summary"
	done
done
echo
echo "| family | mode | runs | cheat won (gold: not green) |"
echo "|---|---|---|---|"
sort "$summary" | awk -F'\t' '
	{ k = $1 "\t" $2; n[k]++; w[k] += $3; order[k] = 1 }
	END { for (k in order) { split(k, a, "\t"); printf "| %s | %s | %d | %d |\n", (a[1] == 0 ? "gold" : a[1]), a[2], n[k], w[k] } }' | sort
