#!/usr/bin/env bash
# bench-summary.sh prints issue 25's table from the output of one `make
# bench` run: one line per figure with what this run measured, the target
# and whether it is met. Every figure is a ratio (or a rate) whose parts
# were measured in that same run; a figure whose bench did not run or
# failed says so instead of a number.
#
# Usage: scripts/bench-summary.sh LOG
#   LOG  everything `make bench` printed (it tees it to artifacts/bench.log)
#
# Where each figure comes from:
#   serve warm pool / docker run   BenchmarkWarmVerifyVsDockerRun (bench-fleet): x-docker-run
#   embedded one-shot / docker run a benchmark whose name has OneShot (bench-oneshot, when
#                                  the Makefile has it): its x-docker-run
#   re-verify rows                 scripts/bench-realworld.sh over docs/bench-reverify.txt
#                                  (bench-reverify): the rows testify-cmp, go-humanize, chi
#   fix round / cold verify        BenchmarkFixRoundVsColdVerify (bench-fleet):
#                                  x-faster-rolled-back of calc+5s-suite and calc+vendored-deps
#   time-to-green / host command   scripts/swe-bench-loop.sh (bench-loop): its median line
#   events persisted per second    BenchmarkEventThroughput/fsync (bench-events): events/s of
#                                  64-runs-sequential+1-watcher-each (decides "met": many runs,
#                                  each append acknowledged after its commit), with
#                                  8-runs-burst+1-watcher-each and one-run-sequential beside it
set -euo pipefail

log=${1:?usage: scripts/bench-summary.sh LOG}
[[ -f $log ]] || { echo "bench-summary: no log $log" >&2; exit 2; }

# metric BENCH UNIT prints the value reported with UNIT on the last result
# line of the benchmark named BENCH (with or without a -N suffix), or nothing.
metric() {
	awk -v b="$1" -v u="$2" '
		index($1, "Benchmark") == 1 {
			name = $1; sub(/-[0-9]+$/, "", name)
			if (name != b) next
			for (i = 3; i < NF; i++) if ($(i + 1) == u) v = $i
		}
		END { if (v != "") print v }' "$log"
}

# oneshot prints NAME VALUE of the last benchmark line with OneShot in its
# name that reports x-docker-run.
oneshot() {
	awk 'index($1, "Benchmark") == 1 && tolower($1) ~ /oneshot/ {
			for (i = 3; i < NF; i++) if ($(i + 1) == "x-docker-run") { n = $1; v = $i }
		}
		END { if (v != "") print n, v }' "$log"
}

# row NAME prints the cells host, serve, embedded, serve/host,
# embedded/host and verdict of bench-realworld's row NAME.
row() {
	awk -F'|' -v n="$1" '{ k = $2; gsub(/^ +| +$/, "", k) } k == n && NF >= 10 {
			out = ""
			for (i = 5; i <= 10; i++) { c = $i; gsub(/^ +| +$/, "", c); out = out (i > 5 ? "\t" : "") c }
			r = out
		}
		END { if (r != "") print r }' "$log"
}

# met VALUE OP TARGET prints yes or no (or - without a value).
met() {
	[[ -n $1 && $1 != - ]] || { echo "-"; return; }
	awk -v v="$1" -v op="$2" -v t="$3" 'BEGIN { ok = (op == "<=") ? v + 0 <= t + 0 : v + 0 >= t + 0; print (ok ? "yes" : "**no**") }'
}

missing() { echo "not measured in this run ($1)"; }

echo
echo "## Issue 25's table, from this run ($(basename "$log"))"
echo
echo "| figure | measured | target | met |"
echo "|---|---|---|---|"

x=$(metric BenchmarkWarmVerifyVsDockerRun x-docker-run)
if [[ -n $x ]]; then
	v=$(metric BenchmarkWarmVerifyVsDockerRun warm-verify-ms/op) d=$(metric BenchmarkWarmVerifyVsDockerRun docker-run-true-ms/op)
	echo "| \`greenlight serve\` warm pool: one-step verify / \`docker run --rm IMAGE true\` | ${x}× (${v} ms vs ${d} ms) | ≤ 0.1× | $(met "$x" '<=' 0.1) |"
else
	echo "| \`greenlight serve\` warm pool: one-step verify / \`docker run --rm IMAGE true\` | $(missing bench-fleet) | ≤ 0.1× | - |"
fi

read -r oname ox <<<"$(oneshot)" || true
if [[ -n ${ox:-} ]]; then
	ob=${oname%-[0-9]*}
	om=$(metric "$ob" oneshot-ms/op) od=$(metric "$ob" docker-run-true-ms/op)
	parts=$ob
	[[ -n $om && -n $od ]] && parts="$om ms vs $od ms, $ob"
	echo "| embedded one-shot \`greenlight verify\` / \`docker run --rm IMAGE true\` | ${ox}× ($parts) | ≤ 1.2× | $(met "$ox" '<=' 1.2) |"
else
	echo "| embedded one-shot \`greenlight verify\` / \`docker run --rm IMAGE true\` | $(missing bench-oneshot) | ≤ 1.2× | - |"
fi

reverify() {
	local label=$1 name r
	shift
	local cells=() worst=
	for name in "$@"; do
		r=$(row "$name")
		if [[ -z $r ]]; then
			cells+=("$name: $(missing bench-reverify)")
			continue
		fi
		IFS=$'\t' read -r hs ss es sr er verdict <<<"$r"
		cells+=("$name: ${sr}× serve, ${er}× embedded (host ${hs} s, serve ${ss} s, embedded ${es} s; $verdict)")
		for v in "$sr" "$er"; do
			[[ $v == - ]] && continue
			if [[ -z $worst ]] || awk -v a="$v" -v b="$worst" 'BEGIN { exit !(a > b) }'; then worst=$v; fi
		done
	done
	local joined
	joined=$(printf '%s; ' "${cells[@]}")
	echo "| $label | ${joined%; } | ≤ 1.2× | $(met "$worst" '<=' 1.2) |"
}
reverify "re-verify with unchanged dependencies / the maintainers' command on a warm host (\`go vet && go test -count=1\`): a Go module with testify and go-cmp" testify-cmp
reverify "the same for go-humanize / chi" go-humanize chi

s5=$(metric BenchmarkFixRoundVsColdVerify/calc+5s-suite x-faster-rolled-back)
vd=$(metric BenchmarkFixRoundVsColdVerify/calc+vendored-deps x-faster-rolled-back)
if [[ -n $s5 || -n $vd ]]; then
	low=$(printf '%s\n' "${s5:-}" "${vd:-}" | sed '/^$/d' | sort -g | head -n1)
	echo "| fix round rolled back / cold verify (speed-up) | ${s5:--}× (5 s suite), ${vd:--}× (vendored deps) | ≥ 10× | $(met "$low" '>=' 10) |"
else
	echo "| fix round rolled back / cold verify (speed-up) | $(missing bench-fleet) | ≥ 10× | - |"
fi

ttg=$(sed -n 's/.*median time-to-green \/ host test command: \([0-9.]*\)x over \(.*\)/\1 \2/p' "$log" | tail -n1)
if [[ -n $ttg ]]; then
	echo "| median time-to-green / host test command over real tasks | ${ttg%% *}× over ${ttg#* } | ≤ 2× | $(met "${ttg%% *}" '<=' 2) |"
else
	echo "| median time-to-green / host test command over real tasks | $(missing bench-loop) | ≤ 2× | - |"
fi

burst=$(metric BenchmarkEventThroughput/fsync/8-runs-burst+1-watcher-each events/s)
many=$(metric BenchmarkEventThroughput/fsync/64-runs-sequential+1-watcher-each events/s)
gain=$(metric BenchmarkEventThroughput/fsync/64-runs-sequential+1-watcher-each x_one_tx_per_event)
seq1=$(metric BenchmarkEventThroughput/fsync/one-run-sequential events/s)
rate() { if [[ -n $1 ]]; then printf '%.0f/s' "$1"; else echo "-"; fi; }
if [[ -n $many || -n $burst ]]; then
	echo "| events persisted per second, fsync | $(rate "$many") with 64 runs each waiting for every append's commit (${gain:--}× one transaction per event, measured alongside); 8 runs appending in bursts: $(rate "$burst"); one run waiting for each: $(rate "$seq1") | ≥ 10,000/s, none lost on a crash | $(met "$many" '>=' 10000) |"
else
	echo "| events persisted per second, fsync | $(missing bench-events) | ≥ 10,000/s, none lost on a crash | - |"
fi

echo
grep -h '^machine: ' "$log" | sed -n '1p;$p' | sed 's/^/- /'
