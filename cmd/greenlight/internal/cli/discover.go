package cli

import (
	"github.com/spf13/cobra"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/snapshot"
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/discovery/discoverysvc"
)

func (a *app) discoverCmd() *cobra.Command {
	var maxBytes string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "discover [DIR]",
		Short: "Print what greenlight finds in a workspace (capabilities.json): runtimes, tools, commands",
		Args:  maxArgs(1),
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
			b, err := discoverysvc.CapabilitiesJSON(resp.GetCapabilities())
			if err != nil {
				return err
			}
			_, err = a.env.Stdout.Write(b)
			return err
		},
	}
	cmd.Flags().StringVar(&maxBytes, "max-workspace-bytes", "1GiB", "refuse a workspace larger than this `size`")
	// JSON is discover's only output; the flag exists so every command
	// takes --json.
	cmd.Flags().BoolVar(&asJSON, "json", true, "print capabilities.json in the output contract's style (the default)")
	return cmd
}
