package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"go.uber.org/zap"
)

// noExitCode is the exit code of a step that has none (skipped, timed out,
// canceled, errored).
const noExitCode = -1

// newResult starts the result of step i.
func (rn *run) newResult(i int) StepResult {
	s := &rn.req.Steps[i]
	wd, _ := cleanRel(s.Workdir)
	return StepResult{
		Index: i, Name: s.Name, Command: s.Command, Workdir: wd, Image: rn.req.imageOf(s), ExitCode: noExitCode,
	}
}

// skip records step i as skipped without running it.
func (rn *run) skip(ctx context.Context, i int, why string) {
	res := rn.newResult(i)
	res.Status, res.Reason = StatusSkipped, why
	rn.results[i] = res
	rn.em.send(ctx, &StepFinished{Index: i, Result: res})
}

// fail records step i as not run because of its sandbox (an
// infrastructure error, a cancellation or the run budget).
func (rn *run) fail(ctx context.Context, i int, st Status, why string) {
	res := rn.newResult(i)
	res.Status, res.Reason = st, why
	now := time.Now()
	res.StartedAt, res.FinishedAt = now, now
	rn.results[i] = res
	rn.note(i, why)
	_ = rn.combined.appendStep(rn.header(i), nil, rn.footer(&res))
	rn.em.send(ctx, &StepStarted{Index: i, Step: rn.req.Steps[i], Time: now})
	rn.em.send(ctx, &StepFinished{Index: i, Result: res})
}

// note remembers a system message for step i (written to the combined log).
func (rn *run) note(i int, msg string) {
	rn.mu.Lock()
	rn.notes[i] = append(rn.notes[i], msg)
	rn.mu.Unlock()
}

// runStep runs step i in b: from the dependency cache when it can, by
// executing its command otherwise; it streams the output and records the
// result.
func (rn *run) runStep(runCtx, callerCtx context.Context, i int, b *box) {
	s := &rn.req.Steps[i]
	res := rn.newResult(i)
	out, err := newStepOutput(rn.r.cfg.TempDir, rn.lim.LogBytesPerStep, rn.r.cfg.Live)
	if err != nil {
		rn.fail(callerCtx, i, StatusError, err.Error())
		return
	}
	defer out.close()
	res.StartedAt = time.Now()
	rn.em.send(callerCtx, &StepStarted{Index: i, Step: *s, Time: res.StartedAt})
	flushDone, flushed := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(flushed)
		out.live.run(callerCtx, flushDone, func(c chunk) error {
			rn.em.send(callerCtx, &LogChunk{Index: i, Step: s.Name, Stream: c.stream, Data: validUTF8(c.data), Offset: c.offset})
			return nil
		})
	}()
	system := func(msg string) {
		rn.note(i, msg)
		out.system("[greenlight] " + msg + "\n")
	}
	if note := b.takeNotes(); note != "" {
		for _, line := range strings.Split(note, "\n") {
			system(line)
		}
	}

	key := ""
	if s.usesCache() && rn.r.cache != nil {
		key, res.CacheHit, res.CacheNote = rn.useCache(runCtx, b, s, system)
		if res.CacheNote != "" {
			system(res.CacheNote)
		}
	}
	netErr := error(nil)
	if !res.CacheHit {
		netErr = rn.connectForStep(runCtx, b, s)
	}
	switch {
	case res.CacheHit:
		res.Status, res.ExitCode = StatusOK, 0
	case netErr != nil:
		res.Status, res.ExitCode, res.Reason = StatusError, noExitCode, netErr.Error()
		system(res.Reason)
	default:
		res.Status, res.ExitCode, res.Reason = rn.runCommand(runCtx, callerCtx, s, b, out)
		if res.Reason != "" {
			system(res.Reason)
		}
		if res.Status == StatusOK && key != "" {
			if note := rn.trySave(runCtx, b, key, s, system); res.CacheNote == "" {
				res.CacheNote = note
			}
		}
		rn.collectReports(callerCtx, b, i, s, system)
	}

	close(flushDone)
	<-flushed
	res.FinishedAt = time.Now()
	res.Duration = res.FinishedAt.Sub(res.StartedAt)
	res.OutputBytes, res.Truncated, res.Tail = out.summary(rn.r.cfg.TailLines)
	rn.storeStepLog(callerCtx, i, &res, out)
	rn.results[i] = res
	rn.em.send(callerCtx, &StepFinished{Index: i, Result: res})
}

// runCommand executes the step's command and classifies the outcome. On a
// timeout or a cancellation it destroys the box at once: that is the only
// way to be sure every process of the step is gone (killing an exec'd
// client does not kill its processes, and a process may leave the group
// greenlight-runner kills).
func (rn *run) runCommand(runCtx, callerCtx context.Context, s *Step, b *box, out *stepOutput) (Status, int, string) {
	timeout := rn.r.cfg.stepTimeout(s)
	stepCtx, cancel := context.WithTimeout(runCtx, timeout)
	defer cancel()
	res, err := rn.r.exec(stepCtx, b, ExecSpec{
		Cmd:     stepCmd(s.Command),
		User:    SandboxUser,
		WorkDir: workdirPath(s.Workdir),
		Env:     rn.stepEnv(s),
		Stdout:  out.writer(StreamStdout),
		Stderr:  out.writer(StreamStderr),
	})
	kill := func(why string) {
		if kerr := b.kill(rn.r.rt, rn.r.cfg.CleanupTimeout, why); kerr != nil {
			rn.log.Warn("killing a sandbox container failed; the reaper will retry",
				zap.String("container", shortID(b.id)), zap.Error(kerr))
		}
	}
	switch {
	case callerCtx.Err() != nil:
		why := "the run was canceled by the caller; the sandbox was destroyed"
		kill(why)
		return StatusCanceled, noExitCode, why
	case runCtx.Err() != nil:
		why := fmt.Sprintf("the run budget of %s was exhausted; the sandbox was destroyed", rn.lim.RunTimeout)
		kill(why)
		return StatusTimedOut, noExitCode, why
	case stepCtx.Err() != nil || res.timedOut:
		why := fmt.Sprintf("step %q timed out after %s; the sandbox was destroyed", s.Name, timeout)
		kill(why)
		return StatusTimedOut, noExitCode, why
	case b.killed() != "":
		return StatusCanceled, noExitCode, "the sandbox was destroyed: " + b.killed()
	case err != nil:
		return rn.sandboxFailed(b, err, kill)
	}
	if rn.oomKilled(b, res.oomKills) {
		why := rn.oomReason()
		if res.code == 0 {
			// The step did not notice (a child's exit status ignored):
			// its evidence is incomplete all the same.
			why += "; the step itself exited 0"
		}
		return StatusOOMKilled, res.code, why
	}
	if res.code == 0 {
		return StatusOK, 0, ""
	}
	return StatusFailed, res.code, ""
}

// oomReason is the reason of a step during which the OOM killer struck.
func (rn *run) oomReason() string {
	return fmt.Sprintf("a process was OOM-killed during this step (the kernel OOM killer acts at the memory limit of %d MiB)",
		rn.lim.MemoryBytes>>20)
}

// sandboxFailed classifies a step whose process could not be followed to
// its end: the runner's session ended, or the engine's exec failed. When
// the OOM killer struck meanwhile, what the step did killed the runner (or
// the container's main process) and the step is OOM_KILLED; otherwise it
// is an infrastructure error. A runner that ended leaves whatever the step
// started running unsupervised, so the box is destroyed.
func (rn *run) sandboxFailed(b *box, err error, kill func(string)) (Status, int, string) {
	oom := rn.oomAfterFailure(b)
	why := fmt.Sprintf("the sandbox failed: %v", err)
	if oom {
		why = rn.oomReason() + ", and the sandbox's step runner or main process with it (" + err.Error() + ")"
	}
	if errors.Is(err, errRunnerEnded) {
		why += "; the sandbox was destroyed"
		kill(why)
	}
	if oom {
		return StatusOOMKilled, noExitCode, why
	}
	return StatusError, noExitCode, why
}

// oomAfterFailure tells whether the OOM killer struck in a box whose
// runner or exec just failed. The memory the step holds may leave nothing
// for the exec that reads the counter (it is then killed or cannot start),
// so it is tried a few times. If it still cannot be read, a runner killed
// by SIGKILL counts as an OOM kill in a container that still runs or that
// the engine flags as OOM-killed (the runner is the container's main
// process, so the container stopped with it and nothing can read the
// counter any more): nothing else can send it that signal (steps run as
// another user without capabilities; greenlight kills a sandbox by
// removing the container, after closing the session).
func (rn *run) oomAfterFailure(b *box) bool {
	for range oomReadAttempts {
		if n, ok := rn.readOOM(b); ok {
			return rn.oomCounted(b, n)
		}
		time.Sleep(oomReadPause)
	}
	if b.sess == nil || !b.sess.sigkilled.Load() {
		return rn.oomFlagged(b)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	st, err := rn.r.rt.State(ctx, b.id)
	return err == nil && (st.Running || st.OOMKilled)
}

// Reading the OOM counter after a failure (oomAfterFailure).
const (
	oomReadAttempts = 3
	oomReadPause    = 200 * time.Millisecond
)

// oomKilled reports whether the cgroup OOM killer struck since the box's
// counter was last read; it is asked after every step, whatever its exit
// code. n is the counter as greenlight-runner read it right after the
// step; when unknown (-1) it is read with an exec, and when that fails
// (the container is gone) the engine is asked whether the container saw
// an OOM kill.
func (rn *run) oomKilled(b *box, n int64) bool {
	if n < 0 {
		var ok bool
		if n, ok = rn.readOOM(b); !ok {
			return rn.oomFlagged(b)
		}
	}
	return rn.oomCounted(b, n)
}

// readOOM reads the box's OOM-kill counter with an exec.
func (rn *run) readOOM(b *box) (int64, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	n, err := rn.r.oomKills(ctx, b)
	return n, err == nil
}

// oomCounted reports whether counter value n is new, and remembers it.
func (rn *run) oomCounted(b *box, n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if n > b.oomSeen {
		b.oomSeen = n
		return true
	}
	return false
}

// oomFlagged asks the engine whether the container saw an OOM kill. The
// flag stays set, so it is blamed on one step only.
func (rn *run) oomFlagged(b *box) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	st, err := rn.r.rt.State(ctx, b.id)
	b.mu.Lock()
	defer b.mu.Unlock()
	if err != nil || !st.OOMKilled || b.oomFlagSeen {
		return false
	}
	b.oomFlagSeen = true
	return true
}

// stepEnv is the environment a step adds to the container's: for install
// steps the configured install variables and the CA bundle settings, then
// the step's own variables.
func (rn *run) stepEnv(s *Step) []string {
	var env []string
	add := func(m map[string]string) {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			env = append(env, k+"="+m[k])
		}
	}
	if s.Install {
		add(rn.r.cfg.InstallEnv)
		if rn.caPEM != nil && s.Network {
			env = append(env, caEnv()...)
		}
	}
	own := s.Env
	if p, ok := own["PATH"]; ok {
		// A step's own PATH (Node 22 first) finds tools as the image's does.
		own = maps.Clone(own)
		own["PATH"] = toolPath(p)
	}
	add(own)
	return env
}

// useCache decides how the dependency cache serves install step s: key
// is "" when the cache must not be used (then nothing is saved either),
// hit says the step was satisfied from it, and note says why the cache was
// not used or why an entry was dropped ("" on a plain hit or miss).
func (rn *run) useCache(ctx context.Context, b *box, s *Step, system func(string)) (key string, hit bool, note string) {
	if note = rn.snapshotBlocks(s); note != "" {
		return "", false, note
	}
	key = rn.cacheKey(s, b.image)
	if b.placed[key] {
		system(fmt.Sprintf("dependency cache hit (%s): %s restored before the run (staged sandbox); install step skipped",
			shortKey(key), strings.Join(s.CachePaths, ", ")))
		return key, true, ""
	}
	if note = rn.probeBlocked(ctx, b, s); note != "" {
		return "", false, note
	}
	hit, note, save := rn.tryRestore(ctx, b, key, s, system)
	if !save {
		key = ""
	}
	return key, hit, note
}

// tryRestore restores the dependency cache for key: hit on success; on a
// miss the install step runs as usual. An entry that fails verification or
// whose extraction fails is evicted and its partial tree removed from the
// sandbox (then note says so and the install runs cold). save is false
// when that removal failed: a tree installed over leftovers is not saved.
func (rn *run) tryRestore(ctx context.Context, b *box, key string, s *Step, system func(string)) (hit bool, note string, save bool) {
	rc, ok, err := rn.r.cache.Get(key)
	if err != nil {
		rn.log.Warn("a dependency cache entry failed verification and was evicted", zap.String("step", s.Name), zap.Error(err))
		return false, fmt.Sprintf("dependency cache entry %s failed verification and was evicted (%s); installing cold",
			shortKey(key), clip(err.Error())), true
	}
	if !ok {
		return false, "", true
	}
	defer rc.Close()
	start := time.Now()
	if err := rn.restoreCache(ctx, b, rc, s); err != nil {
		rn.log.Warn("restoring the dependency cache failed; evicting the entry", zap.String("step", s.Name), zap.Error(err))
		note = fmt.Sprintf("dependency cache entry %s could not be restored (%s); evicted it, installing cold", shortKey(key), clip(err.Error()))
		if rerr := rn.r.cache.Remove(key); rerr != nil {
			rn.log.Error("evicting a dependency cache entry failed", zap.String("step", s.Name), zap.Error(rerr))
		}
		if cerr := rn.cleanCache(ctx, b, s); cerr != nil {
			rn.log.Warn("removing a partial dependency restore failed", zap.String("step", s.Name), zap.Error(cerr))
			return false, note + "; the partial restore could not be removed, so this install is not saved", false
		}
		return false, note, true
	}
	system(fmt.Sprintf("dependency cache hit (%s): restored %s in %s; install step skipped",
		shortKey(key), strings.Join(s.CachePaths, ", "), time.Since(start).Round(time.Millisecond)))
	return true, "", true
}

// trySave stores the step's cache paths after a successful install; a
// failure only costs the next run its cache hit (the returned note says
// so).
func (rn *run) trySave(ctx context.Context, b *box, key string, s *Step, system func(string)) string {
	start := time.Now()
	if err := rn.saveCache(ctx, b, key, s); err != nil {
		rn.log.Info("dependency cache not saved", zap.String("step", s.Name), zap.Error(err))
		note := "dependency cache not saved: " + clip(err.Error())
		system(note)
		return note
	}
	system(fmt.Sprintf("dependency cache saved (%s) in %s", shortKey(key), time.Since(start).Round(time.Millisecond)))
	return ""
}

// storeStepLog stores the step's log as a blob and appends it to the
// combined log.
func (rn *run) storeStepLog(ctx context.Context, i int, res *StepResult, out *stepOutput) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	rd, err := out.seal()
	if err == nil {
		res.LogDigest, err = rn.r.storeLog(ctx, rd)
	}
	if err == nil {
		_, err = out.spool.Seek(0, io.SeekStart)
	}
	var body io.Reader
	if err == nil {
		body = out.spool
	} else {
		rn.log.Error("storing a step log failed", zap.String("step", res.Name), zap.Error(err))
		if res.Status == StatusOK {
			// Without its evidence a step cannot count as passed.
			res.Status, res.Reason = StatusError, fmt.Sprintf("storing the step log failed: %v", err)
		}
	}
	if err := rn.combined.appendStep(rn.header(i), body, rn.footer(res)); err != nil {
		rn.log.Error("writing the combined log failed", zap.Error(err))
	}
}

// header starts a step's block in the combined log.
func (rn *run) header(i int) string {
	s := &rn.req.Steps[i]
	wd, _ := cleanRel(s.Workdir)
	return fmt.Sprintf("==> [%d/%d] %s (workdir %s): %s\n", i+1, len(rn.req.Steps), s.Name, wd, s.Command)
}

// footer ends a step's block in the combined log.
func (rn *run) footer(res *StepResult) string {
	var sb strings.Builder
	sb.WriteString("\n")
	rn.mu.Lock()
	for _, n := range rn.notes[res.Index] {
		fmt.Fprintf(&sb, "[greenlight] %s\n", n)
	}
	rn.mu.Unlock()
	fmt.Fprintf(&sb, "<== %s: %s, exit code %d, %s\n\n", res.Name, res.Status, res.ExitCode, res.Duration.Round(time.Millisecond))
	return sb.String()
}
