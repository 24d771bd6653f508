package sandbox

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/greenlight-dev/greenlight/pkg/blob"
)

// preflightTimeout bounds the engine and image checks before a run, so a
// paused or dead engine fails the RPC fast instead of hanging it.
const preflightTimeout = 5 * time.Second

// storeTimeout bounds storing logs after a run (also after a cancellation).
const storeTimeout = 30 * time.Second

// Runner executes pipelines in sandbox containers.
type Runner struct {
	cfg    Config
	rt     Runtime
	blobs  Blobs
	cache  DepCache
	pool   *Pool
	self   Identity
	log    *zap.Logger
	caBase []byte

	cleanups sync.WaitGroup
}

// Option configures a Runner.
type Option func(*Runner)

// WithPool lets runs take pre-started containers from p.
func WithPool(p *Pool) Option { return func(r *Runner) { r.pool = p } }

// WithDepCache enables dependency reuse for install steps.
func WithDepCache(c DepCache) Option { return func(r *Runner) { r.cache = c } }

// WithLogger sets the logger (default: no logging).
func WithLogger(l *zap.Logger) Option { return func(r *Runner) { r.log = l } }

// WithIdentity sets the identity written into container labels (default:
// the current process).
func WithIdentity(id Identity) Option { return func(r *Runner) { r.self = id } }

// NewRunner returns a Runner using rt for containers and blobs for
// snapshots and logs.
func NewRunner(cfg Config, rt Runtime, blobs Blobs, opts ...Option) (*Runner, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("sandbox config: %w", err)
	}
	r := &Runner{cfg: cfg, rt: rt, blobs: blobs, self: SelfIdentity(), log: zap.NewNop()}
	for _, o := range opts {
		o(r)
	}
	if cfg.CABundlePath != "" {
		pem, err := os.ReadFile(cfg.CABundlePath)
		if err != nil {
			return nil, fmt.Errorf("sandbox config: CA bundle: %w", err)
		}
		r.caBase = pem
	}
	return r, nil
}

// Config returns the runner's configuration.
func (r *Runner) Config() Config { return r.cfg }

// Wait blocks until the background removal of finished runs' containers is
// done.
func (r *Runner) Wait() { r.cleanups.Wait() }

// run is the state of one Run call.
type run struct {
	r      *Runner
	req    Request
	lim    Limits
	log    *zap.Logger
	em     *emitter
	engine EngineInfo
	images map[string]ImageInfo
	// runners says, per image, whether its sandbox uses greenlight-runner.
	runners map[string]bool
	// missing holds, per image the engine lacks, what the user must do;
	// the steps in that image end ERROR and only their failure scope stops.
	missing map[string]string
	snap    snapshotInfo
	caPEM   []byte
	start   time.Time
	results []StepResult
	notes   [][]string

	mu      sync.Mutex
	boxes   []*box
	byImg   map[string]*box
	reports []Report

	combined *combinedLog
}

// Run executes req, sending events to sink, and returns the result. Errors
// (wrapping the package's sentinels) mean the run could not start: a bad
// request or snapshot (then no container was created), a missing image, an
// engine that does not answer. Once steps run, every outcome (failures,
// timeouts, cancellation) is in the Result.
func (r *Runner) Run(ctx context.Context, req Request, sink Sink) (*Result, error) {
	if err := req.validate(); err != nil {
		return nil, err
	}
	if err := req.Snapshot.Validate(); err != nil {
		return nil, fmt.Errorf("%w: snapshot: %w", ErrInvalidRequest, err)
	}
	rn := &run{
		r: r, req: req, byImg: map[string]*box{},
		log:     r.log.With(zap.String("run_id", req.RunID)),
		results: make([]StepResult, len(req.Steps)), notes: make([][]string, len(req.Steps)),
	}
	var limitsNote string
	if rn.lim, limitsNote = r.cfg.limits(req.Limits); limitsNote != "" {
		rn.note(0, limitsNote) // in the combined log, after the first step
	}
	if err := rn.preflight(ctx); err != nil {
		return nil, err
	}
	scan := rn.newCacheScan()
	scan.all = rn.wantsWarm()
	snap, err := inspectSnapshot(ctx, r.blobs, req.Snapshot, snapshotLimits(rn.lim), scan)
	if err != nil {
		return nil, err
	}
	rn.snap = snap
	rn.caPEM = rn.caBundle()
	if rn.combined, err = newCombinedLog(r.cfg.TempDir); err != nil {
		return nil, err
	}
	defer rn.combined.close()

	rn.start = time.Now()
	rn.em = newEmitter(sink)
	runCtx, cancel := context.WithDeadline(ctx, rn.start.Add(rn.lim.RunTimeout))
	rn.execute(runCtx, ctx)
	rn.saveWarmAtEnd(runCtx)
	cancel()
	rn.em.close()
	rn.release()
	return rn.finish(ctx)
}

// preflight checks the engine and the images, fast.
func (rn *run) preflight(outer context.Context) error {
	ctx, cancel := context.WithTimeout(outer, preflightTimeout)
	defer cancel()
	eng, err := rn.r.rt.Engine(ctx)
	if err != nil {
		return engineError(outer, ctx, err)
	}
	if !eng.Init {
		return fmt.Errorf("%w: the engine has no init binary (docker-init) to reap orphans in the sandbox: "+
			"install tini/docker-init (scripts/ensure-docker.sh does)", ErrEngineUnavailable)
	}
	rn.engine = eng
	rn.images, rn.runners, rn.missing = map[string]ImageInfo{}, map[string]bool{}, map[string]string{}
	for i := range rn.req.Steps {
		s := &rn.req.Steps[i]
		ref := rn.req.imageOf(s)
		if _, ok := rn.images[ref]; ok || rn.missing[ref] != "" {
			continue
		}
		img, err := rn.image(outer, ref, rn.req.runtimeOf(s))
		if errors.Is(err, ErrImageNotFound) {
			// Only the steps of this image's subproject are affected.
			rn.missing[ref] = strings.TrimPrefix(err.Error(), ErrImageNotFound.Error()+": ")
			continue
		}
		if err != nil {
			return err
		}
		if rn.runners[ref], err = rn.r.cfg.usesRunner(img); err != nil {
			return err
		}
		rn.images[ref] = img
		rn.r.pool.Warm(img)
	}
	if len(rn.images) == 0 { // nothing could run at all: refuse the run
		return fmt.Errorf("%w: %s", ErrImageNotFound, rn.missing[rn.req.imageOf(&rn.req.Steps[0])])
	}
	return nil
}

// image inspects ref within its own preflight timeout and, when the
// engine lacks it, pulls it if the configuration allows (see pullMissing).
func (rn *run) image(outer context.Context, ref, runtime string) (ImageInfo, error) {
	inspect := func() (ImageInfo, error) {
		ctx, cancel := context.WithTimeout(outer, preflightTimeout)
		defer cancel()
		img, err := rn.r.rt.Image(ctx, ref)
		if err != nil && !errors.Is(err, ErrImageNotFound) {
			err = engineError(outer, ctx, err)
		}
		return img, err
	}
	img, err := inspect()
	if !errors.Is(err, ErrImageNotFound) {
		return img, err
	}
	err = missingImage(ref, runtime)
	if err = rn.pullMissing(outer, ref, err); err != nil {
		return img, err
	}
	return inspect()
}

// engineError turns a preflight that ran out of time (while the caller
// still waits) into ErrEngineUnavailable: an engine that does not answer
// within seconds is treated as gone, so the RPC fails fast.
func engineError(outer, inner context.Context, err error) error {
	if outer.Err() == nil && inner.Err() != nil && !errors.Is(err, ErrEngineUnavailable) {
		return fmt.Errorf("%w: no answer within %s: %w", ErrEngineUnavailable, preflightTimeout, err)
	}
	return err
}

// caBundle is the PEM install steps trust: the server's bundle plus the
// request's, nil when neither is set or no step has network.
func (rn *run) caBundle() []byte {
	needed := false
	for i := range rn.req.Steps {
		needed = needed || rn.req.Steps[i].Network
	}
	if !needed || (len(rn.r.caBase) == 0 && len(rn.req.CABundle) == 0) {
		return nil
	}
	pem := append([]byte(nil), rn.r.caBase...)
	if len(pem) > 0 && pem[len(pem)-1] != '\n' {
		pem = append(pem, '\n')
	}
	return append(pem, rn.req.CABundle...)
}

// owner is the owner label value of the run's containers.
func (rn *run) owner() string {
	if rn.req.Owner != "" {
		return rn.req.Owner
	}
	return rn.r.cfg.Owner
}

// execute runs the batches in order and decides what is skipped.
func (rn *run) execute(runCtx, callerCtx context.Context) {
	st := stops{scoped: map[string]string{}}
	for _, batch := range batches(rn.req.Steps) {
		if st.all == "" {
			st.all = rn.interrupted(runCtx, callerCtx)
		}
		var runnable []int
		for _, i := range batch {
			if why := st.reason(rn.req.Steps[i].FailureScope); why != "" {
				rn.skip(callerCtx, i, why)
				continue
			}
			runnable = append(runnable, i)
		}
		if len(runnable) == 0 {
			continue
		}
		rn.runBatch(runCtx, callerCtx, runnable)
		for _, i := range runnable {
			why, scoped := rn.stopReason(i)
			st.record(rn.req.Steps[i].FailureScope, why, scoped)
		}
	}
}

// stops remembers why later steps may not start: all of them, or only
// those of a failure scope (and the unscoped ones, which may depend on any
// subproject).
type stops struct {
	all    string
	scoped map[string]string
	any    string
}

// reason says why a step of scope may not start, "" when it may.
func (st *stops) reason(scope string) string {
	switch {
	case st.all != "":
		return st.all
	case scope == "":
		return st.any
	}
	return st.scoped[scope]
}

// record notes a step's stop reason; only a plain failure of a scoped step
// stays within its scope.
func (st *stops) record(scope, why string, scoped bool) {
	switch {
	case why == "":
	case scoped && scope != "":
		if st.scoped[scope] == "" {
			st.scoped[scope] = why
		}
		if st.any == "" {
			st.any = why
		}
	case st.all == "":
		st.all = why
	}
}

// interrupted says why no further step may start, "" when they may.
func (rn *run) interrupted(runCtx, callerCtx context.Context) string {
	switch {
	case callerCtx.Err() != nil:
		return "the run was canceled by the caller"
	case runCtx.Err() != nil:
		return fmt.Sprintf("the run budget of %s was exhausted", rn.lim.RunTimeout)
	}
	return ""
}

// stopReason says why step i stops the pipeline, "" when it does not;
// scoped is true when the reason is a plain failure (exit status, OOM),
// which stops only the step's own failure scope.
func (rn *run) stopReason(i int) (why string, scoped bool) {
	res, s := &rn.results[i], &rn.req.Steps[i]
	switch res.Status {
	case StatusOK:
		return "", false
	case StatusFailed, StatusOOMKilled:
		if s.ContinueOnFailure {
			return "", false
		}
		return fmt.Sprintf("step %q failed (%s)", s.Name, res.Status), true
	case StatusTimedOut:
		return fmt.Sprintf("step %q timed out and its sandbox was destroyed", s.Name), false
	case StatusCanceled:
		return fmt.Sprintf("step %q was canceled: %s", s.Name, res.Reason), false
	case StatusError:
		if rn.missing[rn.req.imageOf(s)] != "" && s.ContinueOnFailure {
			// An advisory step (a scan) in the missing image stops
			// nothing: the next step of that image meets the same
			// missing image and says so as its own ERROR.
			return "", false
		}
		if rn.missing[rn.req.imageOf(s)] != "" {
			// A missing image is its subproject's problem: the others
			// run in images the engine has.
			return fmt.Sprintf("step %q could not run: %s", s.Name, res.Reason), true
		}
	}
	return fmt.Sprintf("step %q could not run: %s", s.Name, res.Reason), false
}

// batches groups step indexes: adjacent steps with the same non-empty group
// (and the same image, and no network) run together; every other step alone.
func batches(steps []Step) [][]int {
	var out [][]int
	for i := range steps {
		s := &steps[i]
		if n := len(out); n > 0 && s.Group != "" && !s.Network {
			prev := &steps[out[n-1][0]]
			if prev.Group == s.Group && prev.Image == s.Image && !prev.Network {
				out[n-1] = append(out[n-1], i)
				continue
			}
		}
		out = append(out, []int{i})
	}
	return out
}

// runBatch runs the steps of one batch, concurrently when there are several.
func (rn *run) runBatch(runCtx, callerCtx context.Context, batch []int) {
	first := &rn.req.Steps[batch[0]]
	if why := rn.missing[rn.req.imageOf(first)]; why != "" {
		for _, i := range batch {
			rn.fail(callerCtx, i, StatusError, why)
		}
		return
	}
	b, err := rn.boxFor(runCtx, rn.req.imageOf(first), first.Network, rn.restoresOnly(batch))
	if err != nil {
		st, why := StatusError, fmt.Sprintf("preparing the sandbox failed: %v", err)
		switch {
		case callerCtx.Err() != nil:
			st, why = StatusCanceled, "the run was canceled by the caller"
		case runCtx.Err() != nil:
			st, why = StatusTimedOut, fmt.Sprintf("the run budget of %s was exhausted while preparing the sandbox", rn.lim.RunTimeout)
		}
		for _, i := range batch {
			rn.fail(callerCtx, i, st, why)
		}
		return
	}
	rn.warmBefore(runCtx, b, batch)
	var wg sync.WaitGroup
	for _, i := range batch {
		wg.Go(func() { rn.runStep(runCtx, callerCtx, i, b) })
	}
	wg.Wait()
	rn.warmAfter(b, batch)
}

// boxFor returns the run's box for image, creating it on first use, with
// its network attached exactly when net is set; when lazy, a box without
// its network stays so until a step runs a command that needs it
// (connectForStep): a batch of install steps that all restore from the
// dependency cache runs no command, and attaching a network and cutting
// it again costs ~150 ms on every re-verification and fix round.
func (rn *run) boxFor(ctx context.Context, image string, net, lazy bool) (*box, error) {
	rn.mu.Lock()
	b := rn.byImg[image]
	rn.mu.Unlock()
	if b == nil {
		var err error
		if b, err = rn.newBox(ctx, image); err != nil {
			return nil, err
		}
	}
	if net && lazy {
		return b, nil
	}
	if err := rn.setNetwork(ctx, b, net); err != nil {
		return nil, err
	}
	return b, nil
}

// newBox creates (or takes from the pool) the run's container for image,
// copies the snapshot in, makes it a git repository (see copySnapshot) and
// writes the CA bundle.
func (rn *run) newBox(ctx context.Context, image string) (*box, error) {
	img, runner := rn.images[image], rn.runners[image]
	wantsNet, firstNet := rn.networkNeeds(image)
	var b *box
	p, ok := pooled{}, false
	if st := rn.stageFor(img); st != nil {
		p, ok = rn.r.pool.takeStaged(img, rn.lim, runner, rn.deadline(), st.tag)
	}
	if !ok {
		p, ok = rn.r.pool.take(img, rn.lim, runner, rn.deadline())
	}
	if ok {
		b = &box{id: p.id, image: img, network: rn.r.cfg.EgressNetwork, pooled: true, runner: p.runner, sess: p.sess, stage: p.staged}
		rn.track(image, b)
	} else {
		var err error
		b, err = rn.createBox(ctx, image, runner, wantsNet, firstNet)
		if err != nil && runner && errors.Is(err, errRunnerEnded) && ctx.Err() == nil && rn.r.cfg.StepRunner != StepRunnerAgent {
			// In auto mode a runner that does not start costs speed only:
			// a sandbox without it runs each process with its own exec.
			rn.log.Warn("greenlight-runner did not start: this sandbox runs each process with its own docker exec",
				zap.String("image", image), zap.Error(err))
			b, err = rn.createBox(ctx, image, false, wantsNet, firstNet)
		}
		if err != nil {
			return nil, err
		}
	}
	if !b.pooled {
		prepareBox(ctx, rn.r.rt, b.id, b.sess, img, rn.log) // pooled boxes were prepared in the pool
	}
	// The workspace is CI's checkout: a git repository of the snapshot.
	if err := rn.copySnapshot(ctx, b, image); err != nil {
		return nil, err
	}
	if err := rn.placeStaged(ctx, b); err != nil {
		return nil, err
	}
	rn.restoreWarm(ctx, b)
	if wantsNet && rn.caPEM != nil {
		cmd := []string{"/bin/sh", "-c", `umask 022 && mkdir -p "${0%/*}" && cat > "$0"`, caBundleFile}
		if err := rn.r.execQuiet(ctx, b, cmd, bytes.NewReader(rn.caPEM)); err != nil {
			return nil, fmt.Errorf("writing the CA bundle: %w", err)
		}
	}
	return b, nil
}

// createBox creates and starts the run's own container for image (attached
// to its runner before it starts when runner is set), on the egress network
// when wantsNet and detached from it before start unless firstNet. The box
// is tracked as soon as the container exists, so a failure still removes
// it.
func (rn *run) createBox(ctx context.Context, image string, runner, wantsNet, firstNet bool) (*box, error) {
	img := rn.images[image]
	network := ""
	if wantsNet {
		network = rn.r.cfg.EgressNetwork
	}
	// The sandbox stops by itself at the deadline (its main process
	// exits), and the reaper reads the same deadline from its labels.
	deadline := rn.deadline()
	labels := rn.r.self.labels(deadline)
	labels[LabelRun], labels[LabelOwner] = rn.req.RunID, rn.owner()
	spec := hardenedSpec(image, rn.lim, labels, network, baseEnv(img), runner, time.Until(deadline))
	spec.Name = containerName(rn.req.RunID)
	rn.r.cfg.adjustSpec(&spec)
	id, err := rn.r.rt.Create(ctx, spec)
	if err != nil {
		return nil, err
	}
	b := &box{id: id, image: img, network: network, connected: wantsNet, runner: runner}
	rn.track(image, b)
	detach := ""
	if wantsNet && !firstNet {
		// Attached at creation (so it can be attached again later) but
		// the first step has no network: detach before anything runs.
		detach, b.connected = network, false
	}
	b.sess, err = startBox(ctx, rn.r.rt, id, runner, detach)
	return b, err
}

// startBox starts created container id: attached to its runner first when
// runner is set (nothing the runner writes is lost), detached from network
// detach unless it is "", then started; with the runner it returns the
// runner's session once the runner has said hello. On failure the caller
// removes the container (a session that did not start is closed, which
// stops it).
func startBox(ctx context.Context, rt Runtime, id string, runner bool, detach string) (*session, error) {
	var sess *session
	if runner {
		var err error
		if sess, err = openSession(ctx, rt, id); err != nil {
			return nil, err
		}
	}
	fail := func(err error) (*session, error) {
		if sess != nil {
			sess.close()
		}
		return nil, err
	}
	if detach != "" {
		if err := rt.Disconnect(ctx, id, detach); err != nil {
			return fail(err)
		}
	}
	if err := rt.Start(ctx, id); err != nil {
		return fail(startError(err))
	}
	if sess != nil {
		if err := sess.ready(ctx); err != nil {
			return nil, fmt.Errorf("starting greenlight-runner: %w", err)
		}
	}
	return sess, nil
}

// deadline is when the run's sandboxes stop by themselves: the end of the
// run budget plus the grace (storing logs and removing the containers
// happen in between).
func (rn *run) deadline() time.Time {
	return rn.start.Add(rn.lim.RunTimeout + rn.r.cfg.DeadlineGrace)
}

// networkNeeds says whether any step in image needs network and whether
// the first one does.
func (rn *run) networkNeeds(image string) (anyNet, first bool) {
	seen := false
	for i := range rn.req.Steps {
		s := &rn.req.Steps[i]
		if rn.req.imageOf(s) != image {
			continue
		}
		if !seen {
			first, seen = s.Network, true
		}
		anyNet = anyNet || s.Network
	}
	return anyNet, first
}

// track registers a box for cleanup.
func (rn *run) track(image string, b *box) {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	rn.boxes = append(rn.boxes, b)
	rn.byImg[image] = b
}

// release removes the run's containers in the background: the result does
// not wait for it.
func (rn *run) release() {
	rn.mu.Lock()
	boxes := rn.boxes
	rn.mu.Unlock()
	for _, b := range boxes {
		rn.r.cleanups.Add(1)
		go func() {
			defer rn.r.cleanups.Done()
			if err := b.kill(rn.r.rt, rn.r.cfg.CleanupTimeout, "the run ended"); err != nil {
				rn.log.Warn("removing a sandbox container failed; the reaper will retry",
					zap.String("container", shortID(b.id)), zap.Error(err))
			}
			if b.pooled {
				rn.r.pool.refill(b.image.Ref)
			}
			rn.stageNext(b)
		}()
	}
}

// finish stores the combined log and builds the result.
func (rn *run) finish(ctx context.Context) (*Result, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	combined, err := rn.combined.store(ctx, rn.r.blobs)
	if err != nil {
		return nil, fmt.Errorf("storing the combined log: %w", err)
	}
	img := rn.images[rn.req.imageOf(&rn.req.Steps[0])]
	for i := 0; img.Ref == "" && i < len(rn.req.Steps); i++ { // the first step's image may be missing
		img = rn.images[rn.req.imageOf(&rn.req.Steps[i])]
	}
	return &Result{
		Manifest: Manifest{
			RunID: rn.req.RunID, Start: rn.start, End: time.Now(), CommitSHA: rn.req.CommitSHA,
			Snapshot: rn.req.Snapshot, Limits: rn.lim,
			Platform: Platform{
				OS: rn.engine.OS, Arch: rn.engine.Arch, Image: img.Ref, ImageDigest: img.Digest,
				EngineVersion: rn.engine.Version,
			},
		},
		Steps:       rn.results,
		Reports:     rn.sortedReports(),
		CombinedLog: combined,
	}, nil
}

// sortedReports returns the collected reports in step order.
func (rn *run) sortedReports() []Report {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	out := slices.Clone(rn.reports)
	slices.SortStableFunc(out, func(a, b Report) int { return a.Step - b.Step })
	return out
}

// containerNameRE keeps container names to what the engine accepts.
var containerNameRE = regexp.MustCompile(`[^a-zA-Z0-9_.-]+`)

// containerName is a readable, unique container name for a run.
func containerName(runID string) string {
	id := containerNameRE.ReplaceAllString(runID, "-")
	if len(id) > 40 {
		id = id[:40]
	}
	var rnd [4]byte
	_, _ = rand.Read(rnd[:])
	return "greenlight-" + id + "-" + hex.EncodeToString(rnd[:])
}

// storeLog puts a log into the blob store.
func (r *Runner) storeLog(ctx context.Context, rd io.Reader) (blob.Digest, error) {
	d, err := r.blobs.Put(ctx, rd)
	if err != nil {
		return blob.Digest{}, fmt.Errorf("storing a log in the blob store: %w", err)
	}
	return d, nil
}
