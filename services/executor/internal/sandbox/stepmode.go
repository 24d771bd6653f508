package sandbox

import (
	"context"
	"fmt"
	"strconv"

	"go.uber.org/zap"

	"github.com/greenlight-dev/greenlight/services/executor/internal/runnerproto"
)

// hasRunner reports whether img carries greenlight-runner speaking this
// executor's protocol (images/build.sh labels the images it builds).
func hasRunner(img ImageInfo) bool {
	return img.Labels[runnerproto.LabelRunner] == strconv.Itoa(runnerproto.Version)
}

// usesRunner says whether img's sandboxes run their processes through
// greenlight-runner: in auto mode when the image has it, never in exec
// mode, and always in agent mode (where an image without it is an error).
func (c *Config) usesRunner(img ImageInfo) (bool, error) {
	switch c.StepRunner {
	case StepRunnerExec:
		return false, nil
	case StepRunnerAgent:
		if !hasRunner(img) {
			return false, fmt.Errorf("%w: image %s has no greenlight-runner of protocol %d (label %s=%q): "+
				"rebuild it with `%s`, or use --step-runner=auto", ErrNoStepRunner, img.Ref,
				runnerproto.Version, runnerproto.LabelRunner, img.Labels[runnerproto.LabelRunner], rebuildCommand(img.Ref))
		}
		return true, nil
	}
	return hasRunner(img), nil
}

// attachRunner gives a runner-enabled box its greenlight-runner session
// (a pooled box usually comes with one already started). In auto mode a
// runner that does not start is logged and the box falls back to one
// `docker exec` per process, which is safe in such a container too (the
// capabilities are root's alone); in agent mode it is an error.
func (rn *run) attachRunner(ctx context.Context, b *box) error {
	if !b.runner || (b.sess != nil && b.sess.alive()) {
		return nil
	}
	if b.sess != nil {
		b.sess.close()
		b.sess = nil
	}
	s, err := startSession(ctx, rn.r.rt, b.id)
	if err == nil {
		b.sess = s
		return nil
	}
	if ctx.Err() != nil || rn.r.cfg.StepRunner == StepRunnerAgent {
		return fmt.Errorf("starting greenlight-runner: %w", err)
	}
	rn.log.Warn("greenlight-runner did not start: this sandbox runs each process with its own docker exec",
		zap.String("container", shortID(b.id)), zap.Error(err))
	return nil
}
