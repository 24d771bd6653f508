package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/contract"
	"github.com/greenlight-dev/greenlight/services/executor/executorsvc"
)

// artifactList is artifacts --json.
type artifactList struct {
	RunID string   `json:"run_id"`
	Dir   string   `json:"dir"`
	Files []string `json:"files"`
}

// writeResultJSON writes the run in the output contract as DIR/result.json
// beside the manifest and logs, so the artifact directory is complete.
func writeResultJSON(dir string, run *glv1.Run) ([]string, error) {
	b, err := contract.Marshal(contract.FromRun(run))
	if err != nil {
		return nil, err
	}
	p := filepath.Join(dir, "result.json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		return nil, fmt.Errorf("write %s: %w", p, err)
	}
	return []string{p}, nil
}

func (a *app) artifactsCmd() *cobra.Command {
	var out string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "artifacts RUN -o DIR",
		Short: "Write a run's artifacts (result.json, manifest, full logs) under DIR/runs/RUN/",
		Args:  exactArgs(1, "a run id (see "+a.program()+" runs)"),
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
			run, err := getRun(ctx, conn, args[0], a.program())
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
			files, err := writeResultJSON(base, run)
			if err != nil {
				return err
			}
			for _, art := range arts {
				files = append(files, filepath.Join(base, filepath.FromSlash(art.GetPath())))
			}
			if asJSON {
				return a.write(contract.Marshal(artifactList{RunID: run.GetId(), Dir: base, Files: files}))
			}
			for _, f := range files {
				fmt.Fprintln(a.env.Stdout, f)
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "artifact `DIR` (the run goes to DIR/runs/RUN)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "list the written files as JSON")
	return cmd
}
