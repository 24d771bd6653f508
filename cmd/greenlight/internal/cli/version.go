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
		Short: "Print greenlight's version and commit (same as greenlight --version)",
		Args:  exactArgs(0, "no arguments"),
		RunE: func(*cobra.Command, []string) error {
			b := a.build()
			if asJSON {
				return a.write(contract.Marshal(versionInfo{Version: b.Version, Commit: b.Commit, CommitTime: b.CommitTime,
					Modified: b.Modified, Go: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH,
					SchemaVersion: contract.SchemaVersion}))
			}
			_, err := fmt.Fprintln(a.env.Stdout, b.line())
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the version as JSON")
	return cmd
}

// versionInfo is version --json: the build and the output contract it speaks.
type versionInfo struct {
	Version string `json:"version"`
	// Commit is the full revision the binary was built from ("" when the
	// build recorded none).
	Commit string `json:"commit"`
	// CommitTime is the revision's commit time (RFC 3339; "" when unknown).
	CommitTime string `json:"commit_time"`
	// Modified: the working tree had uncommitted changes at build time.
	Modified      bool   `json:"modified"`
	Go            string `json:"go"`
	OS            string `json:"os"`
	Arch          string `json:"arch"`
	SchemaVersion string `json:"schema_version"`
}

// buildInfo is what the binary knows about its own build.
type buildInfo struct {
	Version    string
	Commit     string
	CommitTime string
	Modified   bool
}

// line is the one-line form of --version and version.
func (b buildInfo) line() string {
	commit := b.Commit
	if len(commit) > 12 {
		commit = commit[:12]
	}
	if commit == "" {
		commit = "unknown"
	} else if b.Modified {
		commit += "-dirty"
	}
	return fmt.Sprintf("greenlight %s (commit %s, %s, %s/%s)", b.Version, commit, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// build is the build's version and commit: the values make build stamps
// with -ldflags -X (Env.Version, Env.Commit), else what Go recorded in
// the binary (the module version of `go install …@vX`, the VCS revision
// of a build in a checkout), and "dev" only when there is nothing at all.
func (a *app) build() buildInfo { return buildOf(a.env, debug.ReadBuildInfo) }

// buildOf is build with the binary's build information read by read.
func buildOf(env Env, read func() (*debug.BuildInfo, bool)) buildInfo {
	b := buildInfo{Version: env.Version, Commit: env.Commit}
	var vcs buildInfo
	var modVersion string
	if bi, ok := read(); ok {
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			modVersion = v
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				vcs.Commit = s.Value
			case "vcs.time":
				vcs.CommitTime = s.Value
			case "vcs.modified":
				vcs.Modified = s.Value == "true"
			}
		}
	}
	// Go's VCS data completes a stamped commit only when it is of the
	// same revision.
	if b.Commit == "" || b.Commit == vcs.Commit {
		b.Commit, b.CommitTime, b.Modified = vcs.Commit, vcs.CommitTime, vcs.Modified
	}
	if b.Version == "" {
		b.Version = modVersion
	}
	if b.Version == "" && b.Commit != "" {
		short := b.Commit
		if len(short) > 12 {
			short = short[:12]
		}
		b.Version = "dev-" + short
		if b.Modified {
			b.Version += "-dirty"
		}
	}
	if b.Version == "" {
		b.Version = "dev"
	}
	return b
}

// version is the build's version string.
func (a *app) version() string { return a.build().Version }
