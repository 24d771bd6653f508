package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/progress"
	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/stack"
	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/summary"
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

func (a *app) showCmd() *cobra.Command {
	var asJSON, markdown, whole bool
	var out formatFlags
	cmd := &cobra.Command{
		Use:   "show RUN",
		Short: "Show a run's summary (or its result as JSON or Markdown)",
		Args:  exactArgs(1, "a run id (see greenlight runs)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if asJSON && markdown {
				return usagef("--json and --markdown exclude each other")
			}
			ctx := cmd.Context()
			conn, err := a.connect(ctx)
			if err != nil {
				return err
			}
			defer conn.Close()
			run, err := getRun(ctx, conn, args[0])
			if err != nil {
				return err
			}
			if out.requested() {
				return a.showFormat(conn, run, &out)
			}
			switch {
			case asJSON:
				// The contract carries the fix record too; a run without a
				// result yet says status PENDING.
				return a.write(summary.JSON(run))
			case markdown:
				_, err := fmt.Fprint(a.env.Stdout, summary.Markdown(run, conn.ReportURL(run.GetId())))
				return err
			}
			if run.GetResult() == nil {
				fmt.Fprintf(a.env.Stdout, "run %s is %s (no result yet): greenlight watch %s\n", run.GetId(), progress.RunStatus(run.GetStatus()), run.GetId())
				return nil
			}
			a.printSummary(conn, run)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the run in the output contract (JSON; docs/contract.schema.json)")
	cmd.Flags().BoolVar(&whole, "run", false, "no effect: --json always includes a fix run's record")
	_ = cmd.Flags().MarkDeprecated("run", "--json always includes a fix run's record")
	cmd.Flags().BoolVar(&markdown, "markdown", false, "print the summary as Markdown")
	out.bind(cmd, "json", "markdown")
	return cmd
}

// getRun fetches a run, turning NotFound into a one-line message.
func getRun(ctx context.Context, conn *stack.Conn, id string) (*glv1.Run, error) {
	resp, err := conn.Run.GetRun(ctx, &glv1.GetRunRequest{RunId: id})
	if status.Code(err) == codes.NotFound {
		return nil, fmt.Errorf("run %q not found (greenlight runs lists the runs)", id)
	}
	if err != nil {
		return nil, err
	}
	return resp.GetRun(), nil
}

// write writes b (or returns err) to stdout.
func (a *app) write(b []byte, err error) error {
	if err != nil {
		return err
	}
	_, err = a.env.Stdout.Write(b)
	return err
}
