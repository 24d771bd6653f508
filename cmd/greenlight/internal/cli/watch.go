package cli

import (
	"github.com/spf13/cobra"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

func (a *app) watchCmd() *cobra.Command {
	var after uint64
	var asJSON, logs bool
	cmd := &cobra.Command{
		Use:   "watch RUN",
		Short: "Follow a run's events live (replaying the stored ones first)",
		Long: `watch attaches to a run with WatchRun: it replays the run's stored events
after --after (0: all of them) and follows it live until it finishes, then
prints the summary. Exit codes as for verify.`,
		Args: exactArgs(1, "a run id (see "+a.program()+" runs)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			conn, err := a.connect(ctx)
			if err != nil {
				return err
			}
			defer conn.Close()
			recv, err := rewatch(ctx, conn, args[0], after)
			if err != nil {
				return err
			}
			if asJSON {
				return a.watchJSON(ctx, conn, recv)
			}
			run, err := a.followAndReport(ctx, conn, recv, false, logs)
			if err != nil {
				return err
			}
			a.printSummary(conn, run)
			return verdictExit(run)
		},
	}
	cmd.Flags().Uint64Var(&after, "after", 0, "replay only events with seq greater than `N`")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print every event as one line of JSON")
	cmd.Flags().BoolVar(&logs, "logs", false, "print log lines as they arrive")
	return cmd
}

// jsonSink prints events as JSON lines.
type jsonSink struct {
	a   *app
	err error
}

func (s *jsonSink) Event(ev *glv1.RunEvent) {
	if s.err != nil {
		return
	}
	b, err := eventJSON(ev)
	if err == nil {
		_, err = s.a.env.Stdout.Write(append(b, '\n'))
	}
	s.err = err
}
