package sandbox

import (
	"fmt"
	"strconv"

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
