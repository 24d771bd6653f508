package server

import (
	"fmt"
	"runtime/debug"
)

// version and commit are stamped by the build (make build, make dist):
//
//	-ldflags '-X github.com/greenlight-dev/greenlight/pkg/server.version=v1.2.3
//	          -X github.com/greenlight-dev/greenlight/pkg/server.commit=abc123'
//
// They live here, not in each main, so that every service binary answers
// --version and logs the same way from one stamp.
var (
	version string
	commit  string
)

// Version is the build's version and commit: the stamped ones, else what Go
// recorded in the binary (module version, vcs.revision), else "dev" and "".
func Version() (v, c string) {
	v, c = version, commit
	if info, ok := debug.ReadBuildInfo(); ok {
		if v == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			v = info.Main.Version
		}
		for _, s := range info.Settings {
			if c == "" && s.Key == "vcs.revision" {
				c = s.Value
			}
		}
	}
	if v == "" {
		v = "dev"
	}
	return v, c
}

// VersionLine is what `greenlight-NAME --version` prints.
func VersionLine(name string) string {
	v, c := Version()
	if c == "" {
		return fmt.Sprintf("greenlight-%s %s", name, v)
	}
	return fmt.Sprintf("greenlight-%s %s (commit %s)", name, v, c)
}

// asksVersion reports whether the arguments are a request for the version
// alone: --version or -version, as the CLI and most tools take it.
func asksVersion(args []string) bool {
	return len(args) == 1 && (args[0] == "--version" || args[0] == "-version")
}
