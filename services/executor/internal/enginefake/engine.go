package enginefake

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"

	"github.com/greenlight-dev/greenlight/services/executor/internal/runnerproto"
	"github.com/greenlight-dev/greenlight/services/executor/internal/sandbox"
)

// Engine is the fake engine. Its methods are safe for concurrent use.
type Engine struct {
	base string // host directory holding the containers' trees

	mu         sync.Mutex
	info       sandbox.EngineInfo
	images     map[string]sandbox.ImageInfo
	remote     map[string]sandbox.ImageInfo
	networks   map[string]bool
	containers map[string]*container
	order      []string // container ids in creation order
	seq        int
	hello      int
	rec        recorder
	faults     faults
}

var (
	_ sandbox.Runtime = (*Engine)(nil)
	_ sandbox.Puller  = (*Engine)(nil)
)

// New returns an engine with no image, the networks "bridge" and "host",
// and a description of a Linux engine with an init binary. Close removes
// what it left on the host.
func New() (*Engine, error) {
	base, err := os.MkdirTemp("", "greenlight-enginefake-")
	if err != nil {
		return nil, fmt.Errorf("enginefake: %w", err)
	}
	// Processes run as the sandbox user when the test is root: it must be
	// able to reach the containers' trees.
	if err := os.Chmod(base, 0o755); err != nil {
		return nil, fmt.Errorf("enginefake: %w", err)
	}
	return &Engine{
		base:   base,
		info:   sandbox.EngineInfo{Version: "fake", APIVersion: "1.47", OS: "linux", Arch: runtime.GOARCH, Init: true},
		images: map[string]sandbox.ImageInfo{}, remote: map[string]sandbox.ImageInfo{},
		networks: map[string]bool{"bridge": true, "host": true}, containers: map[string]*container{},
		hello: runnerproto.Version,
	}, nil
}

// Close removes every container (killing its processes) and the trees.
func (e *Engine) Close() error {
	for _, c := range e.Containers() {
		_ = e.remove(c.ID)
	}
	return removeTree(e.base)
}

// NewImage describes an image: ref, an ID derived from it, a PATH, and
// with runner the label that says it carries greenlight-runner.
func NewImage(ref string, runner bool) sandbox.ImageInfo {
	sum := sha256.Sum256([]byte(ref))
	img := sandbox.ImageInfo{
		Ref: ref, ID: "sha256:" + hex.EncodeToString(sum[:]), OS: "linux", Arch: runtime.GOARCH,
		Env:    []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
		Labels: map[string]string{},
	}
	img.Digest = img.ID
	if runner {
		img.Labels[runnerproto.LabelRunner] = strconv.Itoa(runnerproto.Version)
	}
	return img
}

// Add makes the engine have img (replacing an image of the same ref).
func (e *Engine) Add(img sandbox.ImageInfo) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.images[img.Ref] = img
}

// AddRemote makes img available to Pull (the engine does not have it yet).
func (e *Engine) AddRemote(img sandbox.ImageInfo) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.remote[img.Ref] = img
}

// AddNetwork creates a network containers can be created on or connected
// to.
func (e *Engine) AddNetwork(name string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.networks[name] = true
}

// SetInfo replaces the engine's description (Init false: no docker-init).
func (e *Engine) SetInfo(info sandbox.EngineInfo) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.info = info
}

// SetHelloProtocol makes every runner started from now on announce
// protocol version v instead of runnerproto.Version (a stale image).
func (e *Engine) SetHelloProtocol(v int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.hello = v
}

// Ping answers unless the engine is down.
func (e *Engine) Ping(ctx context.Context) error {
	return e.enter(ctx, OpPing, "", "")
}

// Engine returns the engine's description.
func (e *Engine) Engine(ctx context.Context) (sandbox.EngineInfo, error) {
	if err := e.enter(ctx, OpEngine, "", ""); err != nil {
		return sandbox.EngineInfo{}, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.info, nil
}

// Image describes a local image; ErrImageNotFound when there is none.
func (e *Engine) Image(ctx context.Context, ref string) (sandbox.ImageInfo, error) {
	if err := e.enter(ctx, OpImage, "", ref); err != nil {
		return sandbox.ImageInfo{}, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	img, ok := e.images[ref]
	if !ok {
		return sandbox.ImageInfo{}, fmt.Errorf("%w: %s", sandbox.ErrImageNotFound, ref)
	}
	return img, nil
}

// Pull fetches an image registered with AddRemote.
func (e *Engine) Pull(ctx context.Context, ref string) error {
	if err := e.enter(ctx, OpPull, "", ref); err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	img, ok := e.remote[ref]
	if !ok {
		return fmt.Errorf("pull access denied for %s, repository does not exist", ref)
	}
	e.images[ref] = img
	return nil
}
