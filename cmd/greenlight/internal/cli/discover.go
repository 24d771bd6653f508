package cli

import (
	"github.com/spf13/cobra"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/snapshot"
	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/summary"
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/discovery/discoverysvc"
)

func (a *app) discoverCmd() *cobra.Command {
	var maxBytes string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "discover [DIR]",
		Short: "List what greenlight finds in a workspace and would run (--json: capabilities.json)",
		Long: `discover packs DIR as verify would and lists what discovery finds: the
subprojects with their runtimes and tools, then every command greenlight may
run for it, in order, with its tier (0 runs on every verify, 1 on risk, 2 at
a run's end), phase, level and the file it came from. Nothing runs.

--json prints capabilities.json: the same and every detail (environment,
timeouts, cache keys, risk triggers), in the output contract's style.`,
		Args: maxArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f := verifyFlags{maxBytes: maxBytes}
			if err := f.parse(); err != nil {
				return err
			}
			ctx := cmd.Context()
			packed, err := snapshot.Pack(ctx, dirArg(args), f.maxByteVal, "")
			if err != nil {
				return err
			}
			defer packed.Remove()
			conn, err := a.connect(ctx)
			if err != nil {
				return err
			}
			defer conn.Close()
			if err := packed.Upload(ctx, conn.Blobs); err != nil {
				return err
			}
			resp, err := conn.Run.DiscoverWorkspace(ctx, &glv1.DiscoverWorkspaceRequest{Snapshot: packed.Digest.Proto()})
			if err != nil {
				return err
			}
			if !asJSON {
				summary.Capabilities(a.env.Stdout, resp.GetCapabilities(), dirArg(args))
				return nil
			}
			b, err := discoverysvc.CapabilitiesJSON(resp.GetCapabilities())
			if err != nil {
				return err
			}
			_, err = a.env.Stdout.Write(b)
			return err
		},
	}
	cmd.Flags().StringVar(&maxBytes, "max-workspace-bytes", "1GiB", "refuse a workspace larger than this `size`")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print capabilities.json (every field, in the output contract's style)")
	return cmd
}
