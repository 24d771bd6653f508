package cli

import (
	"fmt"

	"github.com/spf13/cobra"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/progress"
	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/summary"
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

func (a *app) cancelCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "cancel RUN",
		Short: "Cancel a pending or running run (it finishes CANCELED; a finished run is left as it is)",
		Args:  exactArgs(1, "a run id (see "+a.program()+" runs)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			conn, err := a.connect(ctx)
			if err != nil {
				return err
			}
			defer conn.Close()
			resp, err := conn.Run.CancelRun(ctx, &glv1.CancelRunRequest{RunId: args[0]})
			if status.Code(err) == codes.NotFound {
				return fmt.Errorf("run %q not found (%s runs lists the runs)", args[0], a.program())
			}
			if err != nil {
				return err
			}
			run := resp.GetRun()
			if asJSON {
				return a.write(summary.JSON(run))
			}
			_, err = fmt.Fprintf(a.env.Stdout, "run %s: %s\n", run.GetId(), progress.RunStatus(run.GetStatus()))
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the run in the output contract (JSON)")
	return cmd
}
