package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/fswatch"
	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/snapshot"
	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/stack"
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
)

// watchFlags are verify --watch's flags.
type watchFlags struct {
	on    bool
	quiet time.Duration
}

// bind adds the flags to cmd.
func (w *watchFlags) bind(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.BoolVar(&w.on, "watch", false,
		"verify again each time a file the pack takes changes (.git, dependency trees, build outputs and .gitignore'd paths are left alone); prints each run's verdict; Ctrl-C stops (exit 130)")
	fl.DurationVar(&w.quiet, "watch-quiet", fswatch.DefaultQuiet,
		"with --watch: how long the tree must stay unchanged before the next run starts")
}

// verifyWatch verifies dir, then again after every batch of changes,
// until ctx ends (Ctrl-C). One connection (one embedded stack) serves every
// run. A batch whose pack has the digest of the last verified one (a file
// saved unchanged, a change only git's own ignore files leave out) starts
// no run: the pack, not the watcher, decides what changed.
func (a *app) verifyWatch(ctx context.Context, dir string, f *verifyFlags) error {
	if f.detach || f.out.requested() {
		return usagef("--watch runs in the foreground and prints each run's verdict: no --detach or --format")
	}
	w, err := fswatch.New(dir, f.watch.quiet)
	if err != nil {
		return err
	}
	defer w.Close()
	if n := w.Unwatched(); n > 0 {
		fmt.Fprintf(a.env.Stderr, "greenlight: %d directories could not be watched (the system's watch limit, fs.inotify.max_user_watches on Linux): changes there start no run\n", n)
	}
	conn, err := a.connect(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	var last blob.Digest
	for n := 1; ; {
		verified, err := a.watchRun(ctx, conn, dir, f, &last, n)
		if err != nil {
			return watchEnd(ctx, err)
		}
		if verified {
			n++
		}
		fmt.Fprintf(a.env.Stderr, "greenlight: watching %s for changes (Ctrl-C to stop)\n", dir)
		changed, err := w.Next(ctx)
		if err != nil {
			return watchEnd(ctx, err)
		}
		fmt.Fprintf(a.env.Stderr, "greenlight: changed: %s\n", listPaths(changed, 5))
	}
}

// watchRun packs dir and, when its digest differs from *last, verifies it
// and prints the verdict. verified says a run was made. A workspace that
// cannot be packed (over the size cap, say) is reported and the watch goes
// on: the next change may fix it.
func (a *app) watchRun(ctx context.Context, conn *stack.Conn, dir string, f *verifyFlags, last *blob.Digest, n int) (bool, error) {
	packed, err := snapshot.Pack(ctx, dir, f.maxByteVal, "")
	if err != nil {
		if ctx.Err() != nil {
			return false, err
		}
		_, msg := exitCode("verify", err)
		fmt.Fprintln(a.env.Stderr, msg)
		return false, nil
	}
	defer packed.Remove()
	if packed.Digest == *last {
		fmt.Fprintln(a.env.Stderr, "greenlight: the workspace packs as before: no run")
		return false, nil
	}
	*last = packed.Digest
	if n > 1 {
		fmt.Fprintf(a.env.Stderr, "\ngreenlight: run %d of the watch\n", n)
	}
	if err := packed.Upload(ctx, conn.Blobs); err != nil {
		return false, err
	}
	stream, err := conn.Run.Verify(ctx, &glv1.VerifyRequest{Snapshot: packed.Digest.Proto(), Options: f.options(), SourceDir: packed.Dir})
	if err != nil {
		return false, err
	}
	recv := func() (*glv1.RunEvent, error) {
		m, err := stream.Recv()
		return m.GetEvent(), err
	}
	run, err := a.followAndReport(ctx, conn, recv, f.quiet, f.logs)
	if err != nil {
		return false, err
	}
	// The verdict's exit code is the run's; the watch goes on.
	var ee *exitError
	if err := a.finish(conn, run, f.json); err != nil && !errors.As(err, &ee) {
		return false, err
	}
	return true, nil
}

// watchEnd is how a watch ends: quietly when ctx ended (Ctrl-C: main makes
// the exit 130), with err otherwise.
func watchEnd(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return &exitError{code: ExitError, quiet: true}
	}
	return err
}

// listPaths names at most max paths, then how many more.
func listPaths(paths []string, max int) string {
	if len(paths) <= max {
		return strings.Join(paths, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(paths[:max], ", "), len(paths)-max)
}
