package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

func (a *app) versionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print greenlight's version",
		Args:  exactArgs(0, "no arguments"),
		RunE: func(*cobra.Command, []string) error {
			_, err := fmt.Fprintf(a.env.Stdout, "greenlight %s (%s, %s/%s)\n", a.version(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return err
		},
	}
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
