package rust

import (
	"maps"
	"strings"

	"github.com/greenlight-dev/greenlight/pkg/toolchain"
)

// offline keeps non-install cargo steps from reaching for the registry.
var offline = map[string]string{"CARGO_NET_OFFLINE": "true"}

// Commands returns cargo fetch (when anything is depended on), build and
// test.
func (Pack) Commands(p *toolchain.Project) []toolchain.Command {
	f, _ := p.Facts.(*facts)
	if f == nil {
		f = &facts{}
	}
	manifest := toolchain.Join(p.Root, "Cargo.toml")
	var out []toolchain.Command
	if f.HasDeps {
		keys := []string{manifest}
		if f.Lockfile != "" {
			keys = []string{f.Lockfile, manifest}
		}
		out = append(out, toolchain.Command{Name: "cargo-fetch", Phase: toolchain.PhaseInstall,
			Command: "cargo fetch", CacheKeyFiles: keys, Source: manifest})
	}
	// A package that is also a workspace root builds and tests only itself
	// by default; --workspace covers its members, as CI runs it.
	all := ""
	if f.Workspace {
		all = " --workspace"
	}
	return append(out,
		toolchain.Command{Name: "cargo-build", Phase: toolchain.PhaseBuild, Command: "cargo build" + all,
			Env: maps.Clone(offline), Source: manifest},
		toolchain.Command{Name: "cargo-test", Phase: toolchain.PhaseTest, Command: "cargo test" + all,
			Env: maps.Clone(offline), Source: manifest})
}

// Narrow re-runs exactly the named libtest tests.
func (Pack) Narrow(names []string) (string, bool) {
	if len(names) == 0 {
		return "", false
	}
	cmd := "cargo test -- --exact"
	for _, n := range names {
		cmd += " '" + strings.ReplaceAll(n, "'", `'\''`) + "'"
	}
	return cmd, true
}
