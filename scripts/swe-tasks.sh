#!/usr/bin/env bash
# swe-tasks.sh builds two SWE-bench-style eval suites from real bug-fix
# commits (docs/realworld-tasks.txt) of checkouts outside this tree:
#
#   OUT/gold/NAME/             the provider answers with the fix commit's own
#                              source diff (max_rounds: 1)
#   OUT/wrong-then-gold/NAME/  it first answers with a deliberately wrong
#                              patch, then with the gold one (max_rounds: 2)
#
# Each task directory holds
#   repo/         the fix commit's PARENT plus the fix commit's test changes
#                 (the "test_patch"), exported with git archive: no .git;
#                 with SWE_HIDDEN=1 the PARENT alone, and
#   hidden.diff   (SWE_HIDDEN=1) the test changes as the run's hidden tests
#                 (task.yaml hidden_tests, hidden_targets: FAIL_TO_PASS):
#                 the model never sees them, every candidate is graded with
#                 them (a task whose test changes hold binary files keeps
#                 them in repo/)
#   gold.diff     git diff PARENT FIX -- SOURCE FILES (the "gold patch")
#   wrong.diff    (wrong-then-gold only) a compile/syntax error inserted at
#                 the start of the function the gold patch changes first
#                 (diff -u of a modified copy): it breaks the build or the
#                 import of that file, so tests passing before fail
#   provider.sh   greenlight eval runs it in the task directory with the
#                 PatchRequest JSON on stdin: it saves the request as
#                 request-N.json and prints the patch
#   task.yaml     fail_to_pass from the list, max_changed_lines: -1
#
# The checkouts are only read (git archive, git diff); nothing is copied
# into this repository. Re-running replaces the task directories it builds.
#
# Usage: [SWE_HIDDEN=1] scripts/swe-tasks.sh CORPUS OUT [LIST]
#   CORPUS  directory of full-history git checkouts (CORPUS/<corpus dir>)
#   OUT     where the suites go (e.g. /work/swe-tasks)
#   LIST    task list (default docs/realworld-tasks.txt): lines
#           `name | corpus dir | fix sha | FAIL_TO_PASS ids | source files | description`
# Then: greenlight eval OUT/gold; greenlight eval OUT/wrong-then-gold;
#       scripts/swe-coverage.sh OUT/gold
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${1:?usage: scripts/swe-tasks.sh CORPUS OUT [LIST]}
out=${2:?usage: scripts/swe-tasks.sh CORPUS OUT [LIST]}
list=${3:-$root/docs/realworld-tasks.txt}
hidden=${SWE_HIDDEN:-0}
[[ -f $list ]] || { echo "swe-tasks: no task list $list" >&2; exit 2; }
command -v python3 >/dev/null || { echo "swe-tasks: python3 is required" >&2; exit 2; }
corpus=$(cd "$corpus" && pwd)
mkdir -p "$out/gold" "$out/wrong-then-gold"
out=$(cd "$out" && pwd)

# Test files: Go *_test.go and testdata/, Python tests/ (test/, testing/),
# test_*.py, *_test.py, conftest.py. Everything else the fix commit changes
# (docs, changelogs) is left out of both patches.
test_re='(_test\.go$|(^|/)testdata/|^tests?/|^testing/|(^|/)test_[^/]*\.py$|_test\.py$|(^|/)conftest\.py$)'

trim() { sed 's/^[[:space:]]*//; s/[[:space:]]*$//' <<<"$1"; }

# yaml_list prints a comma-separated list as a YAML block sequence of
# double-quoted strings (pytest ids hold ':' and '[').
yaml_list() {
	tr ',' '\n' <<<"$1" | while read -r id; do
		[[ -n $id ]] || continue
		id=${id//\\/\\\\}
		printf '  - "%s"\n' "${id//\"/\\\"}"
	done
}

# wrong_diff REPO GOLD prints the wrong patch: a line that cannot compile
# (Go: a string assigned to an int; Python: two bare words), inserted as
# the first statement of the function holding the gold patch's first
# changed line (at the end of the file when no function holds it);
# JavaScript: two bare words just before that line.
wrong_diff() {
	python3 - "$1" "$2" <<-'EOF'
	import ast, os, re, subprocess, sys, tempfile
	repo, gold = sys.argv[1], open(sys.argv[2]).read().splitlines()
	# The gold patch's first file and first changed old-file line.
	path, line, old = None, None, 0
	for ln in gold:
	    if ln.startswith("--- a/") and path is None:
	        path = ln[6:]
	    elif ln.startswith("@@") and path and line is None:
	        old = int(re.match(r"@@ -(\d+)", ln).group(1))
	    elif path and line is None and old and ln[:1] in " -+":
	        if ln[0] == " ":
	            old += 1
	        else:
	            line = max(old if ln[0] == "-" else old - 1, 1)
	src = open(os.path.join(repo, path)).read().splitlines(keepends=True)
	mark = "greenlight: deliberately wrong patch"
	at = len(src)  # insert before src[at]
	if path.endswith(".go"):
	    bad = '\tvar _ int = "%s"\n' % mark
	    start = next((i for i in range(line - 1, -1, -1) if src[i].startswith("func ")), None)
	    if start is not None:
	        end = next((i for i in range(start, len(src)) if src[i].rstrip() == "}"), len(src))
	        body = next((i for i in range(start, end) if src[i].rstrip().endswith("{")), None)
	        if body is not None and line - 1 <= end:
	            at = body + 1
	    if at == len(src):
	        bad = bad.lstrip("\t")
	elif re.search(r"\.(js|cjs|mjs|ts)$", path):
	    # JavaScript: two bare words are a syntax error; before the line.
	    at = line - 1
	    bad = re.match(r"[ \t]*", src[at] if at < len(src) else "").group(0) + "greenlight deliberately wrong patch\n"
	else:
	    bad = "greenlight deliberately wrong patch\n"
	    best = None
	    for n in ast.walk(ast.parse("".join(src))):
	        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.lineno <= line <= n.end_lineno:
	            if best is None or n.lineno > best.lineno:
	                best = n
	    if best is not None and best.body[0].lineno > best.lineno:
	        first = best.body[0]
	        at = first.lineno - 1
	        bad = " " * first.col_offset + bad
	mut = src[:at] + [bad] + src[at:]
	if src and not src[-1].endswith("\n") and at == len(src):
	    mut[at - 1] += "\n"
	with tempfile.NamedTemporaryFile("w", delete=False) as f:
	    f.writelines(mut)
	r = subprocess.run(["diff", "-u", "--label", "a/" + path, "--label", "b/" + path,
	                    os.path.join(repo, path), f.name], capture_output=True, text=True)
	os.unlink(f.name)
	if r.returncode != 1:
	    sys.exit("wrong_diff: diff failed: " + r.stderr)
	sys.stdout.write(r.stdout)
	EOF
}

# provider_sh ROUNDS prints the task's provider: it stores each request
# (request-1.json, request-2.json, ... in the order of the calls; O_EXCL
# creation keeps parallel runs apart) and prints gold.diff, or for the
# wrong-then-gold suite wrong.diff when the request is a run's first
# attempt ("attempt" in the JSON; the first call when it has none).
provider_sh() {
	cat <<-'EOF'
	#!/bin/sh
	# Written by scripts/swe-tasks.sh. greenlight eval runs this in the task
	# directory with the PatchRequest (protojson) on stdin; stdout is the patch.
	set -e
	n=1
	while ! (set -C; : >"request-$n.json") 2>/dev/null; do n=$((n + 1)); done
	cat >"request-$n.json"
	EOF
	if [[ $1 == wrong ]]; then
		cat <<-'EOF'
		attempt=$(grep -o '"attempt"[[:space:]]*:[[:space:]]*[0-9]*' "request-$n.json" | head -n 1 | tr -dc 0-9)
		if [ "${attempt:-$n}" = 1 ]; then cat wrong.diff; else cat gold.diff; fi
		EOF
	else
		echo 'cat gold.diff'
	fi
}

built=0 stage='' listname=$(basename "$list")
trap 'rm -rf "${stage:-/nonexistent}"' EXIT
while IFS='|' read -r name dir sha f2p srcs desc; do
	name=$(trim "$name")
	[[ -z $name || $name == \#* ]] && continue
	dir=$(trim "$dir") sha=$(trim "$sha") f2p=$(trim "$f2p") desc=$(trim "$desc")
	read -r -a srcs <<<"$(tr ',' ' ' <<<"$srcs")"
	git=(git -C "$corpus/$dir")
	if ! parent=$("${git[@]}" rev-parse -q --verify "$sha^{commit}^" 2>/dev/null); then
		echo "swe-tasks: $name: $corpus/$dir has no commit $sha (full history needed)" >&2
		exit 1
	fi
	mapfile -t tests < <("${git[@]}" diff --name-only --no-renames "$parent" "$sha" | grep -E "$test_re" || true)

	stage=$(mktemp -d "$out/.stage-$name.XXXXXX")
	mkdir "$stage/repo"
	"${git[@]}" archive "$parent" | tar -x -C "$stage/repo"
	hid=0
	if ((${#tests[@]})) && [[ $hidden == 1 ]]; then
		"${git[@]}" diff --no-renames "$parent" "$sha" -- "${tests[@]}" >"$stage/hidden.diff"
		if grep -q '^Binary files ' "$stage/hidden.diff"; then
			echo "swe-tasks: $name: the test changes hold binary files; they stay in repo/, not hidden" >&2
			rm "$stage/hidden.diff"
		else
			hid=1
		fi
	fi
	if ((${#tests[@]})) && ((!hid)); then
		# GIT_CEILING_DIRECTORIES: apply inside repo/ even when OUT lies in
		# some other git work tree.
		"${git[@]}" diff --no-renames --binary "$parent" "$sha" -- "${tests[@]}" |
			GIT_CEILING_DIRECTORIES=$stage git -C "$stage/repo" apply --whitespace=nowarn -
	fi
	"${git[@]}" diff --no-renames "$parent" "$sha" -- "${srcs[@]}" >"$stage/gold.diff"
	[[ -s $stage/gold.diff ]] || { echo "swe-tasks: $name: empty gold diff for ${srcs[*]}" >&2; exit 1; }
	wrong_diff "$stage/repo" "$stage/gold.diff" >"$stage/wrong.diff"

	for suite in gold wrong-then-gold; do
		task=$out/$suite/$name
		rm -rf "$task"
		mkdir -p "$task"
		cp -a "$stage/repo" "$task/repo"
		cp "$stage/gold.diff" "$task/gold.diff"
		((!hid)) || cp "$stage/hidden.diff" "$task/hidden.diff"
		rounds=1 kind=gold
		if [[ $suite == wrong-then-gold ]]; then
			rounds=2 kind=wrong
			cp "$stage/wrong.diff" "$task/wrong.diff"
		fi
		provider_sh "$kind" >"$task/provider.sh"
		{
			echo "# Built by scripts/swe-tasks.sh from $listname: $dir $sha"
			if ((hid)); then
				echo "# ($desc). repo/ is the parent commit; hidden.diff the fix's test changes."
			else
				echo "# ($desc). repo/ is the parent commit plus the fix's test changes."
			fi
			echo "name: $name"
			echo "provider:"
			echo "  kind: command"
			echo "  command: sh provider.sh"
			echo "  timeout: 1m"
			echo "max_rounds: $rounds"
			echo "max_changed_lines: -1"
			echo "fail_to_pass:"
			yaml_list "$f2p"
			if ((hid)); then
				echo "hidden_tests: hidden.diff"
				echo "hidden_targets:"
				yaml_list "$f2p"
			fi
		} >"$task/task.yaml"
	done
	rm -rf "$stage"
	built=$((built + 1))
	echo "$name: $dir ${sha:0:12} (${#tests[@]} test files, ${#srcs[@]} source files)"
done <"$list"
echo "swe-tasks: $built tasks in $out/gold and $out/wrong-then-gold"
