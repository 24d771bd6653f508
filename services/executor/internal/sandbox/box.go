package sandbox

import (
	"context"
	"sync"
	"time"
)

// box is one sandbox container serving one run (for one image).
type box struct {
	id    string
	image ImageInfo
	// network is the network the box may be attached to ("" when created
	// without any); connected says whether it is attached now (netMu
	// guards it while a batch's steps run).
	network   string
	connected bool
	netMu     sync.Mutex
	pooled    bool
	// runner says the container was created for greenlight-runner
	// (runnerCaps, root user); sess is the runner serving it, nil when
	// every process runs with its own `docker exec`. Both are set before
	// any step runs and never change.
	runner bool
	sess   *session
	// warm is the box's warm build state (warm.go), nil when its image
	// has none; set before any step runs.
	warm *warmState
	// stage is what a staged box brought (stage.go), nil otherwise;
	// placed holds the cache keys whose trees it put in place.
	stage      *staged
	placed     map[string]bool
	stageNoted bool

	mu sync.Mutex
	// oomSeen is the cgroup's oom_kill counter as last read; oomFlagSeen
	// says the engine's OOMKilled flag was already blamed on a step.
	oomSeen     int64
	oomFlagSeen bool

	killOnce   sync.Once
	killMu     sync.Mutex
	killReason string
}

// kill removes the container at once (the only way to stop every process
// of a step: killing an exec'd client does not kill the process) and
// remembers why. Later calls do nothing.
func (b *box) kill(rt Runtime, timeout time.Duration, reason string) error {
	var err error
	b.killOnce.Do(func() {
		b.killMu.Lock()
		b.killReason = reason
		b.killMu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		if b.sess != nil {
			// First, so the session knows it was closed (its runner's end
			// is then no failure to look into).
			b.sess.close()
		}
		err = rt.Remove(ctx, b.id)
	})
	return err
}

// killed returns why the box was killed, "" while it lives.
func (b *box) killed() string {
	b.killMu.Lock()
	defer b.killMu.Unlock()
	return b.killReason
}
