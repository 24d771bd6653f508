package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/greenlight-dev/greenlight/pkg/contract"
)

func (a *app) versionCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print greenlight's version",
		Args:  exactArgs(0, "no arguments"),
		RunE: func(*cobra.Command, []string) error {
			if asJSON {
				return a.write(contract.Marshal(versionInfo{Version: a.version(), Go: runtime.Version(), OS: runtime.GOOS,
					Arch: runtime.GOARCH, SchemaVersion: contract.SchemaVersion}))
			}
			_, err := fmt.Fprintf(a.env.Stdout, "greenlight %s (%s, %s/%s)\n", a.version(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the version as JSON")
	return cmd
}

// versionInfo is version --json: the build and the output contract it speaks.
type versionInfo struct {
	Version       string `json:"version"`
	Go            string `json:"go"`
	OS            string `json:"os"`
	Arch          string `json:"arch"`
	SchemaVersion string `json:"schema_version"`
}

// version is the build's version: -ldflags, else the VCS revision Go
// stamped into the binary, else "dev".
func (a *app) version() string {
	if a.env.Version != "" {
		return a.env.Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		rev, dirty := "", false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if rev != "" && dirty {
			return "dev-" + rev + "-dirty"
		}
		if rev != "" {
			return "dev-" + rev
		}
	}
	return "dev"
}
