package executorsvc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/zap"

	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/services/executor/internal/kube"
)

// The executor's main makes the Kubernetes runtime available; so do these
// tests.
func init() { UseKubernetes(kube.NewRuntime) }

// The runtime defaults to Docker; the Kubernetes one needs a namespace
// name Kubernetes accepts.
func TestRuntimeConfig(t *testing.T) {
	cfg := DefaultConfig("")
	if cfg.Runtime != RuntimeDocker || cfg.KubeNamespace != kube.DefaultNamespace {
		t.Errorf("defaults: runtime %q namespace %q", cfg.Runtime, cfg.KubeNamespace)
	}
	cfg.Runtime, cfg.KubeNamespace = RuntimeKubernetes, "Not_A_Namespace"
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "kube-namespace") {
		t.Errorf("Validate = %v, want the namespace refused", err)
	}
}

// With --runtime kubernetes New builds the service on the cluster of the
// kubeconfig without asking it anything (as with Docker, a cluster that
// does not answer fails each RPC, not the start), and sets up no Docker
// egress network; a kubeconfig that cannot be read fails New, naming it.
func TestNewKubernetes(t *testing.T) {
	dir := t.TempDir()
	blobs, err := blob.NewStore(filepath.Join(dir, "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig("")
	cfg.Runtime, cfg.PoolSize, cfg.Kubeconfig = RuntimeKubernetes, 0, filepath.Join(dir, "missing.kubeconfig")
	if _, err := New(cfg, blobs, zap.NewNop()); err == nil || !strings.Contains(err.Error(), "missing.kubeconfig") {
		t.Fatalf("New with a missing kubeconfig = %v", err)
	}
	cfg.Kubeconfig = filepath.Join(dir, "kubeconfig")
	kc := `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
`
	if err := os.WriteFile(cfg.Kubeconfig, []byte(kc), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := New(cfg, blobs, zap.NewNop())
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	defer func() { _ = s.Close() }()
	if s.egress != nil {
		t.Error("an egress instance was set up for the Kubernetes runtime")
	}
}

// A binary that did not call UseKubernetes (the CLI's embedded executor)
// refuses --runtime kubernetes, saying which binary has it.
func TestNewKubernetesWithoutTheRuntime(t *testing.T) {
	saved := kubeRuntime
	kubeRuntime = nil
	defer func() { kubeRuntime = saved }()
	cfg := DefaultConfig("")
	cfg.Runtime, cfg.PoolSize = RuntimeKubernetes, 0
	if _, err := New(cfg, nil, zap.NewNop()); err == nil || !strings.Contains(err.Error(), "greenlight-executor") {
		t.Errorf("New = %v, want the missing runtime named", err)
	}
}
