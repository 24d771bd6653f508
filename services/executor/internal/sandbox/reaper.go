package sandbox

import (
	"context"
	"errors"
	"strconv"
	"time"

	"go.uber.org/zap"
)

// Reaper removes containers that no live executor will clean up: those of a
// dead executor process on this host (it was SIGKILLed, or crashed) and
// those past their deadline whoever created them.
type Reaper struct {
	rt   Runtime
	self Identity
	log  *zap.Logger
	now  func() time.Time
	// alive reports whether a process on this host is still the one that
	// created a container (pid plus start time).
	alive func(pid int, start string) bool
}

// NewReaper returns a reaper acting for the process self.
func NewReaper(rt Runtime, self Identity, log *zap.Logger) *Reaper {
	return &Reaper{rt: rt, self: self, log: log, now: time.Now, alive: processAlive}
}

// Sweep removes every stale container once and returns how many it removed.
func (r *Reaper) Sweep(ctx context.Context) (int, error) {
	list, err := r.rt.List(ctx, LabelRun)
	if err != nil {
		return 0, err
	}
	removed := 0
	var errs []error
	for _, c := range list {
		why := r.stale(c)
		if why == "" {
			continue
		}
		if err := r.rt.Remove(ctx, c.ID); err != nil {
			errs = append(errs, err)
			continue
		}
		removed++
		r.log.Info("reaped stale sandbox container", zap.String("container", shortID(c.ID)),
			zap.String("run_id", c.Labels[LabelRun]), zap.String("owner", c.Labels[LabelOwner]), zap.String("why", why))
	}
	return removed, errors.Join(errs...)
}

// Run sweeps now and then every period until ctx ends.
func (r *Reaper) Run(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if _, err := r.Sweep(ctx); err != nil && ctx.Err() == nil {
			r.log.Warn("reaper sweep failed", zap.Error(err))
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// selfStopGrace is how long a sandbox still running past its deadline
// label is left to stop by itself (its main process ends at that deadline:
// keepalive lifetime, runner deadline) before a reaper kills it. The label
// is set at creation, the main process's timer starts when it starts, so
// on a loaded host the two are seconds apart; without the grace any
// executor's reaper could kill a sandbox in the moment it was stopping.
const selfStopGrace = 30 * time.Second

// stale says why a container is stale, or "" when it is not.
func (r *Reaper) stale(c ContainerInfo) string {
	if d, err := strconv.ParseInt(c.Labels[LabelDeadline], 10, 64); err == nil && r.now().Unix() > d {
		if c.State != "running" || r.now().After(time.Unix(d, 0).Add(selfStopGrace)) {
			return "past its deadline"
		}
	}
	if c.Labels[LabelHost] != r.self.Host {
		return "" // another host's executor: only its deadline applies
	}
	pid, err := strconv.Atoi(c.Labels[LabelPID])
	if err != nil {
		return "no creator pid label"
	}
	start := c.Labels[LabelPIDStart]
	if pid == r.self.PID && start == r.self.PIDStart {
		return ""
	}
	if !r.alive(pid, start) {
		return "its executor process is gone"
	}
	return ""
}

// processAlive reports whether pid runs and started at start.
func processAlive(pid int, start string) bool {
	got := procStart(pid)
	return got != "" && (start == "" || got == start)
}

// shortID abbreviates a container id for logs.
func shortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
