package detect

import (
	"fmt"
	"strings"

	"github.com/BurntSushi/toml"
)

// RustInfo holds what command extraction needs about a Cargo project.
type RustInfo struct {
	HasDeps   bool
	Workspace bool
	// Lockfile is the workspace-relative Cargo.lock when it exists.
	Lockfile string
	Invalid  bool
}

func detectRust(v *view, sp *Subproject) error {
	file := join(sp.Root, "Cargo.toml")
	info := &RustInfo{}
	sp.Rust = info
	sp.PackageManager = "cargo"
	sp.TestFrameworks = []string{"cargo test"}
	data, err := v.read(file)
	if err != nil {
		sp.Problems = append(sp.Problems, Problem{File: file, Msg: fmt.Sprintf("not read: %v", err)})
		return nil
	}
	var doc map[string]any
	if _, err := toml.Decode(string(data), &doc); err != nil {
		info.Invalid = true
		sp.Problems = append(sp.Problems, tomlProblem(file, err))
	} else {
		_, info.Workspace = doc["workspace"]
		for _, k := range []string{"dependencies", "dev-dependencies", "build-dependencies"} {
			if len(table(doc, k)) > 0 || len(table(table(doc, "workspace"), k)) > 0 {
				info.HasDeps = true
			}
		}
		if rv := str(table(doc, "package"), "rust-version"); rv != "" {
			sp.Versions = append(sp.Versions, VersionHint{Tool: "rust", Version: rv, Source: file + ":package.rust-version"})
		}
	}
	if v.has(sp.Root, "Cargo.lock") {
		info.Lockfile = join(sp.Root, "Cargo.lock")
		sp.Markers = append(sp.Markers, info.Lockfile)
	}
	sp.Versions = append(sp.Versions, rustToolchain(v, sp.Root)...)
	// Integration tests live in tests/ of the crate or of any workspace
	// member; unit tests inside src/ cannot be seen without reading sources.
	for _, f := range v.under(sp.Root, nil) {
		rel := strings.TrimPrefix(f, sp.Root+"/")
		if strings.HasSuffix(f, ".rs") && (strings.HasPrefix(rel, "tests/") || strings.Contains(rel, "/tests/")) {
			sp.HasTests = true
			break
		}
	}
	for _, n := range []string{"clippy.toml", ".clippy.toml"} {
		if v.has(sp.Root, n) {
			sp.Linters = append(sp.Linters, "clippy")
		}
	}
	return nil
}

// rustToolchain reads rust-toolchain.toml's toolchain.channel or the legacy
// one-line rust-toolchain file.
func rustToolchain(v *view, root string) []VersionHint {
	for _, dir := range uniqueDirs(root) {
		name := join(dir, "rust-toolchain.toml")
		if data, err := v.read(name); err == nil {
			var doc map[string]any
			if _, err := toml.Decode(string(data), &doc); err == nil {
				if ch := str(table(doc, "toolchain"), "channel"); ch != "" {
					return []VersionHint{{Tool: "rust", Version: ch, Source: name + ":toolchain.channel"}}
				}
			}
		}
		if h := fileVersion(v, dir, "rust-toolchain", "rust"); h != nil && hasFile(v, join(dir, "rust-toolchain")) {
			return h
		}
	}
	return nil
}
