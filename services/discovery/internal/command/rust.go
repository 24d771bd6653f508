package command

// offlineCargo keeps non-install cargo steps from reaching for the registry.
var offlineCargo = map[string]string{"CARGO_NET_OFFLINE": "true"}

func (e *extractor) rust() {
	info := e.sp.Rust
	manifest := e.file("Cargo.toml")
	def := Source{File: manifest, Origin: OriginDefault}
	if info.HasDeps {
		keys := []string{manifest}
		if info.Lockfile != "" {
			keys = []string{info.Lockfile, manifest}
		}
		e.add(Command{Name: "cargo-fetch", Phase: PhaseInstall, Command: "cargo fetch", CacheKeyFiles: keys, Source: def})
	}
	// A package that is also a workspace root builds and tests only
	// itself by default; --workspace covers its members, as CI runs it.
	all := ""
	if info.Workspace {
		all = " --workspace"
	}
	e.add(Command{Name: "cargo-build", Phase: PhaseBuild, Command: "cargo build" + all, Env: clone(offlineCargo), Source: def})
	e.add(Command{Name: "cargo-test", Phase: PhaseTest, Command: "cargo test" + all, Env: clone(offlineCargo), Source: def})
}
