package sandbox

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"
)

// Pool keeps, per image, a few pre-created, started, hardened and never used
// containers, so a run can skip create and start. A pooled container has no
// network (it was created on the egress network and disconnected before it
// started, so an install step can attach it again), serves exactly one run
// and is then destroyed like any other. The pool refills in the background,
// never above its size, and Close removes what it holds. For images with
// greenlight-runner the pooled container's main process is the runner, its
// session held by the pool, so a run taking it starts no process with
// `docker exec` at all.
type Pool struct {
	rt      Runtime
	cfg     *Config
	self    Identity
	size    int
	maxAge  time.Duration
	log     *zap.Logger
	limits  Limits
	timeout time.Duration

	mu      sync.Mutex
	idle    map[string][]pooled // by image ref
	filling map[string]int      // creations in flight
	// staged holds containers with an owner's dependencies restored, by
	// stage tag (stage.go); staging counts those being prepared.
	staged  map[string][]pooled
	staging map[string]bool
	images  map[string]ImageInfo
	closed  bool
	wg      sync.WaitGroup
	ctx     context.Context
	cancel  context.CancelFunc

	// only, when set, are the image refs that may be pooled (see Only).
	only map[string]bool
}

type pooled struct {
	id      string
	created time.Time
	// imageID is the image the container was created from: a ref retagged
	// since (make images) does not get the old image's containers.
	imageID string
	// runner: created for greenlight-runner; sess: its session (the
	// container's main process, attached before start).
	runner bool
	sess   *session
	// deadline is when the container stops by itself (keepaliveCmd).
	deadline time.Time
	// staged is what was restored into a staged container (stage.go),
	// nil for a plain one.
	staged *staged
}

// PoolMaxAge is how long a pooled container may wait for a run before it is
// replaced. Its deadline (when it stops by itself, also its deadline label)
// leaves room after that for a run with the default budget.
const PoolMaxAge = time.Hour

// NewPool returns a pool of size containers per image with the default
// limits of cfg; size 0 disables pooling.
func NewPool(rt Runtime, cfg Config, self Identity, size int, log *zap.Logger) *Pool {
	ctx, cancel := context.WithCancel(context.Background())
	limits, _ := cfg.limits(Limits{})
	return &Pool{
		rt: rt, cfg: &cfg, self: self, size: size, maxAge: PoolMaxAge, log: log,
		limits: limits, timeout: 30 * time.Second,
		idle: map[string][]pooled{}, filling: map[string]int{}, images: map[string]ImageInfo{},
		staged: map[string][]pooled{}, staging: map[string]bool{},
		ctx: ctx, cancel: cancel,
	}
}

// Only restricts pooling to refs (the executor's configured image table):
// a run in any other image gets a fresh container and its image never joins
// the pool, so the images a repository selects cannot make the executor
// hold containers for them. Without a call every image a run uses is pooled.
func (p *Pool) Only(refs ...string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.only = map[string]bool{}
	for _, r := range refs {
		p.only[r] = true
	}
}

// poolable says whether ref may be pooled; p.mu is held.
func (p *Pool) poolable(ref string) bool { return p.only == nil || p.only[ref] }

// Warm starts filling the pool for img in the background.
func (p *Pool) Warm(img ImageInfo) {
	if p == nil || p.size <= 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || !p.poolable(img.Ref) {
		return
	}
	p.images[img.Ref] = img
	p.refillLocked(img.Ref)
}

// take returns an idle container for img when one with lim (and made for
// the runner exactly when runner is set) is available and lives until at
// least until (the run's deadline). The caller owns the
// container from then on, and calls refill when its run is over: refilling
// while the run executes would compete with it for the engine on the run's
// critical path.
func (p *Pool) take(img ImageInfo, lim Limits, runner bool, until time.Time) (pooled, bool) {
	if p == nil || p.size <= 0 || !sameContainerLimits(lim, p.limits) {
		return pooled{}, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || !p.poolable(img.Ref) {
		return pooled{}, false
	}
	p.images[img.Ref] = img
	for list := p.idle[img.Ref]; len(list) > 0; list = p.idle[img.Ref] {
		c := list[0]
		p.idle[img.Ref] = list[1:]
		// A runner container whose session ended has stopped with it.
		live := !c.runner || (c.sess != nil && c.sess.alive())
		if time.Since(c.created) < p.maxAge && !c.deadline.Before(until) && c.imageID == img.ID && c.runner == runner && live {
			return c, true
		}
		p.removeAsync(c)
	}
	return pooled{}, false
}

// refill tops the pool for ref up in the background.
func (p *Pool) refill(ref string) {
	if p == nil || p.size <= 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.closed {
		if _, ok := p.images[ref]; ok {
			p.refillLocked(ref)
		}
	}
}

// refillLocked starts creations until idle plus in-flight reach the size.
func (p *Pool) refillLocked(ref string) {
	for len(p.idle[ref])+p.filling[ref] < p.size {
		p.filling[ref]++
		img := p.images[ref]
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			c, err := p.create(img)
			p.mu.Lock()
			defer p.mu.Unlock()
			p.filling[ref]--
			switch {
			case err != nil:
				if p.ctx.Err() == nil {
					p.log.Warn("warm pool: creating a container failed", zap.String("image", ref), zap.Error(err))
				}
			case p.closed:
				p.removeAsync(c)
			default:
				p.idle[ref] = append(p.idle[ref], c)
			}
		}()
	}
}

// create makes one pooled container: created on the egress network,
// attached to its greenlight-runner when the image uses one, disconnected,
// started, and prepared (LabelPrepare). A runner that does not start fails
// the creation (the run then creates its own sandbox).
func (p *Pool) create(img ImageInfo) (pooled, error) {
	ctx, cancel := context.WithTimeout(p.ctx, p.timeout)
	defer cancel()
	runner, err := p.cfg.usesRunner(img)
	if err != nil {
		return pooled{}, err
	}
	// The container stops by itself at its deadline, whether or not this
	// process is still alive to remove it.
	lifetime := p.maxAge + p.limits.RunTimeout + p.cfg.DeadlineGrace
	deadline := time.Now().Add(lifetime)
	labels := p.self.labels(deadline)
	labels[LabelRun], labels[LabelOwner], labels[LabelPool] = poolRunValue, p.cfg.Owner, img.Ref
	spec := hardenedSpec(img.Ref, p.limits, labels, p.cfg.EgressNetwork, baseEnv(img), runner, lifetime)
	spec.Name = poolContainerName(img.Ref)
	p.cfg.adjustSpec(&spec)
	id, err := p.rt.Create(ctx, spec)
	if err != nil {
		return pooled{}, err
	}
	c := pooled{id: id, imageID: img.ID, runner: runner, deadline: deadline}
	if c.sess, err = startBox(ctx, p.rt, id, runner, p.cfg.EgressNetwork); err != nil {
		p.removeAsync(c)
		return pooled{}, err
	}
	prepareBox(ctx, p.rt, id, c.sess, img, p.log)
	c.created = time.Now()
	return c, nil
}

// removeAsync removes a container (and ends its runner session) in the
// background, tracked by Close.
func (p *Pool) removeAsync(c pooled) {
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		ctx, cancel := context.WithTimeout(context.Background(), p.timeout)
		defer cancel()
		if c.sess != nil {
			c.sess.close() // the runner ends, and the container stops
		}
		if err := p.rt.Remove(ctx, c.id); err != nil {
			p.log.Warn("warm pool: removing a container failed", zap.String("container", shortID(c.id)), zap.Error(err))
		}
		if c.sess != nil {
			c.sess.wait(p.timeout)
		}
	}()
}

// Idle returns how many idle containers the pool holds for ref.
func (p *Pool) Idle(ref string) int {
	if p == nil {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.idle[ref])
}

// Close stops refilling, removes every idle container and waits for
// in-flight work, so a one-shot process leaves nothing behind.
func (p *Pool) Close() {
	if p == nil {
		return
	}
	p.mu.Lock()
	if !p.closed {
		p.closed = true
		p.cancel()
		for ref, list := range p.idle {
			for _, c := range list {
				p.removeAsync(c)
			}
			delete(p.idle, ref)
		}
		for tag, list := range p.staged {
			for _, c := range list {
				p.removeAsync(c)
			}
			delete(p.staged, tag)
		}
	}
	p.mu.Unlock()
	p.wg.Wait()
}

// sameContainerLimits reports whether a container created with b can serve
// a run that asked for a (the limits fixed at creation time).
func sameContainerLimits(a, b Limits) bool {
	return a.CPUs == b.CPUs && a.MemoryBytes == b.MemoryBytes && a.Pids == b.Pids &&
		a.TmpfsBytes == b.TmpfsBytes && a.HomeBytes == b.HomeBytes && a.WorkspaceBytes == b.WorkspaceBytes
}

// poolContainerName is a readable, unique name for a pooled container:
// greenlight-pool-IMAGE-RANDOM, IMAGE the ref's last path element with its
// tag unless that is "latest" (sandbox-python, python-3.12-slim), so
// `docker ps` says what the pool holds.
func poolContainerName(ref string) string {
	name, _, _ := strings.Cut(ref, "@")
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	name = strings.TrimSuffix(name, ":latest")
	name = strings.Trim(containerNameRE.ReplaceAllString(name, "-"), "-.")
	if len(name) > 40 {
		name = name[:40]
	}
	if name == "" {
		name = "image"
	}
	var rnd [4]byte
	_, _ = rand.Read(rnd[:])
	return "greenlight-pool-" + name + "-" + hex.EncodeToString(rnd[:])
}
