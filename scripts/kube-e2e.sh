#!/usr/bin/env bash
# kube-e2e.sh — end-to-end test of deploy/kube/greenlight.yaml on the cluster
# of scripts/kube-cluster.sh: apply the manifests (services built offline by
# deploy/build.sh, loaded into the node by `kube-cluster.sh up`), wait for
# every Deployment, verify the bundled examples through the gateway with the
# real CLI (examples/pass must exit 0, examples/fail 1; the executor runs
# their sandboxes as pods with the Kubernetes driver), and delete the
# greenlight namespace again. The CLI reaches the gateway through `kubectl
# port-forward` on loopback (off loopback it would rightly insist on TLS
# before sending its token). Extra arguments are directories verified as
# well, their JSON results written to $GREENLIGHT_KUBE_OUT
# (artifacts/kube-compare) as NAME.kube.json, for scripts/kube-compare.sh.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
KUBECTL=("/var/cache/greenlight/kube/bin-${GREENLIGHT_KUBE_VERSION:-1.34.4}/kubectl" --kubeconfig /var/lib/greenlight/kube/admin.kubeconfig)
PORT=${GREENLIGHT_KUBE_GATEWAY_PORT:-17170}
ADDR=127.0.0.1:$PORT
KEEP=${GREENLIGHT_KUBE_KEEP:-0}

say() { printf '\nkube-e2e: %s\n' "$*" >&2; }
k() { "${KUBECTL[@]}" "$@"; }

bash scripts/kube-cluster.sh status || { say "no cluster: run make cluster first"; exit 1; }

forward=
cleanup() {
  local rc=$?
  [[ -n $forward ]] && kill "$forward" 2>/dev/null
  if [[ $rc -ne 0 ]]; then
    k -n greenlight get pods -o wide >&2 || true
    for d in loop discovery executor gateway; do k -n greenlight logs "deploy/$d" --tail 30 >&2 2>/dev/null || true; done
  fi
  if [[ $KEEP != 1 ]]; then
    say "deleting the greenlight namespace"
    k delete namespace greenlight --wait=false >/dev/null 2>&1 || true
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

say "applying deploy/kube/greenlight.yaml"
k apply -f deploy/kube/greenlight.yaml >/dev/null
token=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
service=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
k -n greenlight create secret generic greenlight-tokens --from-literal=gateway-token="$token" \
  --from-literal=service-token="$service" --dry-run=client -o yaml | k apply -f - >/dev/null
# A host behind a TLS-intercepting proxy (like this one) trusts a private CA:
# hand the host's bundle to the executor (--ca-bundle), as the embedded and
# compose setups do, so install steps trust it too.
CA=${GREENLIGHT_KUBE_CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}
if [[ -f $CA ]]; then
  k -n greenlight create configmap greenlight-ca-bundle --from-file=ca.pem="$CA" --dry-run=client -o yaml | k apply -f - >/dev/null
  k -n greenlight patch deployment executor --type strategic -p '{"spec":{"template":{"spec":{
    "volumes":[{"name":"ca","configMap":{"name":"greenlight-ca-bundle"}}],
    "containers":[{"name":"executor","volumeMounts":[{"name":"ca","mountPath":"/etc/greenlight/ca","readOnly":true}]}]}}}}' >/dev/null
  if ! k -n greenlight get deployment executor -o jsonpath='{.spec.template.spec.containers[0].args}' | grep -q -- --ca-bundle; then
    k -n greenlight patch deployment executor --type json \
      -p '[{"op":"add","path":"/spec/template/spec/containers/0/args/-","value":"--ca-bundle=/etc/greenlight/ca/ca.pem"}]' >/dev/null
  fi
fi
# Same tag, new image content: restart so every pod runs the images loaded now.
k -n greenlight rollout restart deployment >/dev/null
for d in loop discovery executor gateway; do
  k -n greenlight rollout status "deployment/$d" --timeout=180s >/dev/null
done

k -n greenlight port-forward svc/gateway "$PORT:7070" >/dev/null 2>&1 &
forward=$!

say "building the CLI"
bin=$(mktemp -d "${TMPDIR:-/tmp}/greenlight-cli-XXXXXX")
(cd cmd/greenlight && go build -o "$bin/greenlight" .)
gl() { GREENLIGHT_HOME="$bin/home" GREENLIGHT_TOKEN="$token" "$bin/greenlight" --addr "$ADDR" "$@"; }
# The forward listens at once but reaches a pod only once endpoints settle
# after the restart: wait until the gateway answers.
for ((i = 0; ; i++)); do
  gl runs >/dev/null 2>&1 && break
  ((i < 60)) || { say "FAIL: the gateway did not answer through the port-forward in 60s"; exit 1; }
  if ! kill -0 "$forward" 2>/dev/null; then
    k -n greenlight port-forward svc/gateway "$PORT:7070" >/dev/null 2>&1 &
    forward=$!
  fi
  sleep 1
done

expect() { # want dir
  local want=$1 dir=$2 rc
  say "greenlight verify --addr $ADDR $dir (expect exit $want)"
  set +e
  gl verify -q "$dir"
  rc=$?
  set -e
  [[ $rc -eq $want ]] || { say "FAIL: verify $dir exited $rc, want $want"; exit 1; }
}
expect 0 examples/pass
expect 1 examples/fail

OUT=${GREENLIGHT_KUBE_OUT:-$ROOT/artifacts/kube-compare}
mkdir -p "$OUT"
for dir in "$@"; do
  set +e
  gl verify --json "$dir" >"$OUT/$(basename "$dir").kube.json"
  rc=$?
  set -e
  say "$dir: exit $rc ($OUT/$(basename "$dir").kube.json)"
done

pods=$(k -n greenlight-sandbox get pods -o name 2>/dev/null | wc -l)
say "sandbox pods left: $pods"
rm -rf "$bin"
say "PASS"
