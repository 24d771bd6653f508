#!/usr/bin/env bash
# kube-cluster.sh — a single-node Kubernetes on this machine, built from what
# it can reach: Kubernetes, kube-router and CoreDNS compiled from their Go module
# source through the Go module proxy, etcd, containerd, runc and the CNI
# plugins from Debian. No image registry and no binary download is needed.
#
#   scripts/kube-cluster.sh packages install the Debian packages it needs
#   scripts/kube-cluster.sh build    packages, then build the binaries (cached), start nothing
#   scripts/kube-cluster.sh up       build (cached), start, load the sandbox images
#   scripts/kube-cluster.sh status   exit 0 when the API server answers and the node is Ready
#   scripts/kube-cluster.sh down     stop every process (state and images are kept)
#   scripts/kube-cluster.sh purge    down, then delete state (etcd, containerd root)
#   scripts/kube-cluster.sh env      print KUBECONFIG=... for the shell
#
# Layout: binaries in $CACHE (keyed by version, survive purge), state in
# $STATE, sockets and pids in $RUN. The second `up` only starts processes:
# seconds. Root on Debian is required (it installs packages, starts
# containerd and the kubelet). Documented in docs/scale-out.md.
set -euo pipefail

KUBE_VERSION="${GREENLIGHT_KUBE_VERSION:-1.34.4}"
ROUTER_VERSION="${GREENLIGHT_KUBE_ROUTER_VERSION:-v2.1.0}"
COREDNS_VERSION="${GREENLIGHT_COREDNS_VERSION:-v1.14.7}"
CACHE="${GREENLIGHT_KUBE_CACHE:-/var/cache/greenlight/kube}"
STATE="${GREENLIGHT_KUBE_STATE:-/var/lib/greenlight/kube}"
RUN="${GREENLIGHT_KUBE_RUN:-/run/greenlight-kube}"
BIN="$CACHE/bin-$KUBE_VERSION"
NODE="${GREENLIGHT_KUBE_NODE:-greenlight-node}"
# The node's address lives on an (empty) bridge interface of our own, so the cluster
# never binds or advertises one of the host's addresses.
NODE_IF=glkube0
NODE_IP=10.250.0.1
POD_CIDR=10.244.0.0/24
SERVICE_CIDR=10.96.0.0/24
API_SERVICE_IP=10.96.0.1
NAMESPACE=greenlight-sandbox
PAUSE_IMAGE=greenlight.local/pause:3.10
KCFG="$STATE/admin.kubeconfig"
PKI="$STATE/pki"
LOG="$STATE/log"
CTR_SOCK="$RUN/containerd.sock"

say() { printf 'kube-cluster: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }
kubectl() { "$BIN/kubectl" --kubeconfig "$KCFG" "$@"; }

need_root() {
  [ "$(id -u)" = 0 ] || die "needs root (it starts containerd and the kubelet); run it as root on Debian"
}

install_packages() {
  local missing=()
  local pkg
  for pkg in etcd-server containerd runc containernetworking-plugins conntrack socat ipset iptables catatonit openssl curl docker.io; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  [ ${#missing[@]} = 0 ] && return 0
  command -v apt-get >/dev/null || die "missing packages ${missing[*]} and no apt-get: install them"
  say "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=300 install -y -q "${missing[@]}" >/dev/null ||
    { apt-get -o DPkg::Lock::Timeout=300 update -q >/dev/null &&
      apt-get -o DPkg::Lock::Timeout=300 install -y -q "${missing[@]}" >/dev/null; } ||
    die "apt-get install ${missing[*]} failed"
}

# build_kube compiles the Kubernetes binaries from the k8s.io/kubernetes
# module. Its go.mod points the staging modules at ./staging, which a module
# zip leaves out, so a wrapper module replaces each with its published
# v0.X.Y twin.
build_kube() {
  local want=(kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy kubectl)
  local b ok=1
  for b in "${want[@]}"; do [ -x "$BIN/$b" ] || ok=0; done
  [ "$ok" = 1 ] && return 0
  command -v go >/dev/null || die "go is needed to build Kubernetes $KUBE_VERSION"
  local src="$CACHE/src-$KUBE_VERSION"
  mkdir -p "$src" "$BIN"
  say "building Kubernetes $KUBE_VERSION from its module source (first time only; ~15 min on 2 cores)"
  local gomod
  gomod="$(cd "$src" && GOFLAGS=-mod=mod go mod download -json "k8s.io/kubernetes@v$KUBE_VERSION" | sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')"
  [ -f "$gomod" ] || die "could not download k8s.io/kubernetes@v$KUBE_VERSION through the Go module proxy"
  {
    printf 'module greenlight.local/kubebuild\n\ngo 1.24.0\n\nrequire k8s.io/kubernetes v%s\n\nreplace (\n' "$KUBE_VERSION"
    grep -E '=> \./staging' "$gomod" | awk -v v="v0.${KUBE_VERSION#1.}" '{printf "\t%s => %s %s\n", $1, $1, v}'
    printf ')\n'
  } > "$src/go.mod"
  printf 'package main\n\nfunc main() {}\n' > "$src/main.go"
  local pkgs=()
  for b in "${want[@]}"; do pkgs+=("k8s.io/kubernetes/cmd/$b@v$KUBE_VERSION"); done
  (cd "$src" && GOFLAGS=-mod=mod go get "${pkgs[@]}" >/dev/null)
  pkgs=()
  for b in "${want[@]}"; do pkgs+=("k8s.io/kubernetes/cmd/$b"); done
  local minor=${KUBE_VERSION#1.}
  minor=${minor%%.*}
  local ver="-X k8s.io/component-base/version.gitVersion=v$KUBE_VERSION -X k8s.io/component-base/version.gitMajor=1"
  ver="$ver -X k8s.io/component-base/version.gitMinor=$minor -X k8s.io/client-go/pkg/version.gitVersion=v$KUBE_VERSION"
  (cd "$src" && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath -ldflags "-s -w $ver" -o "$BIN/" "${pkgs[@]}")
}

# build_tool compiles a program of a published module (no staging
# replacements needed), cached in $BIN.
build_tool() { # binary module version package what
  local bin=$1 module=$2 version=$3 pkg=$4 what=$5
  [ -x "$BIN/$bin" ] && return 0
  local src="$CACHE/$bin-$version"
  mkdir -p "$src" "$BIN"
  say "building $bin $version ($what)"
  printf 'module greenlight.local/%sbuild\n\ngo 1.24.0\n' "$bin" > "$src/go.mod"
  printf 'package main\n\nfunc main() {}\n' > "$src/main.go"
  (cd "$src" && GOFLAGS=-mod=mod go get "$module@$version" >/dev/null &&
    CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath -ldflags '-s -w' -o "$BIN/$bin" "$pkg")
}

# kube-router runs with only its NetworkPolicy firewall (iptables + ipsets;
# no routing, no service proxy). v2.1.0 is the only version the module
# proxy here serves. kube-network-policies (nftables + nfqueue) was tried
# first: this kernel has no nft queue expression. CoreDNS is the cluster
# DNS, a host process on the node's address, so it needs no image.
build_router() {
  build_tool kube-router github.com/cloudnativelabs/kube-router/v2 "$ROUTER_VERSION" \
    github.com/cloudnativelabs/kube-router/v2/cmd/kube-router "NetworkPolicy enforcement"
}
build_coredns() {
  build_tool coredns github.com/coredns/coredns "$COREDNS_VERSION" github.com/coredns/coredns "cluster DNS"
}

# --- certificates --------------------------------------------------------

cert() { # name CN O [SAN]
  local name=$1 cn=$2 org=$3 san=${4:-}
  [ -f "$PKI/$name.crt" ] && return 0
  local subj="/CN=$cn"
  [ -n "$org" ] && subj="/O=$org$subj"
  openssl req -new -newkey rsa:2048 -nodes -keyout "$PKI/$name.key" -subj "$subj" -out "$PKI/$name.csr" 2>/dev/null
  local ext="$PKI/$name.ext"
  printf 'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth,clientAuth\n' > "$ext"
  [ -n "$san" ] && printf 'subjectAltName=%s\n' "$san" >> "$ext"
  openssl x509 -req -in "$PKI/$name.csr" -CA "$PKI/ca.crt" -CAkey "$PKI/ca.key" -CAcreateserial \
    -days 3650 -extfile "$ext" -out "$PKI/$name.crt" 2>/dev/null
}

kubeconfig() { # file cert
  local file=$1 name=$2
  [ -f "$file" ] && return 0
  cat > "$file" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: greenlight
  cluster:
    server: https://127.0.0.1:6443
    certificate-authority: $PKI/ca.crt
users:
- name: $name
  user:
    client-certificate: $PKI/$name.crt
    client-key: $PKI/$name.key
contexts:
- name: greenlight
  context: {cluster: greenlight, user: $name}
current-context: greenlight
EOF
}

make_pki() {
  mkdir -p "$PKI"
  if [ ! -f "$PKI/ca.crt" ]; then
    openssl req -x509 -new -newkey rsa:2048 -nodes -keyout "$PKI/ca.key" -subj "/CN=greenlight-kube-ca" \
      -days 3650 -out "$PKI/ca.crt" 2>/dev/null
  fi
  cert apiserver kube-apiserver "" \
    "IP:127.0.0.1,IP:$NODE_IP,IP:$API_SERVICE_IP,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local,DNS:localhost"
  cert admin admin system:masters
  cert apiserver-kubelet kube-apiserver-kubelet-client system:masters
  cert kubelet "system:node:$NODE" system:nodes "IP:$NODE_IP,IP:127.0.0.1,DNS:$NODE"
  cert controller-manager system:kube-controller-manager ""
  cert scheduler system:kube-scheduler ""
  cert kube-proxy system:kube-proxy ""
  cert coredns coredns system:masters
  cert kube-router kube-router system:masters
  [ -f "$PKI/sa.key" ] || { openssl genrsa -out "$PKI/sa.key" 2048 2>/dev/null; openssl rsa -in "$PKI/sa.key" -pubout -out "$PKI/sa.pub" 2>/dev/null; }
  kubeconfig "$KCFG" admin
  local n
  for n in kubelet controller-manager scheduler kube-proxy coredns kube-router; do kubeconfig "$STATE/$n.kubeconfig" "$n"; done
}

# --- processes -----------------------------------------------------------

running() { [ -f "$RUN/$1.pid" ] && kill -0 "$(cat "$RUN/$1.pid")" 2>/dev/null; }

start() { # name cmd...
  local name=$1; shift
  running "$name" && return 0
  setsid "$@" >>"$LOG/$name.log" 2>&1 < /dev/null &
  echo $! > "$RUN/$name.pid"
}

wait_for() { # what seconds cmd...
  local what=$1 secs=$2; shift 2
  local i
  for ((i = 0; i < secs * 5; i++)); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  die "$what did not come up within ${secs}s (logs: $LOG)"
}

node_network() {
  ip link show "$NODE_IF" >/dev/null 2>&1 || ip link add "$NODE_IF" type bridge
  ip addr show dev "$NODE_IF" | grep -q "$NODE_IP/" || ip addr add "$NODE_IP/32" dev "$NODE_IF"
  ip link set "$NODE_IF" up
  # A pod's packet to a Service address kube-proxy has not programmed yet
  # must be refused, not leave through the default route (it met this
  # host's outbound proxy, which answered gRPC with HTTP 404, and the
  # connection stuck). FORWARD sees packets after kube-proxy's DNAT, so only
  # those no rule translated match.
  local rule=(-s "$POD_CIDR" -d "$SERVICE_CIDR" -m comment --comment "greenlight: unprogrammed service address" -j REJECT)
  iptables -C FORWARD "${rule[@]}" 2>/dev/null || iptables -I FORWARD 1 "${rule[@]}"
  sysctl -qw net.ipv4.ip_forward=1
  modprobe br_netfilter 2>/dev/null || true
  [ -e /proc/sys/net/bridge/bridge-nf-call-iptables ] && sysctl -qw net.bridge.bridge-nf-call-iptables=1
  mkdir -p "$STATE/cni"
  cat > "$STATE/cni/10-greenlight.conflist" <<EOF
{
  "cniVersion": "1.0.0",
  "name": "greenlight",
  "plugins": [
    {"type": "bridge", "bridge": "glcni0", "isGateway": true, "ipMasq": true, "hairpinMode": true,
     "ipam": {"type": "host-local", "ranges": [[{"subnet": "$POD_CIDR"}]], "routes": [{"dst": "0.0.0.0/0"}],
              "dataDir": "$STATE/cni-ipam"}},
    {"type": "portmap", "capabilities": {"portMappings": true}},
    {"type": "tuning", "sysctl": {"net.ipv6.conf.eth0.disable_ipv6": "1", "net.ipv6.conf.default.disable_ipv6": "1"}}
  ]
}
EOF
}

containerd_config() {
  mkdir -p "$STATE/containerd"
  cat > "$STATE/containerd.toml" <<EOF
version = 2
root = "$STATE/containerd"
state = "$RUN/containerd"
[grpc]
  address = "$CTR_SOCK"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "$PAUSE_IMAGE"
  # Some hosts (this kind of VM among them) refuse a lower oom_score_adj than
  # the caller's, which the kubelet asks for pause (-998): cap it instead.
  restrict_oom_score_adj = true
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$STATE/cni"
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
EOF
}

kubelet_config() {
  cat > "$STATE/kubelet.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: $NODE_IP
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: false}
  x509: {clientCAFile: $PKI/ca.crt}
authorization: {mode: AlwaysAllow}
tlsCertFile: $PKI/kubelet.crt
tlsPrivateKeyFile: $PKI/kubelet.key
cgroupDriver: cgroupfs
containerRuntimeEndpoint: unix://$CTR_SOCK
failSwapOn: false
failCgroupV1: false
# One value per node (Kubernetes has no per-pod pids field): the sandbox's
# default of 256 pids plus room for the pause process and the runner.
podPidsLimit: 512
allowedUnsafeSysctls: ["net.*"]
# An OOM kills the process that ran out, not every process of the container
# (the step, not greenlight-runner). Already so on cgroup v1.
singleProcessOOMKill: true
# The disk is shared with everything else on this machine: evict only when
# it is really full, and never garbage-collect the loaded sandbox images.
evictionHard: {nodefs.available: "512Mi", imagefs.available: "512Mi", nodefs.inodesFree: "1%", memory.available: "100Mi"}
evictionPressureTransitionPeriod: 10s
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
maxPods: 60
serializeImagePulls: false
resolvConf: /etc/resolv.conf
clusterDNS: [$NODE_IP]
clusterDomain: cluster.local
EOF
  cat > "$STATE/Corefile" <<EOF
.:53 {
  bind $NODE_IP
  errors
  kubernetes cluster.local in-addr.arpa ip6.arpa {
    kubeconfig $STATE/coredns.kubeconfig greenlight
    pods insecure
    fallthrough in-addr.arpa ip6.arpa
  }
  forward . /etc/resolv.conf
  cache 30
}
EOF
}

start_all() {
  mkdir -p "$RUN" "$LOG" "$STATE/etcd"
  node_network
  containerd_config
  kubelet_config
  start containerd containerd --config "$STATE/containerd.toml"
  wait_for containerd 30 ctr --address "$CTR_SOCK" version
  start etcd etcd --data-dir "$STATE/etcd" --listen-client-urls http://127.0.0.1:2379 \
    --advertise-client-urls http://127.0.0.1:2379 --listen-peer-urls http://127.0.0.1:2380 \
    --unsafe-no-fsync --quota-backend-bytes 2147483648
  wait_for etcd 30 curl -fsS http://127.0.0.1:2379/health
  start apiserver "$BIN/kube-apiserver" --etcd-servers http://127.0.0.1:2379 \
    --bind-address 0.0.0.0 --secure-port 6443 --advertise-address "$NODE_IP" \
    --service-cluster-ip-range "$SERVICE_CIDR" --client-ca-file "$PKI/ca.crt" \
    --tls-cert-file "$PKI/apiserver.crt" --tls-private-key-file "$PKI/apiserver.key" \
    --kubelet-client-certificate "$PKI/apiserver-kubelet.crt" --kubelet-client-key "$PKI/apiserver-kubelet.key" \
    --service-account-key-file "$PKI/sa.pub" --service-account-signing-key-file "$PKI/sa.key" \
    --service-account-issuer https://kubernetes.default.svc --authorization-mode Node,RBAC \
    --enable-admission-plugins NodeRestriction --allow-privileged=false \
    --kubelet-preferred-address-types InternalIP
  wait_for kube-apiserver 90 kubectl get --raw /readyz
  start controller-manager "$BIN/kube-controller-manager" --kubeconfig "$STATE/controller-manager.kubeconfig" \
    --service-account-private-key-file "$PKI/sa.key" --root-ca-file "$PKI/ca.crt" \
    --use-service-account-credentials --cluster-cidr "$POD_CIDR" --allocate-node-cidrs=false \
    --leader-elect=false --controllers '*,-nodeipam,-cloud-node-lifecycle'
  start scheduler "$BIN/kube-scheduler" --kubeconfig "$STATE/scheduler.kubeconfig" --leader-elect=false
  start kubelet "$BIN/kubelet" --config "$STATE/kubelet.yaml" --kubeconfig "$STATE/kubelet.kubeconfig" \
    --hostname-override "$NODE" --node-ip "$NODE_IP" --root-dir "$STATE/kubelet"
  start kube-proxy "$BIN/kube-proxy" --kubeconfig "$STATE/kube-proxy.kubeconfig" --hostname-override "$NODE" \
    --cluster-cidr "$POD_CIDR" --proxy-mode iptables
  start coredns "$BIN/coredns" -conf "$STATE/Corefile"
  # kube-router looks its node up once at start and exits when the kubelet
  # has not registered it yet ("failed to identify the node"): on a fresh
  # machine the kubelet's first registration takes seconds longer, and a
  # cluster without it enforces no NetworkPolicy at all.
  wait_for "node $NODE registered" 120 kubectl get node "$NODE"
  start kube-router "$BIN/kube-router" --kubeconfig "$STATE/kube-router.kubeconfig" --hostname-override "$NODE" \
    --run-firewall=true --run-router=false --run-service-proxy=false --enable-cni=false \
    --metrics-port 0 --health-port 20244
  wait_for "node $NODE" 120 node_ready
  wait_for "kube-router (NetworkPolicy enforcement)" 60 curl -fsS http://127.0.0.1:20244/healthz
  running kube-router || die "kube-router exited (log: $LOG/kube-router.log)"
}

node_ready() {
  [ "$(kubectl get node "$NODE" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}' 2>/dev/null)" = True ]
}

# --- images --------------------------------------------------------------

ctr_k8s() { ctr --address "$CTR_SOCK" -n k8s.io "$@"; }

pause_image() {
  ctr_k8s images ls -q | grep -qx "$PAUSE_IMAGE" && return 0
  docker info >/dev/null 2>&1 || die "the Docker engine is needed once to build the pause image (make engine)"
  local dir
  dir="$(mktemp -d)"
  cp /usr/bin/catatonit "$dir/pause"
  tar -C "$dir" -c pause | docker import -c 'ENTRYPOINT ["/pause", "-P"]' - "$PAUSE_IMAGE" >/dev/null
  docker save "$PAUSE_IMAGE" | ctr_k8s images import - >/dev/null
  rm -rf "$dir"
}

# load_images copies every greenlight image from Docker into containerd when
# its ID differs, and publishes their configuration (env, labels), which the
# Kubernetes API cannot show, in the ConfigMap the executor's driver reads.
load_images() {
  docker info >/dev/null 2>&1 || { say "no Docker engine: sandbox images not (re)loaded"; return 0; }
  local refs ref id have
  refs="$(docker images --format '{{.Repository}}:{{.Tag}}' | grep -E '^greenlight/' | grep -v ':<none>$' || true)"
  mkdir -p "$STATE/images"
  local loaded stale=()
  loaded="$(ctr_k8s images ls -q)"
  for ref in $refs; do
    id="$(docker image inspect -f '{{.Id}}' "$ref")"
    have="$(cat "$STATE/images/$(echo "$ref" | tr '/:' '__')" 2>/dev/null || true)"
    if [ "$have" != "$id" ] || ! grep -qx "docker.io/$ref" <<<"$loaded"; then stale+=("$ref"); fi
  done
  if [ ${#stale[@]} -gt 0 ]; then
    # One archive for all of them: tags of one image and shared layers are
    # written once.
    say "loading ${stale[*]} into containerd"
    docker save "${stale[@]}" | ctr_k8s images import --all-platforms - >/dev/null
    for ref in "${stale[@]}"; do
      docker image inspect -f '{{.Id}}' "$ref" > "$STATE/images/$(echo "$ref" | tr '/:' '__')"
    done
  fi
  kubectl get namespace "$NAMESPACE" >/dev/null 2>&1 || kubectl create namespace "$NAMESPACE" >/dev/null
  kubectl label --overwrite namespace "$NAMESPACE" pod-security.kubernetes.io/enforce=baseline >/dev/null
  # shellcheck disable=SC2086
  docker image inspect $refs | python3 -c '
import json, sys
out = {}
for img, ref in zip(json.load(sys.stdin), sys.argv[1:]):
    cfg = img.get("Config") or {}
    digests = img.get("RepoDigests") or []
    out[ref] = {"Ref": ref, "ID": img["Id"], "Digest": digests[0] if digests else img["Id"],
                "OS": img.get("Os", ""), "Arch": img.get("Architecture", ""),
                "Env": cfg.get("Env") or [], "Labels": cfg.get("Labels") or {}}
json.dump(out, sys.stdout, indent=1, sort_keys=True)
' $refs > "$STATE/images.json"
  kubectl -n "$NAMESPACE" create configmap greenlight-images --from-file=images.json="$STATE/images.json" \
    --dry-run=client -o yaml | kubectl apply -f - >/dev/null
}

# --- commands ------------------------------------------------------------

cmd_build() {
  need_root
  local t0=$SECONDS
  install_packages
  build_kube
  build_router
  build_coredns
  say "binaries ready in $((SECONDS - t0))s ($BIN)"
}

cmd_up() {
  local t0=$SECONDS
  cmd_build
  make_pki
  start_all
  pause_image
  load_images
  say "up in $((SECONDS - t0))s; KUBECONFIG=$KCFG"
}

cmd_down() {
  local n
  for n in kube-router coredns kube-proxy kubelet scheduler controller-manager apiserver etcd; do
    if running "$n"; then kill "$(cat "$RUN/$n.pid")" 2>/dev/null || true; fi
  done
  sleep 1
  # Sandbox containers run under containerd's shims, not under the kubelet:
  # stop them with containerd, then containerd itself.
  if running containerd; then
    local c
    for c in $(ctr_k8s tasks ls -q 2>/dev/null); do ctr_k8s tasks kill -s KILL "$c" >/dev/null 2>&1 || true; done
    sleep 1
    for c in $(ctr_k8s containers ls -q 2>/dev/null); do ctr_k8s tasks delete -f "$c" >/dev/null 2>&1 || true; ctr_k8s containers delete "$c" >/dev/null 2>&1 || true; done
    kill "$(cat "$RUN/containerd.pid")" 2>/dev/null || true
  fi
  for n in kube-router coredns kube-proxy kubelet scheduler controller-manager apiserver etcd containerd; do
    if running "$n"; then sleep 1; kill -9 "$(cat "$RUN/$n.pid")" 2>/dev/null || true; fi
    rm -f "$RUN/$n.pid"
  done
  say "down"
}

cmd_status() {
  [ -f "$KCFG" ] && [ -x "$BIN/kubectl" ] || { say "not set up (run: make cluster)"; return 1; }
  kubectl get --raw /readyz >/dev/null 2>&1 || { say "API server not answering (run: make cluster)"; return 1; }
  node_ready || { say "node $NODE not Ready"; return 1; }
  running kube-router || { say "kube-router (NetworkPolicy enforcement) not running"; return 1; }
  say "up: node $NODE Ready, KUBECONFIG=$KCFG"
}

case "${1:-}" in
  packages) need_root; install_packages ;;
  build) cmd_build ;;
  up) cmd_up ;;
  down) cmd_down ;;
  purge) cmd_down; rm -rf "$STATE"; say "state removed" ;;
  status) cmd_status ;;
  env) echo "KUBECONFIG=$KCFG" ;;
  *) echo "usage: $0 packages|build|up|down|purge|status|env" >&2; exit 2 ;;
esac
