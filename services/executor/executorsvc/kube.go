package executorsvc

import (
	"errors"
	"regexp"

	"go.uber.org/zap"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// Container runtimes (Config.Runtime).
const (
	// RuntimeDocker runs sandboxes as containers of a Docker engine.
	RuntimeDocker = "docker"
	// RuntimeKubernetes runs them as pods of a Kubernetes cluster
	// (internal/kube).
	RuntimeKubernetes = "kubernetes"
)

// DefaultKubeNamespace is where sandbox pods live unless --kube-namespace
// says otherwise (internal/kube's default).
const DefaultKubeNamespace = "greenlight-sandbox"

// namespaceName is a Kubernetes namespace name (an RFC 1123 label).
var namespaceName = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`)

// KubeRuntime builds the Kubernetes runtime from a kubeconfig path and a
// namespace (internal/kube's NewRuntime).
type KubeRuntime func(kubeconfig, namespace string, log *zap.Logger) (sandbox.Runtime, error)

// kubeRuntime is set by UseKubernetes; nil in a binary without it.
var kubeRuntime KubeRuntime

// UseKubernetes makes --runtime kubernetes available. greenlight-executor's
// main calls it with internal/kube's constructor, so only the binaries that
// can run sandboxes as pods link client-go: the CLI's embedded executor is
// Docker only, and client-go's package initialisation alone was 5.6 ms of
// every one-shot `greenlight verify` (docs/speed.md).
func UseKubernetes(f KubeRuntime) { kubeRuntime = f }

// errNoKube is New's answer to --runtime kubernetes in such a binary.
var errNoKube = errors.New("--runtime kubernetes: this binary was built without the Kubernetes runtime; run greenlight-executor")

// newKube builds the executor on the Kubernetes runtime. No egress
// instance is set up: the Docker egress network and its iptables chains
// (internal/egress) filter a bridge of this host, while a pod's network
// is the cluster's, filtered by the driver's NetworkPolicies (any network
// name the sandbox asks for selects the egress policy).
func newKube(cfg Config, blobs Blobs, log *zap.Logger) (*Service, error) {
	if kubeRuntime == nil {
		return nil, errNoKube
	}
	rt, err := kubeRuntime(cfg.Kubeconfig, cfg.KubeNamespace, log)
	if err != nil {
		return nil, err
	}
	return newService(cfg, blobs, log, rt, nil, nil)
}
