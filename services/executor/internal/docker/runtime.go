// Package docker implements sandbox.Runtime with the Docker Engine API. It
// is the only package of greenlight that imports the Docker client; it maps
// the sandbox's plain specs one to one and adds no policy of its own.
package docker

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/network"
	"github.com/docker/docker/client"
	"go.uber.org/zap"

	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// DefaultCallTimeout bounds every non-streaming Engine API call, so a
// paused or wedged engine turns into sandbox.ErrEngineUnavailable instead
// of a hang.
const DefaultCallTimeout = 30 * time.Second

// engineTTL is how long Engine answers from its last version call. The
// Engine API's version call has the daemon run runc and docker-init to ask
// theirs (10-20 ms, on every run's critical path: the loop's capacity poll
// and each run's preflight ask); within the TTL a ping, which still finds
// a dead or wedged engine, suffices while the engine's API version is the
// one recorded (an upgraded daemon has another).
const engineTTL = time.Minute

// Runtime talks to one Docker engine.
type Runtime struct {
	cli        *client.Client
	log        *zap.Logger
	timeout    time.Duration
	negotiated atomic.Bool

	engineMu sync.Mutex
	engine   sandbox.EngineInfo
	engineAt time.Time
	// engineAsk is the version call in flight, which concurrent Engine
	// calls share (a one-shot process's first capacity poll and its run's
	// preflight ask at once); onJoin, in tests, sees a call join it.
	engineAsk *engineAsk
	onJoin    func()
}

// engineAsk is one version call and, once done is closed, its answer.
type engineAsk struct {
	done chan struct{}
	info sandbox.EngineInfo
	err  error
}

var _ sandbox.Runtime = (*Runtime)(nil)

// New connects to the engine at host ("" means DOCKER_HOST or the default
// socket), negotiating the API version (engines from 20.10, API 1.41, on).
func New(host string, log *zap.Logger) (*Runtime, error) {
	opts := []client.Opt{client.FromEnv, client.WithAPIVersionNegotiation()}
	if host != "" {
		opts = append(opts, client.WithHost(host))
	}
	cli, err := client.NewClientWithOpts(opts...)
	if err != nil {
		return nil, fmt.Errorf("docker client for %q: %w", host, err)
	}
	return &Runtime{cli: cli, log: log, timeout: DefaultCallTimeout}, nil
}

// Close releases the client's connections.
func (r *Runtime) Close() error { return r.cli.Close() }

// call runs fn with the call timeout and maps its error.
func (r *Runtime) call(ctx context.Context, what string, fn func(ctx context.Context) error) error {
	cctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	err := r.negotiate(cctx)
	if err == nil {
		err = fn(cctx)
	}
	if err == nil {
		return nil
	}
	if ctx.Err() == nil && cctx.Err() != nil {
		return fmt.Errorf("%w: %s: no answer within %s", sandbox.ErrEngineUnavailable, what, r.timeout)
	}
	return mapErr(what, err)
}

// negotiate settles the API version once, with the caller's deadline. The
// client's own lazy negotiation holds a lock while it waits for the engine,
// regardless of the waiting callers' contexts, so against a wedged engine
// every call would queue behind the first; negotiating here keeps each call
// bounded by its own context.
func (r *Runtime) negotiate(ctx context.Context) error {
	if r.negotiated.Load() {
		return nil
	}
	p, err := r.cli.Ping(ctx)
	if err != nil {
		return err
	}
	r.cli.NegotiateAPIVersionPing(p)
	r.negotiated.Store(true)
	return nil
}

// mapErr turns engine errors into the sandbox's sentinels.
func mapErr(what string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%s: %w", what, err)
	case client.IsErrConnectionFailed(err), isDialErr(err):
		return fmt.Errorf("%w: %s: %v", sandbox.ErrEngineUnavailable, what, err)
	case cerrdefs.IsNotFound(err):
		return fmt.Errorf("%w: %s: %v", sandbox.ErrContainerNotFound, what, err)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// isDialErr reports a connection to the engine that could not be made.
// Hijacked calls (attach, exec start) dial on their own and report it so,
// not as the client's connection error.
func isDialErr(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// Ping checks that the engine answers.
func (r *Runtime) Ping(ctx context.Context) error {
	return r.call(ctx, "ping", func(ctx context.Context) error {
		_, err := r.cli.Ping(ctx)
		return err
	})
}

// Engine describes the engine: from the last answer within engineTTL when
// a ping says the engine still answers with the same API version, else
// from a version call.
func (r *Runtime) Engine(ctx context.Context) (sandbox.EngineInfo, error) {
	r.engineMu.Lock()
	info, at := r.engine, r.engineAt
	r.engineMu.Unlock()
	if !at.IsZero() && time.Since(at) < engineTTL {
		var api string
		err := r.call(ctx, "ping", func(ctx context.Context) error {
			p, err := r.cli.Ping(ctx)
			api = p.APIVersion
			return err
		})
		if err != nil {
			return sandbox.EngineInfo{}, err
		}
		if api == info.APIVersion {
			return info, nil
		}
	}
	return r.askEngine(ctx)
}

// askEngine makes the version call and records its answer, or joins the
// one in flight; a joined call that failed (its caller's context may have
// ended) is made again with this caller's.
func (r *Runtime) askEngine(ctx context.Context) (sandbox.EngineInfo, error) {
	r.engineMu.Lock()
	if a := r.engineAsk; a != nil {
		r.engineMu.Unlock()
		if r.onJoin != nil {
			r.onJoin()
		}
		select {
		case <-a.done:
			if a.err == nil {
				return a.info, nil
			}
		case <-ctx.Done():
			return sandbox.EngineInfo{}, fmt.Errorf("engine version: %w", ctx.Err())
		}
		return r.engineVersion(ctx)
	}
	a := &engineAsk{done: make(chan struct{})}
	r.engineAsk = a
	r.engineMu.Unlock()
	a.info, a.err = r.engineVersion(ctx)
	r.engineMu.Lock()
	r.engineAsk = nil
	if a.err == nil {
		r.engine, r.engineAt = a.info, time.Now()
	}
	r.engineMu.Unlock()
	close(a.done)
	return a.info, a.err
}

// engineVersion asks the engine's version call.
func (r *Runtime) engineVersion(ctx context.Context) (sandbox.EngineInfo, error) {
	var info sandbox.EngineInfo
	err := r.call(ctx, "engine version", func(ctx context.Context) error {
		v, err := r.cli.ServerVersion(ctx)
		if err != nil {
			return err
		}
		info = sandbox.EngineInfo{Version: v.Version, APIVersion: v.APIVersion, OS: v.Os, Arch: v.Arch}
		for _, c := range v.Components {
			if c.Name == "docker-init" {
				info.Init = true
			}
		}
		return nil
	})
	return info, err
}

// Image describes a local image; it never pulls.
func (r *Runtime) Image(ctx context.Context, ref string) (sandbox.ImageInfo, error) {
	var info sandbox.ImageInfo
	err := r.call(ctx, "image inspect", func(ctx context.Context) error {
		img, err := r.cli.ImageInspect(ctx, ref)
		if err != nil {
			return err
		}
		info = sandbox.ImageInfo{Ref: ref, ID: img.ID, Digest: img.ID, OS: img.Os, Arch: img.Architecture}
		if len(img.RepoDigests) > 0 {
			info.Digest = img.RepoDigests[0]
		}
		if img.Config != nil {
			info.Env, info.Labels = img.Config.Env, img.Config.Labels
		}
		return nil
	})
	if errors.Is(err, sandbox.ErrContainerNotFound) {
		return info, fmt.Errorf("%w: %s", sandbox.ErrImageNotFound, ref)
	}
	return info, err
}

// Create creates a container from spec, field by field.
func (r *Runtime) Create(ctx context.Context, spec sandbox.ContainerSpec) (string, error) {
	network := spec.Network
	if network == "" {
		network = "none"
	}
	initProc := spec.Init
	pids := spec.PidsLimit
	cfg := &container.Config{
		Image:      spec.Image,
		Entrypoint: spec.Entrypoint,
		Cmd:        spec.Cmd,
		User:       spec.User,
		WorkingDir: spec.WorkDir,
		Env:        spec.Env,
		Labels:     spec.Labels,
		// Attached before start; closed by the engine when the
		// attachment ends (StdinOnce).
		OpenStdin: spec.OpenStdin, StdinOnce: spec.OpenStdin,
		AttachStdin: spec.OpenStdin, AttachStdout: spec.OpenStdin, AttachStderr: spec.OpenStdin,
	}
	host := &container.HostConfig{
		NetworkMode:    container.NetworkMode(network),
		ReadonlyRootfs: spec.ReadonlyRootfs,
		Tmpfs:          spec.Tmpfs,
		CapDrop:        spec.CapDrop,
		CapAdd:         spec.CapAdd,
		SecurityOpt:    spec.SecurityOpt,
		Init:           &initProc,
		IpcMode:        container.IPCModePrivate,
		Sysctls:        spec.Sysctls,
		// Exec output never reaches the container log; the main process
		// prints nothing. No log files on the host.
		LogConfig: container.LogConfig{Type: "none"},
		Resources: container.Resources{
			NanoCPUs:   spec.NanoCPUs,
			Memory:     spec.MemoryBytes,
			MemorySwap: spec.MemoryBytes,
			PidsLimit:  &pids,
			Ulimits:    []*container.Ulimit{{Name: "core", Soft: 0, Hard: 0}},
		},
	}
	var id string
	err := r.call(ctx, "container create", func(ctx context.Context) error {
		resp, err := r.cli.ContainerCreate(ctx, cfg, host, nil, nil, spec.Name)
		id = resp.ID
		return err
	})
	if errors.Is(err, sandbox.ErrContainerNotFound) {
		return "", fmt.Errorf("%w: %s", sandbox.ErrImageNotFound, spec.Image)
	}
	return id, err
}

// Start starts a created container.
func (r *Runtime) Start(ctx context.Context, id string) error {
	return r.call(ctx, "container start", func(ctx context.Context) error {
		return r.cli.ContainerStart(ctx, id, container.StartOptions{})
	})
}

// Connect attaches a container to a network.
func (r *Runtime) Connect(ctx context.Context, id, network string) error {
	return r.call(ctx, "network connect", func(ctx context.Context) error {
		return r.cli.NetworkConnect(ctx, network, id, nil)
	})
}

// Disconnect detaches a container from a network.
func (r *Runtime) Disconnect(ctx context.Context, id, network string) error {
	return r.call(ctx, "network disconnect", func(ctx context.Context) error {
		return r.cli.NetworkDisconnect(ctx, network, id, true)
	})
}

// State inspects a container.
func (r *Runtime) State(ctx context.Context, id string) (sandbox.ContainerState, error) {
	var st sandbox.ContainerState
	err := r.call(ctx, "container inspect", func(ctx context.Context) error {
		c, err := r.cli.ContainerInspect(ctx, id)
		if err != nil {
			return err
		}
		if c.State != nil {
			st = sandbox.ContainerState{Running: c.State.Running, OOMKilled: c.State.OOMKilled, ExitCode: c.State.ExitCode}
		}
		return nil
	})
	return st, err
}

// Remove kills and removes a container with its anonymous volumes.
func (r *Runtime) Remove(ctx context.Context, id string) error {
	err := r.call(ctx, "container remove", func(ctx context.Context) error {
		return r.cli.ContainerRemove(ctx, id, container.RemoveOptions{Force: true, RemoveVolumes: true})
	})
	switch {
	case errors.Is(err, sandbox.ErrContainerNotFound):
		return nil
	case err != nil && strings.Contains(err.Error(), "already in progress"):
		return nil
	}
	return err
}

// List returns the containers carrying label (key or key=value).
func (r *Runtime) List(ctx context.Context, label string) ([]sandbox.ContainerInfo, error) {
	var out []sandbox.ContainerInfo
	err := r.call(ctx, "container list", func(ctx context.Context) error {
		list, err := r.cli.ContainerList(ctx, container.ListOptions{All: true, Filters: filters.NewArgs(filters.Arg("label", label))})
		if err != nil {
			return err
		}
		for _, c := range list {
			info := sandbox.ContainerInfo{ID: c.ID, Labels: c.Labels, Created: time.Unix(c.Created, 0), State: c.State}
			if len(c.Names) > 0 {
				info.Name = strings.TrimPrefix(c.Names[0], "/")
			}
			out = append(out, info)
		}
		return nil
	})
	return out, err
}

// EnsureNetwork creates a bridge network with options and labels unless one
// with that name exists, and returns the labels of the one that exists.
func (r *Runtime) EnsureNetwork(ctx context.Context, name string, options, labels map[string]string) (map[string]string, error) {
	var got map[string]string
	err := r.call(ctx, "network create", func(ctx context.Context) error {
		if n, err := r.cli.NetworkInspect(ctx, name, network.InspectOptions{}); err == nil {
			got = n.Labels
			return nil
		}
		_, err := r.cli.NetworkCreate(ctx, name, network.CreateOptions{Driver: "bridge", Options: options, Labels: labels})
		if err != nil && cerrdefs.IsConflict(err) {
			// Created meanwhile by another executor: report its labels.
			n, ierr := r.cli.NetworkInspect(ctx, name, network.InspectOptions{})
			got = n.Labels
			return ierr
		}
		got = labels
		return err
	})
	return got, err
}

// RemoveNetwork removes a network; a missing one is not an error.
func (r *Runtime) RemoveNetwork(ctx context.Context, name string) error {
	err := r.call(ctx, "network remove", func(ctx context.Context) error {
		return r.cli.NetworkRemove(ctx, name)
	})
	if errors.Is(err, sandbox.ErrContainerNotFound) {
		return nil
	}
	return err
}

// NetworkLabels returns the labels of every network carrying label.
func (r *Runtime) NetworkLabels(ctx context.Context, label string) ([]map[string]string, error) {
	var out []map[string]string
	err := r.call(ctx, "network list", func(ctx context.Context) error {
		list, err := r.cli.NetworkList(ctx, network.ListOptions{Filters: filters.NewArgs(filters.Arg("label", label))})
		for _, n := range list {
			out = append(out, n.Labels)
		}
		return err
	})
	return out, err
}

// NetworkGateway returns the IPv4 gateway of a network (the host as seen
// from its containers).
func (r *Runtime) NetworkGateway(ctx context.Context, name string) (string, error) {
	var gw string
	err := r.call(ctx, "network inspect", func(ctx context.Context) error {
		n, err := r.cli.NetworkInspect(ctx, name, network.InspectOptions{})
		if err != nil {
			return err
		}
		for _, c := range n.IPAM.Config {
			if c.Gateway != "" {
				gw = c.Gateway
				return nil
			}
		}
		return fmt.Errorf("network %s has no gateway", name)
	})
	return gw, err
}
