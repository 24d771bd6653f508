package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/progress"
	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/stack"
	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/summary"
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/cireport"
)

func (a *app) showCmd() *cobra.Command {
	var asJSON, markdown, whole bool
	var out formatFlags
	cmd := &cobra.Command{
		Use:   "show RUN",
		Short: "Show a run's summary (or its result as JSON or Markdown)",
		Long: `show prints a stored run: its summary, or with --json its result in the
output contract, --markdown a Markdown report, --format a CI report.

Exit codes as for verify and watch: 0 PASS, 1 FAIL, 2 anything else (an
ERROR or canceled run, a run without a verdict yet, bad usage, greenlight
not reachable), 130 interrupted.`,
		Args: exactArgs(1, "a run id (see "+a.program()+" runs)"),
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
			run, err := getRun(ctx, conn, args[0], a.program())
			if err != nil {
				return err
			}
			switch {
			case out.requested():
				if err := a.showFormat(conn, run, &out); err != nil {
					return err
				}
				if out.toFile() {
					a.printSummary(conn, run)
				}
			case asJSON:
				// The contract carries the fix record too; a run without a
				// result yet says status PENDING.
				if err := a.write(summary.JSON(run)); err != nil {
					return err
				}
			case markdown:
				// One Markdown rendering of a run: --markdown is --format
				// markdown on stdout.
				md := formatFlags{format: string(cireport.Markdown), parsed: cireport.Markdown}
				if err := a.showFormat(conn, run, &md); err != nil {
					return err
				}
			case run.GetResult() == nil:
				fmt.Fprintf(a.env.Stdout, "run %s is %s (no result yet): %s watch %s\n", run.GetId(), progress.RunStatus(run.GetStatus()), a.program(), run.GetId())
			default:
				a.printSummary(conn, run)
			}
			return showExit(run)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the run in the output contract (JSON; docs/contract.schema.json)")
	cmd.Flags().BoolVar(&whole, "run", false, "no effect: --json always includes a fix run's record")
	_ = cmd.Flags().MarkDeprecated("run", "--json always includes a fix run's record")
	cmd.Flags().BoolVar(&markdown, "markdown", false, "print the run as Markdown for a review or an issue (as --format markdown)")
	out.bind(cmd, "json", "markdown")
	return cmd
}

// showExit is show's exit code: the verdict's, as verify and watch
// exit; a run still going has no verdict yet (2, quietly: what it is doing
// was printed).
func showExit(run *glv1.Run) error {
	if run.GetResult() == nil {
		return &exitError{code: ExitError, quiet: true}
	}
	return verdictExit(run)
}

// errRunNotFound is getRun's error for an unknown run id.
var errRunNotFound = errors.New("not found")

// getRun fetches a run, turning NotFound into a one-line message whose
// hint names greenlight as the user runs it (prog, app.program).
func getRun(ctx context.Context, conn *stack.Conn, id, prog string) (*glv1.Run, error) {
	resp, err := conn.Run.GetRun(ctx, &glv1.GetRunRequest{RunId: id})
	if status.Code(err) == codes.NotFound {
		return nil, fmt.Errorf("run %q %w (%s runs lists the runs)", id, errRunNotFound, prog)
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
