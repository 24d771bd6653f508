// Package kube implements sandbox.Runtime with Kubernetes pods, through
// client-go. It is the only package of the executor that imports
// client-go, as internal/docker is for the Docker client: it maps the
// sandbox's plain specs one to one (pod.go says how, and what has no pod
// field) and adds no policy of its own.
//
// A container is a pod in one namespace, named after the spec's name.
// Create makes it behind a scheduling gate (so it exists, with its
// labels, and is not run); Attach records an attachment; Start removes
// the gate, waits until the pod runs and connects the attachment, then
// lets the main process go (see awaitScript). Exec is pods/exec; a
// network is a label selecting one of two NetworkPolicies, and a cut is
// verified from inside the pod (network.go). Images are not inspected on
// the node: a ConfigMap lists them (images.go).
package kube

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"time"

	"go.uber.org/zap"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/version"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// DefaultNamespace is where the sandboxes' pods live.
const DefaultNamespace = "greenlight-sandbox"

// Timeouts of the driver's calls.
const (
	// callTimeout bounds every non-streaming API call, so an API server
	// that does not answer becomes sandbox.ErrEngineUnavailable.
	callTimeout = 30 * time.Second
	// DefaultStartTimeout bounds Start: scheduling, the init container
	// and the main container's start.
	DefaultStartTimeout = 2 * time.Minute
)

// Runtime runs sandboxes as pods of one namespace.
type Runtime struct {
	cs        kubernetes.Interface
	rest      *rest.Config
	namespace string
	log       *zap.Logger
	// startTimeout bounds Start (tests shorten it).
	startTimeout time.Duration
	// stream runs a pods/exec or pods/attach session (tests replace it).
	stream streamFunc

	mu sync.Mutex
	// attached are the attachments waiting for (or connected by) Start,
	// by pod name.
	attached map[string]*attachment

	policiesOnce sync.Mutex
	policiesOK   bool
	probeMu      sync.Mutex
	probeTargets []string
}

var _ sandbox.Runtime = (*Runtime)(nil)

// Config loads a client configuration: the kubeconfig at path when set,
// else the in-cluster configuration when running in a pod, else
// $KUBECONFIG or ~/.kube/config.
func Config(path string) (*rest.Config, error) {
	if path == "" {
		if c, err := rest.InClusterConfig(); err == nil {
			return c, nil
		}
		path = os.Getenv("KUBECONFIG")
		if path == "" {
			home, _ := os.UserHomeDir()
			path = filepath.Join(home, ".kube", "config")
		}
	}
	c, err := clientcmd.BuildConfigFromFlags("", path)
	if err != nil {
		return nil, fmt.Errorf("kubeconfig %s: %w", path, err)
	}
	return c, nil
}

// NewRuntime is Config then New: the runtime on the cluster of the
// kubeconfig at path ("": as Config finds one), in namespace. It is what
// the executor's main hands to executorsvc.UseKubernetes.
func NewRuntime(path, namespace string, log *zap.Logger) (sandbox.Runtime, error) {
	cfg, err := Config(path)
	if err != nil {
		return nil, err
	}
	return New(cfg, namespace, log)
}

// New returns a runtime on the cluster of cfg, in namespace ("" =
// DefaultNamespace). Nothing is asked of the API server yet.
func New(cfg *rest.Config, namespace string, log *zap.Logger) (*Runtime, error) {
	if namespace == "" {
		namespace = DefaultNamespace
	}
	cfg = rest.CopyConfig(cfg)
	// The sandbox's calls come in bursts (a run creates, starts, labels,
	// execs and removes); client-go's default of 5 per second would
	// queue them.
	cfg.QPS, cfg.Burst = 100, 200
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("kubernetes client: %w", err)
	}
	routeKlog(log)
	r := newRuntime(cs, namespace, log)
	r.rest = cfg
	r.stream = restStreamer(cfg)
	return r, nil
}

// newRuntime is a runtime on any clientset (the unit tests' fake).
func newRuntime(cs kubernetes.Interface, namespace string, log *zap.Logger) *Runtime {
	return &Runtime{cs: cs, namespace: namespace, log: log, startTimeout: DefaultStartTimeout, attached: map[string]*attachment{}}
}

// Namespace is the namespace of the sandboxes' pods.
func (r *Runtime) Namespace() string { return r.namespace }

// call runs fn with the call timeout and maps its error.
func (r *Runtime) call(ctx context.Context, what string, fn func(ctx context.Context) error) error {
	cctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	err := fn(cctx)
	if err != nil && ctx.Err() == nil && cctx.Err() != nil {
		return fmt.Errorf("%w: %s: no answer within %s", sandbox.ErrEngineUnavailable, what, callTimeout)
	}
	return mapErr(what, err)
}

// mapErr turns API errors into the sandbox's sentinels.
func mapErr(what string, err error) error {
	var netErr net.Error
	var urlErr *url.Error
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%s: %w", what, err)
	case apierrors.IsNotFound(err):
		return fmt.Errorf("%w: %s: %v", sandbox.ErrContainerNotFound, what, err)
	case apierrors.IsServiceUnavailable(err), apierrors.IsServerTimeout(err), apierrors.IsTimeout(err),
		errors.Is(err, syscall.ECONNREFUSED), errors.As(err, &netErr), errors.As(err, &urlErr):
		return fmt.Errorf("%w: %s: %v", sandbox.ErrEngineUnavailable, what, err)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// Ping checks that the API server answers (/version).
func (r *Runtime) Ping(ctx context.Context) error {
	return r.call(ctx, "ping", func(ctx context.Context) error {
		_, err := r.serverVersion(ctx)
		return err
	})
}

// serverVersion asks /version within ctx (the discovery client's own
// call takes no context).
func (r *Runtime) serverVersion(ctx context.Context) (*version.Info, error) {
	rc := r.cs.Discovery().RESTClient()
	if rc == nil || reflect.ValueOf(rc).IsNil() { // the fake clientset's
		return r.cs.Discovery().ServerVersion()
	}
	body, err := rc.Get().AbsPath("/version").Do(ctx).Raw()
	if err != nil {
		return nil, err
	}
	var v version.Info
	if err := json.Unmarshal(body, &v); err != nil {
		return nil, fmt.Errorf("/version: %w", err)
	}
	return &v, nil
}

// Engine describes the cluster: the API server's version as APIVersion,
// and the container runtime, OS and architecture of its first ready
// node (the sandboxes' node pool is meant to be uniform). Init is true:
// a pod's shared process namespace has the pause process as PID 1.
func (r *Runtime) Engine(ctx context.Context) (sandbox.EngineInfo, error) {
	var info sandbox.EngineInfo
	err := r.call(ctx, "engine version", func(ctx context.Context) error {
		v, err := r.serverVersion(ctx)
		if err != nil {
			return err
		}
		info = sandbox.EngineInfo{Version: v.GitVersion, APIVersion: v.GitVersion, Init: true}
		if goos, arch, ok := strings.Cut(v.Platform, "/"); ok {
			info.OS, info.Arch = goos, arch
		}
		nodes, err := r.cs.CoreV1().Nodes().List(ctx, listOptions(""))
		if err != nil {
			// An executor allowed only into its namespace still runs.
			r.log.Debug("nodes not readable; engine version is the API server's", zap.Error(err))
			return nil
		}
		for _, n := range nodes.Items {
			ni := n.Status.NodeInfo
			if ni.ContainerRuntimeVersion != "" {
				info.Version, info.OS, info.Arch = ni.ContainerRuntimeVersion, ni.OperatingSystem, ni.Architecture
				break
			}
		}
		return nil
	})
	return info, err
}
