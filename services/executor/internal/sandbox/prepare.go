package sandbox

import (
	"context"
	"strings"
	"time"

	"go.uber.org/zap"
)

// LabelPrepare is an image label naming a command (words separated by
// spaces) to run once per sandbox, as the sandbox user, before the
// snapshot is copied in. (Images usually do such things in their entry
// point, but the sandbox's main process is not the sandbox user, and with
// the step runner the image's entry point does not run at all.) The go
// image links its seed build cache into $GOCACHE with it (images/go).
const LabelPrepare = "greenlight.prepare"

// prepareTimeout bounds the prepare command.
const prepareTimeout = 2 * time.Minute

// prepareCmd is img's prepare command, nil when it has none.
func prepareCmd(img ImageInfo) []string {
	return strings.Fields(img.Labels[LabelPrepare])
}

// prepareBox runs the image's prepare command in a new container (through
// its runner session when it has one). A failure only costs speed: it is
// logged and the sandbox is used as it is.
func prepareBox(ctx context.Context, rt Runtime, id string, sess *session, img ImageInfo, log *zap.Logger) {
	cmd := prepareCmd(img)
	if len(cmd) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, prepareTimeout)
	defer cancel()
	stderr := &capBuffer{max: 4 << 10}
	spec := ExecSpec{Cmd: cmd, User: SandboxUser, WorkDir: HomeDir, Stderr: stderr}
	res, err := execOn(ctx, rt, id, sess, spec)
	if err == nil && res.code != 0 {
		log.Warn("the image's prepare command failed; the sandbox is used without it",
			zap.Strings("command", cmd), zap.Int("exit_code", res.code), zap.String("stderr", stderr.buf.String()))
	} else if err != nil && ctx.Err() == nil {
		log.Warn("the image's prepare command failed; the sandbox is used without it", zap.Strings("command", cmd), zap.Error(err))
	}
}
