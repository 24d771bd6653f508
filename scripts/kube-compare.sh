#!/usr/bin/env bash
# kube-compare.sh DIR... — the same verification on both sandbox drivers:
# each DIR once with the embedded CLI on the local Docker engine and once
# through the gateway of deploy/kube/greenlight.yaml on the cluster of
# scripts/kube-cluster.sh (Kubernetes driver, via scripts/kube-e2e.sh); then
# a table of verdict, test counts, step statuses and step time per driver.
# Exit 1 when a verdict, a count or a step status differs. --table-only
# prints the table of the results already in $GREENLIGHT_KUBE_OUT.
# docs/scale-out.md reports its output.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${GREENLIGHT_KUBE_OUT:-$ROOT/artifacts/kube-compare}
export GREENLIGHT_KUBE_OUT=$OUT
table_only=0
if [[ ${1:-} == --table-only ]]; then table_only=1; shift; fi
[[ $# -gt 0 ]] || { echo "usage: $0 [--table-only] DIR..." >&2; exit 2; }
mkdir -p "$OUT"
if [[ $table_only == 0 ]]; then
bin=$(mktemp -d "${TMPDIR:-/tmp}/greenlight-cli-XXXXXX")
trap 'rm -rf "$bin"' EXIT
(cd "$ROOT/cmd/greenlight" && go build -o "$bin/greenlight" .)
for dir in "$@"; do
  name=$(basename "$dir")
  start=$(date +%s%N)
  GREENLIGHT_HOME="$bin/home" "$bin/greenlight" verify --json "$dir" >"$OUT/$name.docker.json" || true
  echo $(( ($(date +%s%N) - start) / 1000000 )) >"$OUT/$name.docker.ms"
done
bash "$ROOT/scripts/kube-e2e.sh" "$@"
fi
python3 - "$OUT" "$@" <<'PY'
import json, os, sys
out, dirs = sys.argv[1], sys.argv[2:]
def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        return {"status": "NO RESULT (%s)" % e}
def counts(r):
    c = r.get("counts") or {}
    return "%d/%d/%d/%d %s" % (c.get("passed", 0), c.get("failed", 0), c.get("skipped", 0),
                               c.get("errors", 0), c.get("format") or "-")
def steps(r):
    return [(s.get("name"), s.get("status")) for s in r.get("steps") or []]
def took(r):
    return sum(s.get("duration_ms", 0) for s in r.get("steps") or [])
bad = 0
print("| repository | Docker: verdict, passed/failed/skipped/errors | Kubernetes: verdict, passed/failed/skipped/errors | same verdict, counts and step statuses | steps ms Docker / Kubernetes |")
print("|---|---|---|---|---|")
for d in dirs:
    n = os.path.basename(d.rstrip("/"))
    a, b = load(f"{out}/{n}.docker.json"), load(f"{out}/{n}.kube.json")
    same = a.get("status") == b.get("status") and counts(a) == counts(b) and steps(a) == steps(b)
    bad += not same
    print(f"| {n} | {a.get('status')}, {counts(a)} | {b.get('status')}, {counts(b)} | {'yes' if same else 'NO'} | {took(a)} / {took(b)} |")
sys.exit(1 if bad else 0)
PY
