package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/stack"
	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/summary"
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

func (a *app) runsCmd() *cobra.Command {
	var statuses []string
	var limit int
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "runs",
		Short: "List runs, newest first",
		Args:  exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			filter, err := parseStatuses(statuses)
			if err != nil {
				return err
			}
			if limit <= 0 {
				return usagef("--limit must be positive")
			}
			ctx := cmd.Context()
			conn, err := a.connect(ctx)
			if err != nil {
				return err
			}
			defer conn.Close()
			var runs []*glv1.Run
			token := ""
			for len(runs) < limit {
				resp, err := conn.Run.ListRuns(ctx, &glv1.ListRunsRequest{
					Statuses: filter, PageSize: int32(min(limit-len(runs), 100)), PageToken: token,
				})
				if err != nil {
					return err
				}
				runs = append(runs, resp.GetRuns()...)
				if token = resp.GetNextPageToken(); token == "" {
					break
				}
			}
			if asJSON {
				return a.printRunsJSON(ctx, conn, runs)
			}
			summary.RunsTable(a.env.Stdout, runs)
			return nil
		},
	}
	cmd.Flags().StringSliceVar(&statuses, "status", nil, "only runs with these statuses: pending, running, passed, failed, error, canceled, interrupted")
	cmd.Flags().IntVar(&limit, "limit", 20, "list at most `N` runs")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the runs as JSON lines, one full output-contract result per run")
	return cmd
}

// parseStatuses maps status names to RunStatus values.
func parseStatuses(names []string) ([]glv1.RunStatus, error) {
	var out []glv1.RunStatus
	for _, n := range names {
		key := "RUN_STATUS_" + strings.ToUpper(strings.TrimSpace(n))
		v, ok := glv1.RunStatus_value[key]
		if !ok || v == 0 {
			return nil, usagef("--status: unknown status %q (pending, running, passed, failed, error, canceled, interrupted)", n)
		}
		out = append(out, glv1.RunStatus(v))
	}
	return out, nil
}

// printRunsJSON prints one full result per line. ListRuns leaves results
// out (a page of runs stays small), so each run is read whole with GetRun;
// a run gone meanwhile is printed as listed.
func (a *app) printRunsJSON(ctx context.Context, conn *stack.Conn, runs []*glv1.Run) error {
	for _, r := range runs {
		if r.GetResult() == nil {
			full, err := getRun(ctx, conn, r.GetId(), a.program())
			switch {
			case err == nil:
				r = full
			case !errors.Is(err, errRunNotFound):
				return err
			}
		}
		b, err := summary.JSONLine(r)
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(a.env.Stdout, "%s\n", b); err != nil {
			return err
		}
	}
	return nil
}
