package executorsvc

import (
	"go.uber.org/zap"

	"github.com/greenlight-dev/greenlight/services/executor/internal/kube"
)

// Container runtimes (Config.Runtime).
const (
	// RuntimeDocker runs sandboxes as containers of a Docker engine.
	RuntimeDocker = "docker"
	// RuntimeKubernetes runs them as pods of a Kubernetes cluster
	// (internal/kube).
	RuntimeKubernetes = "kubernetes"
)

// newKube builds the executor on the Kubernetes runtime. No egress
// instance is set up: the Docker egress network and its iptables chains
// (internal/egress) filter a bridge of this host, while a pod's network
// is the cluster's, filtered by the driver's NetworkPolicies (any network
// name the sandbox asks for selects the egress policy).
func newKube(cfg Config, blobs Blobs, log *zap.Logger) (*Service, error) {
	rc, err := kube.Config(cfg.Kubeconfig)
	if err != nil {
		return nil, err
	}
	rt, err := kube.New(rc, cfg.KubeNamespace, log)
	if err != nil {
		return nil, err
	}
	return newService(cfg, blobs, log, rt, nil, nil)
}
