package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/snapshot"
	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/stack"
	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/summary"
	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/termtext"
	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/writeback"
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
)

// errDirChanged means the directory changed while the repair ran.
var errDirChanged = errors.New("the directory changed while the repair ran")

// printDiff prints the applied patches (the final cumulative change).
func (a *app) printDiff(run *glv1.Run, applying bool) {
	patches := summary.AppliedPatches(run)
	if len(patches) == 0 {
		return
	}
	if applying {
		fmt.Fprintf(a.env.Stdout, "\nApplying %d patch(es) to the directory:\n", len(patches))
	} else {
		fmt.Fprintf(a.env.Stdout, "\nWinning change (not applied; pass --apply to write it):\n")
	}
	for _, p := range patches {
		// A diff quotes the repository and the model: cleaned for the terminal.
		fmt.Fprintf(a.env.Stdout, "%s\n", termtext.Clean(strings.TrimRight(p.GetDiff(), "\n")))
	}
}

// writeBack applies the difference between the original and the final
// snapshot to the directory, refusing when the directory no longer packs
// to the original snapshot. It reports on out: stdout, or stderr when
// stdout carries --json.
func (a *app) writeBack(ctx context.Context, out io.Writer, conn *stack.Conn, packed *snapshot.Packed, run *glv1.Run, maxBytes int64) error {
	final, err := blob.DigestFromProto(run.GetCurrentSnapshot())
	if err != nil || final == packed.Digest || run.GetCurrentSnapshot() == nil {
		fmt.Fprintln(out, "nothing to write back: no patch was kept")
		return nil
	}
	again, err := snapshot.Pack(ctx, packed.Dir, maxBytes, "")
	if err != nil {
		return fmt.Errorf("--apply: %w", err)
	}
	again.Remove()
	if again.Digest != packed.Digest {
		return fmt.Errorf("--apply: %s: %w; not writing (see the diff above)", packed.Dir, errDirChanged)
	}
	orig, err := os.Open(packed.Path)
	if err != nil {
		return fmt.Errorf("--apply: %w", err)
	}
	defer orig.Close()
	rc, err := conn.Blobs.Open(ctx, final)
	if err != nil {
		return fmt.Errorf("--apply: final snapshot: %w", err)
	}
	defer rc.Close()
	changes, err := writeback.Apply(ctx, packed.Dir, orig, rc)
	if err != nil {
		return fmt.Errorf("--apply: %w", err)
	}
	for _, c := range changes {
		fmt.Fprintf(out, "%s %s\n", c.Op, termtext.Clean(c.Path))
	}
	return nil
}
