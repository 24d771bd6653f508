#!/bin/bash
# cap.sh TOOL CASE SRCDIR WORKDIR 'COMMAND' [ARTIFACT_REL_TO_WORKDIR EXT]
# Copies SRCDIR to /workspace, runs COMMAND with sh -c in /workspace/WORKDIR,
# stores combined stdout+stderr as TOOL/CASE.log and appends the exit code to manifest.tsv.
set -u
G=${GOLDEN:-$(cd "$(dirname "$0")" && pwd)}
tool=$1 case=$2 src=$3 wd=$4 cmd=$5 art=${6:-} ext=${7:-}
mkdir -p /workspace && find /workspace -mindepth 1 -delete && cp -a "$src"/. /workspace/
mkdir -p "$G/$tool"
cd "/workspace/$wd"
sh -c "$cmd" > "$G/$tool/$case.log" 2>&1
rc=$?
if [ -n "$art" ]; then cp "/workspace/$wd/$art" "$G/$tool/$case.$ext"; fi
grep -v -P "^$tool\t$case\t" "$G/manifest.tsv" 2>/dev/null > "$G/manifest.tsv.tmp" || true
printf '%s\t%s\t%s\t%s\t%s\n' "$tool" "$case" "$rc" "${wd:-.}" "$cmd" >> "$G/manifest.tsv.tmp"
sort -o "$G/manifest.tsv" "$G/manifest.tsv.tmp"; rm -f "$G/manifest.tsv.tmp"
echo "$tool/$case rc=$rc"
