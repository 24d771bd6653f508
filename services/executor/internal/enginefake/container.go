package enginefake

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/greenlight-dev/greenlight/services/executor/internal/runnerproto"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// Container states, as List reports them.
const (
	StateCreated = "created"
	StateRunning = "running"
	StateExited  = "exited"
)

// container is one container; its fields are guarded by Engine.mu.
type container struct {
	id      string
	spec    sandbox.ContainerSpec
	image   sandbox.ImageInfo
	root    *tree
	created time.Time
	state   string
	code    int
	oom     bool
	removed bool
	// networks it is attached to now.
	networks map[string]bool
	// attach is the attachment to its main process's standard streams,
	// nil before Attach; main is the runner serving it once started.
	attach *attachment
	main   *runner
	procs  map[*hostProc]bool
}

// Create creates a container from a recorded copy of spec.
func (e *Engine) Create(ctx context.Context, spec sandbox.ContainerSpec) (string, error) {
	if err := e.enter(ctx, OpCreate, "", spec.Image); err != nil {
		return "", err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	img, ok := e.images[spec.Image]
	switch {
	case !ok:
		return "", fmt.Errorf("%w: %s", sandbox.ErrImageNotFound, spec.Image)
	case spec.Network != "" && !e.networks[spec.Network]:
		return "", fmt.Errorf("enginefake: network %s not found", spec.Network)
	case spec.Name != "" && e.named(spec.Name):
		return "", fmt.Errorf("enginefake: conflict: the container name %q is already in use", spec.Name)
	}
	e.seq++
	sum := sha256.Sum256(fmt.Appendf(nil, "%d/%s", e.seq, spec.Name))
	id := hex.EncodeToString(sum[:])
	root, err := newTree(e.base, id[:12], spec.Tmpfs)
	if err != nil {
		return "", err
	}
	spec = cloneSpec(spec)
	c := &container{id: id, spec: spec, image: img, root: root, created: time.Now(), state: StateCreated,
		networks: map[string]bool{}, procs: map[*hostProc]bool{}}
	if spec.Network != "" {
		c.networks[spec.Network] = true
	}
	e.containers[id] = c
	e.order = append(e.order, id)
	e.rec.specs = append(e.rec.specs, cloneSpec(spec))
	return id, nil
}

// named reports whether a live container has name; e.mu is held.
func (e *Engine) named(name string) bool {
	for _, c := range e.containers {
		if c.spec.Name == name {
			return true
		}
	}
	return false
}

// lookup returns container id; e.mu is held.
func (e *Engine) lookup(id string) (*container, error) {
	c := e.containers[id]
	if c == nil {
		return nil, fmt.Errorf("%w: %s", sandbox.ErrContainerNotFound, id)
	}
	return c, nil
}

// Start starts a created container. One whose entry point is the runner
// runs the fake runner on its attachment; an image without the runner
// cannot start it, as the engine cannot exec a missing binary.
func (e *Engine) Start(ctx context.Context, id string) error {
	if err := e.enter(ctx, OpStart, id, ""); err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	c, err := e.lookup(id)
	if err != nil {
		return err
	}
	if c.state != StateCreated {
		return fmt.Errorf("enginefake: container %s is %s, not created", shortID(id), c.state)
	}
	if !c.runsRunner() {
		c.state = StateRunning // the keepalive process: it runs until Remove
		return nil
	}
	if c.image.Labels[runnerproto.LabelRunner] == "" {
		c.exit(127, false)
		return fmt.Errorf("enginefake: OCI runtime create failed: exec: %q: stat %s: no such file or directory",
			runnerproto.Path, runnerproto.Path)
	}
	c.state = StateRunning
	c.main = newRunner(e, c, e.hello)
	go c.main.serve()
	return nil
}

// runsRunner says the container's main process is greenlight-runner.
func (c *container) runsRunner() bool {
	return len(c.spec.Entrypoint) > 0 && c.spec.Entrypoint[0] == runnerproto.Path
}

// exit records the end of the main process and ends its attachment; e.mu
// is held.
func (c *container) exit(code int, oom bool) {
	if c.state == StateExited {
		return
	}
	c.state, c.code, c.oom = StateExited, code, c.oom || oom
	if c.attach != nil {
		c.attach.end()
	}
}

// State inspects a container.
func (e *Engine) State(ctx context.Context, id string) (sandbox.ContainerState, error) {
	if err := e.enter(ctx, OpState, id, ""); err != nil {
		return sandbox.ContainerState{}, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	c, err := e.lookup(id)
	if err != nil {
		return sandbox.ContainerState{}, err
	}
	return sandbox.ContainerState{Running: c.state == StateRunning, OOMKilled: c.oom, ExitCode: c.code}, nil
}

// Remove kills every process of a container and forgets it; its tree is
// deleted once they are gone. A missing container is not an error.
func (e *Engine) Remove(ctx context.Context, id string) error {
	if err := e.enter(ctx, OpRemove, id, ""); err != nil {
		return err
	}
	return e.remove(id)
}

// remove is Remove without the call record.
func (e *Engine) remove(id string) error {
	e.mu.Lock()
	c := e.containers[id]
	if c == nil {
		e.mu.Unlock()
		return nil
	}
	delete(e.containers, id)
	c.removed = true
	procs := slices.Collect(maps.Keys(c.procs))
	c.exit(137, false) // SIGKILL, as `docker rm -f` ends a main process
	e.mu.Unlock()
	for _, p := range procs {
		p.kill()
	}
	for _, p := range procs {
		p.wait(killWait)
	}
	return c.root.remove()
}

// killWait bounds how long Remove waits for a killed process to be reaped.
const killWait = 5 * time.Second

// Crash ends container id's main process as the kernel would: every
// process of the container is killed, the container exits with code, and
// with oom the engine flags it OOMKilled (the OOM killer chose the main
// process or the runner).
func (e *Engine) Crash(id string, code int, oom bool) error {
	e.mu.Lock()
	c, err := e.lookup(id)
	if err != nil {
		e.mu.Unlock()
		return err
	}
	// The main process goes first: nothing it would have reported about
	// the others reaches the executor.
	c.exit(code, oom)
	procs := slices.Collect(maps.Keys(c.procs))
	e.mu.Unlock()
	for _, p := range procs {
		p.kill()
	}
	for _, p := range procs {
		p.wait(killWait)
	}
	return nil
}

// List returns the containers carrying label (key or key=value), in
// creation order.
func (e *Engine) List(ctx context.Context, label string) ([]sandbox.ContainerInfo, error) {
	if err := e.enter(ctx, OpList, "", label); err != nil {
		return nil, err
	}
	key, value, exact := strings.Cut(label, "=")
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []sandbox.ContainerInfo
	for _, id := range e.order {
		c := e.containers[id]
		if c == nil {
			continue
		}
		v, ok := c.spec.Labels[key]
		if !ok || (exact && v != value) {
			continue
		}
		out = append(out, sandbox.ContainerInfo{ID: id, Name: c.spec.Name, Labels: maps.Clone(c.spec.Labels),
			Created: c.created, State: c.state})
	}
	return out, nil
}

// Connect attaches a container to a network.
func (e *Engine) Connect(ctx context.Context, id, network string) error {
	if err := e.enter(ctx, OpConnect, id, network); err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	c, err := e.lookup(id)
	switch {
	case err != nil:
		return err
	case !e.networks[network]:
		return fmt.Errorf("enginefake: network %s not found", network)
	case c.spec.Network == "":
		// Created without any network: it has no way to get one.
		return fmt.Errorf("enginefake: container %s has networking disabled", shortID(id))
	case c.networks[network]:
		return fmt.Errorf("enginefake: endpoint for %s already exists in network %s", shortID(id), network)
	}
	c.networks[network] = true
	return nil
}

// Disconnect detaches a container from a network.
func (e *Engine) Disconnect(ctx context.Context, id, network string) error {
	if err := e.enter(ctx, OpDisconnect, id, network); err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	c, err := e.lookup(id)
	if err != nil {
		return err
	}
	if !c.networks[network] {
		return fmt.Errorf("enginefake: container %s is not connected to network %s", shortID(id), network)
	}
	delete(c.networks, network)
	return nil
}

// shortID abbreviates a container id for messages.
func shortID(id string) string { return id[:min(12, len(id))] }
