package cli

import (
	"context"
	"fmt"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/stack"
	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/summary"
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// startDetached starts a verification with StartRun and prints its id (or
// the pending run in the output contract) without waiting for it.
func (a *app) startDetached(ctx context.Context, conn *stack.Conn, req *glv1.VerifyRequest, asJSON bool) error {
	resp, err := conn.Run.StartRun(ctx, &glv1.StartRunRequest{Kind: &glv1.StartRunRequest_Verify{Verify: req}})
	if err != nil {
		return err
	}
	run := resp.GetRun()
	if asJSON {
		return a.write(summary.JSON(run))
	}
	fmt.Fprintln(a.env.Stdout, run.GetId())
	p, id := a.program(), run.GetId()
	fmt.Fprintf(a.env.Stderr, "started %s: %s watch %s follows it, %s cancel %s stops it\n", id, p, id, p, id)
	return nil
}
