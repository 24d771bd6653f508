#!/usr/bin/env bash
# swe-coverage.sh measures how well the code windows of greenlight's first
# patch request point at the real fix, over a suite built by
# scripts/swe-tasks.sh and run with greenlight eval (the tasks' provider.sh
# saved each request as request-N.json in its task directory).
#
# Per task it reads request-1.json (PatchRequest JSON: .windows[] with
# file, startLine/endLine or start_line/end_line) and gold.diff, takes the
# gold patch's changed lines (old-file numbers of removed lines; for a
# block of pure additions, the old-file line it follows) and counts those
# inside some window of the same file. Then the share of tasks whose
# windows hold at least one changed line, and of those holding >= 60%.
#
# Usage: scripts/swe-coverage.sh SUITE      (e.g. /work/swe-tasks/gold)
set -euo pipefail

suite=${1:?usage: scripts/swe-coverage.sh SUITE}
command -v jq >/dev/null || { echo "swe-coverage: jq is required" >&2; exit 2; }

# changed_lines GOLD prints `file<TAB>line` per changed line of a git diff.
changed_lines() {
	awk '
		# flush ends a block of changed lines: pure additions count as the
		# old line they follow (at least 1).
		function flush() { if (adds && !dels) print file "\t" (old > 1 ? old - 1 : 1); adds = dels = 0 }
		# Inside a hunk (until the line counts of its header are used up) a line is
		# content, even one that starts with "---".
		ro + rn > 0 && /^-/ { print file "\t" old; old++; dels++; ro--; next }
		ro + rn > 0 && /^\+/ { adds++; rn--; next }
		ro + rn > 0 && /^ / { flush(); old++; ro--; rn--; next }
		/^\+\+\+ / { flush(); file = substr($0, 5); sub(/^b\//, "", file); next }
		/^@@ / {
			flush(); split(substr($2, 2), o, ","); split(substr($3, 2), w, ",")
			old = o[1] + 0; ro = (2 in o) ? o[2] + 0 : 1; rn = (2 in w) ? w[2] + 0 : 1; next }
		{ flush() }
		END { flush() }' "$1"
}

# windows REQUEST prints `file<TAB>start<TAB>end` per code window.
windows() {
	jq -r '(.windows // [])[] | [(.file // ""), (.startLine // .start_line // 0), (.endLine // .end_line // 0)] | @tsv' "$1"
}

tasks=0 any=0 most=0
printf '%-28s %8s %8s %8s  %s\n' task changed covered windows note
for dir in "$suite"/*/; do
	name=$(basename "$dir")
	[[ -f $dir/gold.diff ]] || continue
	tasks=$((tasks + 1))
	if [[ ! -f $dir/request-1.json ]]; then
		printf '%-28s %8s %8s %8s  %s\n' "$name" - - - "no request-1.json (run greenlight eval first)"
		continue
	fi
	nwin=$(windows "$dir/request-1.json" | wc -l)
	# A changed line is covered when a window of the same file (paths
	# compared without ./, or one a /-suffix of the other) spans it.
	read -r changed covered < <(
		awk -F'\t' '
			function norm(p) { sub(/^\.\//, "", p); return p }
			function same(a, b) { a = norm(a); b = norm(b)
				return a == b || substr(a, length(a) - length(b)) == "/" b || substr(b, length(b) - length(a)) == "/" a }
			FNR == NR { wf[++n] = $1; ws[n] = $2; we[n] = $3; next }
			{ total++
			  for (i = 1; i <= n; i++) if (same(wf[i], $1) && $2 >= ws[i] && $2 <= we[i]) { hit++; break } }
			END { print total + 0, hit + 0 }' <(windows "$dir/request-1.json") <(changed_lines "$dir/gold.diff"))
	((covered > 0)) && any=$((any + 1))
	((changed > 0 && covered * 100 >= changed * 60)) && most=$((most + 1))
	printf '%-28s %8d %8d %8d\n' "$name" "$changed" "$covered" "$nwin"
done
((tasks > 0)) || { echo "swe-coverage: no task directories with gold.diff in $suite" >&2; exit 2; }
awk -v t="$tasks" -v a="$any" -v m="$most" 'BEGIN {
	printf "tasks: %d\nwindows cover >= 1 changed line: %d/%d = %.2f\nwindows cover >= 60%% of changed lines: %d/%d = %.2f\n", t, a, t, a / t, m, t, m / t }'
