package cli

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/greenlight-dev/greenlight/services/executor/executorsvc"
)

func (a *app) artifactsCmd() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "artifacts RUN -o DIR",
		Short: "Write a run's artifacts (manifest, full logs) under DIR/runs/RUN/",
		Args:  exactArgs(1, "a run id (see greenlight runs)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return usagef("-o DIR is required")
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
			arts := run.GetResult().GetArtifacts()
			if len(arts) == 0 {
				return fmt.Errorf("run %s has no artifacts (status %s)", run.GetId(), run.GetStatus())
			}
			if err := executorsvc.WriteArtifacts(ctx, conn.Blobs, out, run.GetId(), arts); err != nil {
				return err
			}
			base := filepath.Join(out, "runs", run.GetId())
			for _, art := range arts {
				fmt.Fprintln(a.env.Stdout, filepath.Join(base, filepath.FromSlash(art.GetPath())))
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "artifact `DIR` (the run goes to DIR/runs/RUN)")
	return cmd
}
